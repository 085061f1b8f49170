// Array and map functions: the ARRAY[...] constructor over non-constant values
// (array_constructor), cardinality, element_at, the subscript operator `a[i]` / `m[k]`
// (subscript) and contains, with Trino's semantics: indices are 1-based; element_at
// counts negative indices from the end and gives NULL out of range, while a subscript
// out of range is an error.

#include <algorithm>
#include <string>

#include "columnar/take.h"
#include "exec/functions/array_elements_internal.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/comparison.h"
#include "exec/functions/interleave.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;

namespace {

bool IsList(const TypePtr& t) { return t != nullptr && t->id() == TypeId::kList; }
bool IsMap(const TypePtr& t) { return t != nullptr && t->id() == TypeId::kMap; }

/// Row i of the result is args[i % n] of row i / n: the elements of every row's array,
/// in order, then offsets i * n.
Result<Column> ArrayConstructor(const std::vector<Column>& args, int64_t rows,
                                const ScalarFunction& fn, const EvalContext& ctx) {
  const TypePtr& element_type = fn.return_type->value_field().type();
  const int64_t n = static_cast<int64_t>(args.size());
  if (rows * n > INT32_MAX)
    return Status::ResourceExhausted("array column larger than 2^31 elements");
  Column child;
  if (n == 0) {
    SQE_ASSIGN_OR_RETURN(child, Column::MakeAllNull(element_type, 0, ctx.tracker));
  } else {
    std::vector<int32_t> piece(static_cast<size_t>(rows * n));
    std::vector<uint32_t> row(static_cast<size_t>(rows * n));
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t k = 0; k < n; ++k) {
        piece[i * n + k] = static_cast<int32_t>(k);
        row[i * n + k] = static_cast<uint32_t>(i);
      }
    }
    SQE_ASSIGN_OR_RETURN(child,
                         Interleave(element_type, args, piece.data(), row.data(), rows * n, ctx));
  }
  SQE_ASSIGN_OR_RETURN(auto offsets, kernel::AllocateBuffer((rows + 1) * 4, ctx));
  int32_t* off = offsets->mutable_data_as<int32_t>();
  for (int64_t i = 0; i <= rows; ++i) off[i] = static_cast<int32_t>(i * n);
  return Column::Make(fn.return_type, rows, {nullptr, std::move(offsets)}, {std::move(child)}, 0);
}

Result<Column> Cardinality(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                           const EvalContext& ctx) {
  const Column& a = args[0];
  SQE_ASSIGN_OR_RETURN(auto values, kernel::AllocateBuffer(rows * 8, ctx));
  int64_t* out = values->mutable_data_as<int64_t>();
  for (int64_t i = 0; i < rows; ++i) out[i] = a.IsNull(i) ? 0 : a.ListLength(i);
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::IntersectValidity({&a}, rows, ctx, &nulls));
  return kernel::MakeFixed(fn.return_type, rows, std::move(validity), nulls, std::move(values));
}

/// Array access: what an index out of range does.
enum class OutOfRange { kNull, kError };

Result<Column> ArrayAt(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                       const EvalContext& ctx, OutOfRange mode) {
  const Column& a = args[0];
  const Column& index = args[1];
  std::vector<int32_t> piece(static_cast<size_t>(rows), -1);
  std::vector<uint32_t> element(static_cast<size_t>(rows), 0);
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i) || index.IsNull(i)) continue;
    const int64_t length = a.ListLength(i);
    int64_t k = index.Value<int64_t>(i);
    if (k == 0) return Status::InvalidArgument("SQL array indices start at 1");
    if (k < 0) {
      if (mode == OutOfRange::kError) {
        return Status::InvalidArgument("Array subscript is negative: " + std::to_string(k));
      }
      k = length + k + 1;
      if (k <= 0) continue;
    }
    if (k > length) {
      if (mode == OutOfRange::kError) {
        return Status::InvalidArgument(
            "Array subscript must be less than or equal to array length: " + std::to_string(k) +
            " > " + std::to_string(length));
      }
      continue;
    }
    piece[i] = 0;
    element[i] = static_cast<uint32_t>(a.ListStart(i) + k - 1);
  }
  std::vector<Column> pieces = {a.ListValues()};
  return Interleave(fn.return_type, pieces, piece.data(), element.data(), rows, ctx);
}

/// For each row with a non-null container and probe, compares the probe with each of the
/// row's elements (`elements`: the container's values or map keys). `visit(row, k, eq)`
/// gets the k-th element's comparison (eq null when the element is null).
template <typename Visit>
Status CompareWithElements(const Column& container, const Column& elements, const Column& probe,
                           int64_t rows, const EvalContext& ctx, Visit visit) {
  columnar::SelectionVector element_rows, probe_rows;
  for (int64_t i = 0; i < rows; ++i) {
    if (container.IsNull(i) || probe.IsNull(i)) continue;
    const int64_t start = container.ListStart(i);
    for (int64_t k = 0; k < container.ListLength(i); ++k) {
      element_rows.Append(static_cast<uint32_t>(start + k));
      probe_rows.Append(static_cast<uint32_t>(i));
    }
  }
  if (element_rows.empty()) return Status::OK();
  SQE_ASSIGN_OR_RETURN(Column left, columnar::Take(elements, element_rows, ctx.tracker));
  SQE_ASSIGN_OR_RETURN(Column right, columnar::Take(probe, probe_rows, ctx.tracker));
  SQE_ASSIGN_OR_RETURN(Column eq, CompareColumns(CompareOp::kEq, left, right, ctx));
  int64_t pos = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (container.IsNull(i) || probe.IsNull(i)) continue;
    for (int64_t k = 0; k < container.ListLength(i); ++k, ++pos) {
      visit(i, k, eq.IsValid(pos), eq.IsValid(pos) && eq.BoolAt(pos));
    }
  }
  return Status::OK();
}

/// A map key for an error message: strings as they are, integers in decimal.
std::string KeyText(const Column& key, int64_t i) {
  switch (key.type_id()) {
    case TypeId::kString:
      return std::string(key.StringAt(i));
    case TypeId::kInt8:
      return std::to_string(key.Value<int8_t>(i));
    case TypeId::kInt16:
      return std::to_string(key.Value<int16_t>(i));
    case TypeId::kInt32:
      return std::to_string(key.Value<int32_t>(i));
    case TypeId::kInt64:
      return std::to_string(key.Value<int64_t>(i));
    default:
      return "(" + key.type()->ToString() + " value)";
  }
}

Result<Column> MapAt(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                     const EvalContext& ctx, OutOfRange mode) {
  const Column& m = args[0];
  const Column& key = args[1];
  std::vector<int32_t> piece(static_cast<size_t>(rows), -1);
  std::vector<uint32_t> entry(static_cast<size_t>(rows), 0);
  SQE_RETURN_NOT_OK(CompareWithElements(m, m.MapKeys(), key, rows, ctx,
                                        [&](int64_t i, int64_t k, bool, bool equal) {
                                          if (equal && piece[i] < 0) {
                                            piece[i] = 0;
                                            entry[i] = static_cast<uint32_t>(m.ListStart(i) + k);
                                          }
                                        }));
  if (mode == OutOfRange::kError) {
    for (int64_t i = 0; i < rows; ++i) {
      if (m.IsNull(i) || key.IsNull(i) || piece[i] >= 0) continue;
      return Status::InvalidArgument("Key not present in map: " + KeyText(key, i));
    }
  }
  std::vector<Column> pieces = {m.MapItems()};
  return Interleave(fn.return_type, pieces, piece.data(), entry.data(), rows, ctx);
}

/// contains(array, value): true when an element equals value; NULL when none does but an
/// element is NULL, or when the array or the value is NULL; false otherwise.
Result<Column> Contains(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                        const EvalContext& ctx) {
  const Column& a = args[0];
  const Column& value = args[1];
  enum : uint8_t { kFalse, kTrue, kUnknown };
  std::vector<uint8_t> result(static_cast<size_t>(rows), kFalse);
  SQE_RETURN_NOT_OK(CompareWithElements(a, a.ListValues(), value, rows, ctx,
                                        [&](int64_t i, int64_t, bool known, bool equal) {
                                          if (equal) {
                                            result[i] = kTrue;
                                          } else if (!known && result[i] == kFalse) {
                                            result[i] = kUnknown;
                                          }
                                        }));
  SQE_ASSIGN_OR_RETURN(auto bits, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i) || value.IsNull(i) || result[i] == kUnknown) {
      ++nulls;
      continue;
    }
    columnar::SetBit(validity->mutable_data(), i);
    if (result[i] == kTrue) columnar::SetBit(bits->mutable_data(), i);
  }
  return Column::Make(fn.return_type, rows, {nulls == 0 ? nullptr : validity, std::move(bits)}, {},
                      nulls);
}

ScalarKernel AtKernel(OutOfRange mode) {
  return [mode](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                const EvalContext& ctx) -> Result<Column> {
    if (args[0].type_id() == TypeId::kMap) return MapAt(args, rows, fn, ctx, mode);
    return ArrayAt(args, rows, fn, ctx, mode);
  };
}

ScalarResolver AtResolver(std::string name, OutOfRange mode) {
  return [name, mode](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
    if (types.size() != 2) return std::optional<ScalarFunction>();
    if (IsList(types[0])) {
      return kernel::Instance(name, {types[0], columnar::Int64()}, types[0]->value_field().type(),
                              AtKernel(mode));
    }
    if (IsMap(types[0]) && IsComparableType(types[0]->key_field().type())) {
      return kernel::Instance(name, {types[0], types[0]->key_field().type()},
                              types[0]->item_field().type(), AtKernel(mode));
    }
    return std::optional<ScalarFunction>();
  };
}

}  // namespace

void RegisterArrayFunctions(FunctionRegistry& r) {
  r.AddScalar("array_constructor",
              [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
                TypePtr element;
                for (const TypePtr& t : types) {
                  auto common = CommonSuperType(element, t);
                  if (!common) return std::optional<ScalarFunction>();
                  element = *common;
                }
                if (element == nullptr) element = columnar::Boolean();
                return kernel::Instance("array_constructor",
                                        std::vector<TypePtr>(types.size(), element),
                                        columnar::List(element), ArrayConstructor);
              },
              {"array_constructor", "array(T)", "T, ...", "scalar",
               "ARRAY[...]: an array of its arguments"});
  r.AddScalar("cardinality",
              [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
                if (types.size() != 1 || !(IsList(types[0]) || IsMap(types[0]))) {
                  return std::optional<ScalarFunction>();
                }
                return kernel::Instance("cardinality", {types[0]}, columnar::Int64(), Cardinality);
              },
              {"cardinality", "bigint", "array(T) | map(K,V)", "scalar", "the number of elements"});
  r.AddScalar("element_at", AtResolver("element_at", OutOfRange::kNull),
              {"element_at", "T | V", "array(T), bigint | map(K,V), K", "scalar",
               "the element at a 1-based index (negative: from the end) or of a map key; NULL "
               "when there is none"});
  r.AddScalar("subscript", AtResolver("subscript", OutOfRange::kError),
              {"subscript", "T | V", "array(T), bigint | map(K,V), K", "scalar",
               "a[i] (1-based; an error out of range) and m[key] (an error for a missing key)"});
  r.AddScalar("contains",
              [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
                if (types.size() != 2 || !IsList(types[0])) return std::optional<ScalarFunction>();
                if (!IsComparableType(types[0]->value_field().type())) {
                  return std::optional<ScalarFunction>();
                }
                const TypePtr element = array_elements::ElementWithValue(types[0], types[1]);
                return kernel::Instance("contains", {columnar::List(element), element},
                                        columnar::Boolean(), Contains);
              },
              {"contains", "boolean", "array(T), T", "scalar",
               "whether the array holds the value (NULL when it does not but holds a NULL)"});
}

}  // namespace sqe::exec
