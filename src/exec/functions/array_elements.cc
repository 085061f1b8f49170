#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "columnar/bit_util.h"
#include "columnar/take.h"
#include "exec/functions/array_elements_internal.h"
#include "exec/functions/cast.h"
#include "exec/functions/comparison.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/nested_comparison.h"
#include "exec/functions/nested_key_encoding.h"

namespace sqe::exec::array_elements {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;

std::vector<int64_t> Lengths(const Column& list, int64_t rows) {
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  for (int64_t i = 0; i < rows; ++i) lengths[i] = list.IsNull(i) ? 0 : list.ListLength(i);
  return lengths;
}

std::vector<uint8_t> NullFlags(const Column& c, int64_t rows) {
  std::vector<uint8_t> flags(static_cast<size_t>(rows), 0);
  for (int64_t i = 0; i < rows; ++i) flags[i] = c.IsNull(i) ? 1 : 0;
  return flags;
}

void AddFamily(FunctionRegistry& r, const std::string& name,
               std::function<std::optional<ScalarFunction>(const std::vector<TypePtr>&)> resolve,
               std::string returns, std::string arguments, std::string description) {
  r.AddScalar(
      name,
      [resolve](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        return resolve(types);
      },
      FunctionInfo{name, std::move(returns), std::move(arguments), "scalar",
                   std::move(description)});
}

ElementRows ListElements(const Column& list, int64_t rows) {
  ElementRows out;
  for (int64_t i = 0; i < rows; ++i) {
    if (list.IsNull(i)) continue;
    const int64_t start = list.ListStart(i);
    const int64_t n = list.ListLength(i);
    for (int64_t k = 0; k < n; ++k) {
      out.index.push_back(static_cast<uint32_t>(start + k));
      out.row_of.push_back(static_cast<uint32_t>(i));
    }
  }
  return out;
}

namespace {

/// The validity bitmap and offsets of a list-layout column.
Status ListBuffers(int64_t rows, const std::vector<uint8_t>& is_null,
                   const std::vector<int64_t>& lengths, const EvalContext& ctx,
                   columnar::BufferPtr* validity, columnar::BufferPtr* offsets, int64_t* nulls) {
  SQE_ASSIGN_OR_RETURN(auto offset_buffer, kernel::AllocateBuffer((rows + 1) * 4, ctx));
  int32_t* off = offset_buffer->mutable_data_as<int32_t>();
  int64_t total = 0;
  off[0] = 0;
  *nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (is_null[i]) {
      ++*nulls;
    } else {
      total += lengths[i];
    }
    if (total > INT32_MAX)
      return Status::ResourceExhausted("array column larger than 2^31 elements");
    off[i + 1] = static_cast<int32_t>(total);
  }
  *offsets = std::move(offset_buffer);
  *validity = nullptr;
  if (*nulls > 0) {
    SQE_ASSIGN_OR_RETURN(auto bits, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
    for (int64_t i = 0; i < rows; ++i) {
      if (!is_null[i]) columnar::SetBit(bits->mutable_data(), i);
    }
    *validity = std::move(bits);
  }
  return Status::OK();
}

}  // namespace

Result<Column> MakeListWithNulls(const TypePtr& type, int64_t rows,
                                 const std::vector<uint8_t>& is_null,
                                 const std::vector<int64_t>& lengths, Column child,
                                 const EvalContext& ctx) {
  columnar::BufferPtr validity, offsets;
  int64_t nulls = 0;
  SQE_RETURN_NOT_OK(ListBuffers(rows, is_null, lengths, ctx, &validity, &offsets, &nulls));
  return Column::Make(type, rows, {std::move(validity), std::move(offsets)}, {std::move(child)},
                      nulls);
}

Result<Column> MakeList(const TypePtr& type, int64_t rows, const Column* nulls_from,
                        const std::vector<int64_t>& lengths, Column child, const EvalContext& ctx) {
  std::vector<uint8_t> is_null(static_cast<size_t>(rows), 0);
  if (nulls_from != nullptr) {
    for (int64_t i = 0; i < rows; ++i) is_null[i] = nulls_from->IsNull(i) ? 1 : 0;
  }
  return MakeListWithNulls(type, rows, is_null, lengths, std::move(child), ctx);
}

Result<Column> MakeMap(const TypePtr& type, int64_t rows, const std::vector<uint8_t>& is_null,
                       const std::vector<int64_t>& lengths, Column keys, Column values,
                       const EvalContext& ctx) {
  const int64_t n = keys.length();
  SQE_ASSIGN_OR_RETURN(Column entries, Column::Make(type->value_field().type(), n, {nullptr},
                                                    {std::move(keys), std::move(values)}, 0));
  return MakeListWithNulls(type, rows, is_null, lengths, std::move(entries), ctx);
}

TypePtr ElementWithValue(const TypePtr& array, const TypePtr& value) {
  const TypePtr& element = array->value_field().type();
  if (value == nullptr || value->Equals(*element)) return element;
  if (IsUnknownElementArray(array) && IsComparableType(value)) return value;  // ARRAY[]
  std::optional<TypePtr> common = CommonSuperType(element, value);
  return common && IsComparableType(*common) ? *common : element;
}

namespace {

template <typename T>
int Three(T x, T y) {
  return x < y ? -1 : (y < x ? 1 : 0);
}

template <typename T>
int ThreeFloating(T x, T y) {
  const bool xn = std::isnan(x);
  const bool yn = std::isnan(y);
  if (xn || yn) return xn == yn ? 0 : (xn ? 1 : -1);
  return Three(x, y);
}

}  // namespace

int CompareValues(const Column& a, int64_t i, const Column& b, int64_t j) {
  switch (a.type_id()) {
    case TypeId::kBoolean:
      return Three(static_cast<int>(a.BoolAt(i)), static_cast<int>(b.BoolAt(j)));
    case TypeId::kInt8:
      return Three(a.Value<int8_t>(i), b.Value<int8_t>(j));
    case TypeId::kInt16:
      return Three(a.Value<int16_t>(i), b.Value<int16_t>(j));
    case TypeId::kInt32:
    case TypeId::kDate32:
      return Three(a.Value<int32_t>(i), b.Value<int32_t>(j));
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return Three(a.Value<int64_t>(i), b.Value<int64_t>(j));
    case TypeId::kFloat32:
      return ThreeFloating(a.Value<float>(i), b.Value<float>(j));
    case TypeId::kFloat64:
      return ThreeFloating(a.Value<double>(i), b.Value<double>(j));
    case TypeId::kDecimal128:
      return Three(kernel::ToInt128(a.DecimalAt(i)), kernel::ToInt128(b.DecimalAt(j)));
    case TypeId::kString:
    case TypeId::kBinary: {
      const int c = a.StringAt(i).compare(b.StringAt(j));
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid: {
      const int c = a.FixedSizeBinaryAt(i).compare(b.FixedSizeBinaryAt(j));
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case TypeId::kList: {
      const Column& av = a.ListValues();
      const Column& bv = b.ListValues();
      const int64_t an = a.ListLength(i);
      const int64_t bn = b.ListLength(j);
      const int64_t as = a.ListStart(i);
      const int64_t bs = b.ListStart(j);
      for (int64_t k = 0; k < an && k < bn; ++k) {
        const int c = CompareNullable(av, as + k, bv, bs + k);
        if (c != 0) return c;
      }
      return Three(an, bn);
    }
    case TypeId::kStruct: {
      for (int f = 0; f < a.type()->num_fields(); ++f) {
        const int c = CompareNullable(a.StructField(f), i, b.StructField(f), j);
        if (c != 0) return c;
      }
      return 0;
    }
    case TypeId::kMap: {
      // Maps have no SQL order; their grouping-key images give a total order that is 0
      // exactly for maps that are not distinct (the same entries in any order).
      std::string x, y;
      AppendGroupingKey(a, i, &x);
      AppendGroupingKey(b, j, &y);
      const int c = x.compare(y);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return 0;
  }
}

Result<Column> Gather(const Column& column, const std::vector<uint32_t>& index,
                      const EvalContext& ctx) {
  return columnar::Take(column, columnar::SelectionVector(index), ctx.tracker);
}

std::vector<uint32_t> DistinctPositions(const Column& values,
                                        const std::vector<uint32_t>& positions) {
  std::vector<uint32_t> order(positions.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<uint32_t>(k);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    return CompareNullable(values, positions[x], values, positions[y]) < 0;
  });
  std::vector<uint8_t> keep(positions.size(), 0);
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 ||
        CompareNullable(values, positions[order[k - 1]], values, positions[order[k]]) != 0) {
      keep[order[k]] = 1;  // stable: the first of a group is its earliest position
    }
  }
  std::vector<uint32_t> out;
  for (size_t k = 0; k < positions.size(); ++k) {
    if (keep[k]) out.push_back(positions[k]);
  }
  return out;
}

Result<Column> BooleanFromStates(const std::vector<uint8_t>& state, const EvalContext& ctx) {
  const int64_t rows = static_cast<int64_t>(state.size());
  SQE_ASSIGN_OR_RETURN(auto bits, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (state[i] == 2) {
      ++nulls;
      continue;
    }
    columnar::SetBit(validity->mutable_data(), i);
    if (state[i] == 1) columnar::SetBit(bits->mutable_data(), i);
  }
  return Column::Make(columnar::Boolean(), rows, {nulls == 0 ? nullptr : validity, std::move(bits)},
                      {}, nulls);
}

namespace {

/// Row i of `column` as text for an error message: scalars as CAST to varchar, arrays
/// "[a, b]", rows "{a, b}", maps "{k=v}"; "?" where a scalar does not cast.
std::string ValueText(const Column& column, int64_t i, const EvalContext& ctx) {
  if (column.IsNull(i)) return "null";
  std::string text;
  switch (column.type_id()) {
    case TypeId::kList:
    case TypeId::kMap: {
      const bool map = column.type_id() == TypeId::kMap;
      const Column& entries = column.ListValues();
      Column keys = map ? entries.StructField(0) : entries;
      Column items = map ? entries.StructField(1) : entries;
      text = map ? "{" : "[";
      for (int64_t k = 0; k < column.ListLength(i); ++k) {
        const int64_t e = column.ListStart(i) + k;
        if (k > 0) text += ", ";
        text += ValueText(keys, e, ctx);
        if (map) text += "=" + ValueText(items, e, ctx);
      }
      return text + (map ? "}" : "]");
    }
    case TypeId::kStruct:
      text = "{";
      for (int f = 0; f < column.type()->num_fields(); ++f) {
        if (f > 0) text += ", ";
        text += ValueText(column.StructField(f), i, ctx);
      }
      return text + "}";
    default: {
      auto one = Gather(column, {static_cast<uint32_t>(i)}, ctx);
      if (!one.ok()) return "?";
      auto as_text = CastColumn(*one, columnar::String(), true, ctx);
      if (!as_text.ok() || !as_text->IsValid(0)) return "?";
      return std::string(as_text->StringAt(0));
    }
  }
}

}  // namespace

Status CheckMapKeys(const Column& keys, const std::vector<int64_t>& lengths,
                    const std::vector<uint8_t>& is_null, const EvalContext& ctx) {
  int64_t start = 0;
  std::vector<uint32_t> positions;
  for (size_t i = 0; i < lengths.size(); ++i) {
    if (is_null[i]) continue;
    positions.clear();
    for (int64_t k = start; k < start + lengths[i]; ++k) {
      if (keys.IsNull(k)) return Status::InvalidArgument("map key cannot be null");
      if (keys.type()->is_nested() && ContainsNull(keys, k)) {
        return Status::InvalidArgument("map key cannot be indeterminate: " +
                                       ValueText(keys, k, ctx));
      }
      positions.push_back(static_cast<uint32_t>(k));
    }
    start += lengths[i];
    if (positions.size() < 2) continue;
    std::sort(positions.begin(), positions.end(),
              [&](uint32_t x, uint32_t y) { return CompareValues(keys, x, keys, y) < 0; });
    for (size_t k = 1; k < positions.size(); ++k) {
      if (CompareValues(keys, positions[k - 1], keys, positions[k]) != 0) continue;
      return Status::InvalidArgument("Duplicate map keys (" + ValueText(keys, positions[k], ctx) +
                                     ") are not allowed");
    }
  }
  return Status::OK();
}

}  // namespace sqe::exec::array_elements
