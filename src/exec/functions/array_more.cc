// More array functions, with Trino's semantics: array_distinct, array_sort, array_max,
// array_min, array_position, array_remove, array_union, array_intersect, array_except,
// arrays_overlap, flatten, concat / || of arrays, slice, reverse, array_join
// and trim_array. The set functions compare elements with NULL equal to NULL and keep
// the first occurrence's position.

#include <algorithm>
#include <optional>
#include <string>

#include "exec/functions/array_elements_internal.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/cast.h"
#include "exec/functions/interleave.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/nested_comparison.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;
using namespace array_elements;  // NOLINT: the element helpers are this file's vocabulary

namespace {

/// Positions of row i's elements in the list's child.
std::vector<uint32_t> RowPositions(const Column& list, int64_t i) {
  std::vector<uint32_t> out;
  const int64_t start = list.ListStart(i);
  for (int64_t k = 0; k < list.ListLength(i); ++k) out.push_back(static_cast<uint32_t>(start + k));
  return out;
}

/// `list` with its elements cast to `element` (a list of the same rows).
Result<Column> WithElementType(const Column& list, const TypePtr& element, const EvalContext& ctx) {
  if (ElementOf(list.type())->Equals(*element)) return list;
  SQE_ASSIGN_OR_RETURN(Column values, CastColumn(list.ListValues(), element, false, ctx));
  return Column::Make(columnar::List(element), list.length(), list.buffers(), {std::move(values)},
                      list.null_count(), list.offset());
}

/// Builds a list column whose row i holds the child positions picked[i] of `source`
/// (NULL rows where is_null[i]).
Result<Column> Pick(const TypePtr& type, int64_t rows, const std::vector<uint8_t>& is_null,
                    const std::vector<std::vector<uint32_t>>& picked, const Column& source,
                    const EvalContext& ctx) {
  std::vector<uint32_t> all;
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  for (int64_t i = 0; i < rows; ++i) {
    lengths[i] = static_cast<int64_t>(picked[i].size());
    all.insert(all.end(), picked[i].begin(), picked[i].end());
  }
  SQE_ASSIGN_OR_RETURN(Column child, Gather(source, all, ctx));
  return MakeListWithNulls(type, rows, is_null, lengths, std::move(child), ctx);
}

std::vector<uint8_t> AnyNull(const std::vector<Column>& args, int64_t rows) {
  std::vector<uint8_t> out(static_cast<size_t>(rows), 0);
  for (const Column& a : args) {
    for (int64_t i = 0; i < rows; ++i) out[i] |= a.IsNull(i) ? 1 : 0;
  }
  return out;
}

/// A kernel that picks, per non-null row, positions of the first argument's elements.
template <typename PickRow>
ScalarKernel PickKernel(PickRow pick_row) {
  return [pick_row](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                    const EvalContext& ctx) -> Result<Column> {
    std::vector<uint8_t> is_null = AnyNull(args, rows);
    std::vector<std::vector<uint32_t>> picked(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) {
      if (!is_null[i]) SQE_RETURN_NOT_OK(pick_row(args, i, &picked[i]));
    }
    return Pick(fn.return_type, rows, is_null, picked, args[0].ListValues(), ctx);
  };
}

Status DistinctRow(const std::vector<Column>& args, int64_t i, std::vector<uint32_t>* out) {
  *out = DistinctPositions(args[0].ListValues(), RowPositions(args[0], i));
  return Status::OK();
}

Status SortRow(const std::vector<Column>& args, int64_t i, std::vector<uint32_t>* out) {
  *out = RowPositions(args[0], i);
  const Column& v = args[0].ListValues();
  std::stable_sort(out->begin(), out->end(),
                   [&](uint32_t x, uint32_t y) { return CompareNullable(v, x, v, y) < 0; });
  return Status::OK();
}

Status ReverseRow(const std::vector<Column>& args, int64_t i, std::vector<uint32_t>* out) {
  *out = RowPositions(args[0], i);
  std::reverse(out->begin(), out->end());
  return Status::OK();
}

/// Whether valid element p of `v` is `=` to valid value i of `x`. Arrays, maps and rows
/// compare as `=` does; a NULL element that leaves it unknown is an error, as in Trino.
Result<bool> ElementEquals(const Column& v, int64_t p, const Column& x, int64_t i,
                           const char* function) {
  if (!v.type()->is_nested()) return CompareValues(v, p, x, i) == 0;
  const std::optional<bool> equal = NestedEquals(v, p, x, i);
  if (!equal) {
    return Status::NotImplemented(std::string(function) +
                                  " does not support arrays with elements that are null or "
                                  "contain null");
  }
  return *equal;
}

/// array_remove(a, v): every element not equal to v (NULL elements stay).
Status RemoveRow(const std::vector<Column>& args, int64_t i, std::vector<uint32_t>* out) {
  const Column& v = args[0].ListValues();
  for (uint32_t p : RowPositions(args[0], i)) {
    bool equal = false;
    if (v.IsValid(p)) {
      SQE_ASSIGN_OR_RETURN(equal, ElementEquals(v, p, args[1], i, "array_remove"));
    }
    if (!equal) out->push_back(p);
  }
  return Status::OK();
}

/// slice(a, start, length): Trino's 1-based start (negative: from the end).
Status SliceRow(const std::vector<Column>& args, int64_t i, std::vector<uint32_t>* out) {
  const int64_t start = args[1].Value<int64_t>(i);
  const int64_t length = args[2].Value<int64_t>(i);
  if (start == 0) return Status::InvalidArgument("SQL array indices start at 1");
  if (length < 0) {
    return Status::InvalidArgument("length must be greater than or equal to 0");
  }
  const int64_t n = args[0].ListLength(i);
  int64_t from = start > 0 ? start - 1 : n + start;
  if (from < 0 || from >= n) return Status::OK();
  const int64_t to = std::min(n, from + std::min(length, n));
  for (int64_t k = from; k < to; ++k)
    out->push_back(static_cast<uint32_t>(args[0].ListStart(i) + k));
  return Status::OK();
}

/// trim_array(a, n): a without its last n elements.
Status TrimRow(const std::vector<Column>& args, int64_t i, std::vector<uint32_t>* out) {
  const int64_t n = args[1].Value<int64_t>(i);
  const int64_t length = args[0].ListLength(i);
  if (n < 0 || n > length) {
    return Status::InvalidArgument("size must not be negative or exceed the array's cardinality");
  }
  for (int64_t k = 0; k < length - n; ++k) {
    out->push_back(static_cast<uint32_t>(args[0].ListStart(i) + k));
  }
  return Status::OK();
}

/// array_max / array_min: NULL for an empty array or one holding a NULL.
ScalarKernel ExtremeKernel(bool max) {
  return [max](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
               const EvalContext& ctx) -> Result<Column> {
    const Column& a = args[0];
    const Column& v = a.ListValues();
    std::vector<int32_t> piece(static_cast<size_t>(rows), -1);
    std::vector<uint32_t> at(static_cast<size_t>(rows), 0);
    for (int64_t i = 0; i < rows; ++i) {
      if (a.IsNull(i) || a.ListLength(i) == 0) continue;
      bool has_null = false;
      int64_t best = a.ListStart(i);
      for (uint32_t p : RowPositions(a, i)) {
        if (v.IsNull(p)) {
          has_null = true;
          break;
        }
        const int c = CompareValues(v, p, v, best);
        if (max ? c > 0 : c < 0) best = p;
      }
      if (has_null) continue;
      piece[i] = 0;
      at[i] = static_cast<uint32_t>(best);
    }
    return Interleave(fn.return_type, {v}, piece.data(), at.data(), rows, ctx);
  };
}

/// array_position(a, v): the 1-based position of the first element equal to v, 0 if none.
Result<Column> Position(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                        const EvalContext& ctx) {
  const Column& a = args[0];
  const Column& v = a.ListValues();
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::IntersectValidity(args, rows, ctx, &nulls));
  SQE_ASSIGN_OR_RETURN(auto values, kernel::AllocateBuffer(rows * 8, ctx));
  int64_t* out = values->mutable_data_as<int64_t>();
  for (int64_t i = 0; i < rows; ++i) {
    if (!kernel::ValidAt(validity, i)) continue;
    int64_t k = 1;
    for (uint32_t p : RowPositions(a, i)) {
      bool equal = false;
      if (v.IsValid(p)) {
        SQE_ASSIGN_OR_RETURN(equal, ElementEquals(v, p, args[1], i, "array_position"));
      }
      if (equal) {
        out[i] = k;
        break;
      }
      ++k;
    }
  }
  return kernel::MakeFixed(fn.return_type, rows, std::move(validity), nulls, std::move(values));
}

/// The set operations over two arrays of one element type.
enum class SetOp { kUnion, kIntersect, kExcept };

/// Whether value p of `v` equals (NULLs equal) some element of row i of list `b`.
bool RowHolds(const Column& b, int64_t i, const Column& v, uint32_t p) {
  const Column& bv = b.ListValues();
  for (uint32_t q : RowPositions(b, i)) {
    if (CompareNullable(v, p, bv, q) == 0) return true;
  }
  return false;
}

ScalarKernel SetKernel(SetOp op) {
  return [op](const std::vector<Column>& in, int64_t rows, const ScalarFunction& fn,
              const EvalContext& ctx) -> Result<Column> {
    const TypePtr& element = ElementOf(fn.return_type);
    SQE_ASSIGN_OR_RETURN(Column a, WithElementType(in[0], element, ctx));
    SQE_ASSIGN_OR_RETURN(Column b, WithElementType(in[1], element, ctx));
    std::vector<uint8_t> is_null = AnyNull({a, b}, rows);
    // Union picks from both arrays: from a piece made of a's then b's elements.
    std::vector<Column> pieces = {a.ListValues(), b.ListValues()};
    std::vector<int32_t> piece;
    std::vector<uint32_t> at;
    std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
    for (int64_t i = 0; i < rows; ++i) {
      if (is_null[i]) continue;
      std::vector<uint32_t> kept = DistinctPositions(a.ListValues(), RowPositions(a, i));
      std::vector<std::pair<int32_t, uint32_t>> row;
      for (uint32_t p : kept) {
        const bool in_b = op == SetOp::kUnion ? true : RowHolds(b, i, a.ListValues(), p);
        if (op == SetOp::kUnion || (op == SetOp::kIntersect) == in_b) row.emplace_back(0, p);
      }
      if (op == SetOp::kUnion) {
        for (uint32_t q : DistinctPositions(b.ListValues(), RowPositions(b, i))) {
          if (!RowHolds(a, i, b.ListValues(), q)) row.emplace_back(1, q);
        }
      }
      lengths[i] = static_cast<int64_t>(row.size());
      for (const auto& [p, k] : row) {
        piece.push_back(p);
        at.push_back(k);
      }
    }
    const int64_t n = static_cast<int64_t>(piece.size());
    Column child;
    if (op == SetOp::kUnion) {
      SQE_ASSIGN_OR_RETURN(child, Interleave(element, pieces, piece.data(), at.data(), n, ctx));
    } else {
      SQE_ASSIGN_OR_RETURN(child, Gather(a.ListValues(), at, ctx));
    }
    return MakeListWithNulls(fn.return_type, rows, is_null, lengths, std::move(child), ctx);
  };
}

/// arrays_overlap(a, b): true when they share a non-null element; NULL when they do not
/// but either holds a NULL.
Result<Column> Overlap(const std::vector<Column>& in, int64_t rows, const ScalarFunction& fn,
                       const EvalContext& ctx) {
  const TypePtr& element = fn.arg_types[0] == nullptr ? nullptr : ElementOf(fn.arg_types[0]);
  SQE_ASSIGN_OR_RETURN(Column a, WithElementType(in[0], element, ctx));
  SQE_ASSIGN_OR_RETURN(Column b, WithElementType(in[1], element, ctx));
  const Column& av = a.ListValues();
  const Column& bv = b.ListValues();
  std::vector<uint8_t> state(static_cast<size_t>(rows), 0);  // 0 false, 1 true, 2 NULL
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) {
      state[i] = 2;
      continue;
    }
    bool saw_null = false;
    for (uint32_t p : RowPositions(a, i)) {
      if (av.IsNull(p)) {
        saw_null = true;
        continue;
      }
      for (uint32_t q : RowPositions(b, i)) {
        if (bv.IsNull(q)) {
          saw_null = true;
        } else if (CompareValues(av, p, bv, q) == 0) {
          state[i] = 1;
          break;
        }
      }
      if (state[i] == 1) break;
    }
    if (state[i] == 0 && saw_null) state[i] = 2;
    if (state[i] == 0) {
      for (uint32_t q : RowPositions(b, i)) {
        if (bv.IsNull(q)) state[i] = 2;
      }
    }
  }
  return BooleanFromStates(state, ctx);
}

/// flatten(array(array(T))): the inner arrays' elements in order (NULL inner arrays add
/// nothing).
Result<Column> Flatten(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                       const EvalContext& ctx) {
  const Column& a = args[0];
  const Column& inner = a.ListValues();
  std::vector<uint32_t> all;
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i)) continue;
    for (uint32_t p : RowPositions(a, i)) {
      if (inner.IsNull(p)) continue;
      for (uint32_t q : RowPositions(inner, p)) all.push_back(q);
      lengths[i] += inner.ListLength(p);
    }
  }
  SQE_ASSIGN_OR_RETURN(Column child, Gather(inner.ListValues(), all, ctx));
  return MakeList(fn.return_type, rows, &a, lengths, std::move(child), ctx);
}

/// concat(a, b, ...) and ||: the arrays one after another (arguments that are single
/// elements add themselves); NULL when any argument is NULL.
Result<Column> ConcatArrays(const std::vector<Column>& in, int64_t rows, const ScalarFunction& fn,
                            const EvalContext& ctx) {
  const TypePtr& element = ElementOf(fn.return_type);
  std::vector<Column> args;
  std::vector<Column> pieces;
  for (const Column& c : in) {
    if (c.type_id() == TypeId::kList && ElementOf(fn.return_type)->Equals(*ElementOf(c.type()))) {
      args.push_back(c);
    } else if (c.type_id() == TypeId::kList && element->id() != TypeId::kList) {
      SQE_ASSIGN_OR_RETURN(Column cast, WithElementType(c, element, ctx));
      args.push_back(std::move(cast));
    } else {
      SQE_ASSIGN_OR_RETURN(Column cast, CastColumn(c, element, false, ctx));
      args.push_back(std::move(cast));
    }
  }
  std::vector<uint8_t> is_null = AnyNull(args, rows);
  for (const Column& c : args) {
    pieces.push_back(c.type_id() == TypeId::kList && !c.type()->Equals(*element) ? c.ListValues()
                                                                                 : c);
  }
  std::vector<int32_t> piece;
  std::vector<uint32_t> at;
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  for (int64_t i = 0; i < rows; ++i) {
    if (is_null[i]) continue;
    for (size_t k = 0; k < args.size(); ++k) {
      const bool is_array = !args[k].type()->Equals(*element);
      if (!is_array) {
        piece.push_back(static_cast<int32_t>(k));
        at.push_back(static_cast<uint32_t>(i));
        ++lengths[i];
        continue;
      }
      for (uint32_t p : RowPositions(args[k], i)) {
        piece.push_back(static_cast<int32_t>(k));
        at.push_back(p);
      }
      lengths[i] += args[k].ListLength(i);
    }
  }
  const int64_t n = static_cast<int64_t>(piece.size());
  Column child;
  if (pieces.size() == 1) {
    SQE_ASSIGN_OR_RETURN(child, Gather(pieces[0], at, ctx));
  } else {
    SQE_ASSIGN_OR_RETURN(child, Interleave(element, pieces, piece.data(), at.data(), n, ctx));
  }
  return MakeListWithNulls(fn.return_type, rows, is_null, lengths, std::move(child), ctx);
}

/// array_join(a, delimiter[, null_replacement]): the elements as text between delimiters;
/// NULL elements are skipped, or replaced when a replacement is given.
Result<Column> ArrayJoin(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                         const EvalContext& ctx) {
  const Column& a = args[0];
  SQE_ASSIGN_OR_RETURN(Column text, CastColumn(a.ListValues(), columnar::String(), false, ctx));
  return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
    bool first = true;
    for (uint32_t p : RowPositions(a, i)) {
      std::string_view piece;
      if (text.IsNull(p)) {
        if (args.size() < 3) continue;
        piece = args[2].StringAt(i);
      } else {
        piece = text.StringAt(p);
      }
      if (!first) out->append(args[1].StringAt(i));
      out->append(piece);
      first = false;
    }
    return Status::OK();
  });
}

/// The element type two array arguments share (for the set functions), or nullptr.
TypePtr SharedElement(const TypePtr& a, const TypePtr& b) {
  if (!IsList(a) || !IsList(b)) return nullptr;
  auto common = CommonSuperType(ElementOf(a), ElementOf(b));
  if (!common || !IsComparableType(*common)) return nullptr;
  return *common;  // WithElementType casts nested elements too (CAST array / row / map)
}

/// What a one-array function needs of its elements.
enum class ElementNeed { kNothing, kEquality, kOrder };

/// A function of one array whose elements meet `need`, returning `ret(array type)`.
std::function<std::optional<ScalarFunction>(const std::vector<TypePtr>&)> OneArray(
    const std::string& name, std::function<TypePtr(const TypePtr&)> ret, ScalarKernel kernel,
    ElementNeed need = ElementNeed::kOrder) {
  return [name, ret, kernel, need](const std::vector<TypePtr>& t) {
    if (t.size() != 1 || !IsList(t[0]) ||
        (need == ElementNeed::kOrder && !IsOrderableType(ElementOf(t[0]))) ||
        (need == ElementNeed::kEquality && !IsComparableType(ElementOf(t[0])))) {
      return std::optional<ScalarFunction>();
    }
    return kernel::Instance(name, {t[0]}, ret(t[0]), kernel);
  };
}

}  // namespace

void RegisterArrayMoreFunctions(FunctionRegistry& r) {
  auto same = [](const TypePtr& t) { return t; };
  auto element = [](const TypePtr& t) { return ElementOf(t); };
  AddFamily(r, "array_distinct",
            OneArray("array_distinct", same, PickKernel(DistinctRow), ElementNeed::kEquality),
            "array(T)", "array(T)", "the array without duplicates (first occurrences kept)");
  AddFamily(r, "array_sort", OneArray("array_sort", same, PickKernel(SortRow)), "array(T)",
            "array(T)", "the array in ascending order, NULLs last");
  AddFamily(r, "array_max", OneArray("array_max", element, ExtremeKernel(true)), "T", "array(T)",
            "the greatest element (NULL if the array is empty or holds a NULL)");
  AddFamily(r, "array_min", OneArray("array_min", element, ExtremeKernel(false)), "T", "array(T)",
            "the least element (NULL if the array is empty or holds a NULL)");
  AddFamily(r, "reverse", OneArray("reverse", same, PickKernel(ReverseRow), ElementNeed::kNothing),
            "array(T)", "array(T)", "the elements in reverse order");
  AddFamily(
      r, "flatten",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 1 || !IsList(t[0]) || !IsList(ElementOf(t[0]))) {
          return std::optional<ScalarFunction>();
        }
        return kernel::Instance("flatten", {t[0]}, ElementOf(t[0]), Flatten);
      },
      "array(T)", "array(array(T))", "the inner arrays' elements, one array");
  auto array_and_element = [](std::string name, std::function<TypePtr(const TypePtr&)> ret,
                              ScalarKernel kernel) {
    return [name, ret, kernel](const std::vector<TypePtr>& t) {
      if (t.size() != 2 || !IsList(t[0]) || !IsComparableType(ElementOf(t[0]))) {
        return std::optional<ScalarFunction>();
      }
      const TypePtr element = ElementWithValue(t[0], t[1]);
      const TypePtr array = columnar::List(element);
      return kernel::Instance(name, {array, element}, ret(array), kernel);
    };
  };
  AddFamily(r, "array_position",
            array_and_element(
                "array_position", [](const TypePtr&) { return columnar::Int64(); }, Position),
            "bigint", "array(T), T",
            "the 1-based position of the first element equal to the value (0: none)");
  AddFamily(r, "array_remove", array_and_element("array_remove", same, PickKernel(RemoveRow)),
            "array(T)", "array(T), T", "the array without the elements equal to the value");
  const struct {
    const char* name;
    SetOp op;
    const char* description;
  } kSets[] = {
      {"array_union", SetOp::kUnion, "the distinct elements of both arrays"},
      {"array_intersect", SetOp::kIntersect, "the distinct elements in both arrays"},
      {"array_except", SetOp::kExcept, "the distinct elements of the first not in the second"},
  };
  for (const auto& s : kSets) {
    const std::string name = s.name;
    const SetOp op = s.op;
    AddFamily(
        r, name,
        [name, op](const std::vector<TypePtr>& t) {
          if (t.size() != 2) return std::optional<ScalarFunction>();
          TypePtr e = SharedElement(t[0], t[1]);
          if (e == nullptr) return std::optional<ScalarFunction>();
          return kernel::Instance(name, {t[0], t[1]}, columnar::List(e), SetKernel(op));
        },
        "array(T)", "array(T), array(T)", s.description);
  }
  AddFamily(
      r, "arrays_overlap",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 2) return std::optional<ScalarFunction>();
        TypePtr e = SharedElement(t[0], t[1]);
        if (e == nullptr) return std::optional<ScalarFunction>();
        return kernel::Instance("arrays_overlap", {columnar::List(e), columnar::List(e)},
                                columnar::Boolean(), Overlap);
      },
      "boolean", "array(T), array(T)",
      "whether the arrays share a non-null element (NULL when not but either holds a NULL)");
  AddFamily(
      r, "slice",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 3 || !IsList(t[0])) return std::optional<ScalarFunction>();
        return kernel::Instance("slice", {t[0], columnar::Int64(), columnar::Int64()}, t[0],
                                PickKernel(SliceRow));
      },
      "array(T)", "array(T), bigint, bigint",
      "length elements from a 1-based start (negative: from the end)");
  AddFamily(
      r, "trim_array",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 2 || !IsList(t[0])) return std::optional<ScalarFunction>();
        return kernel::Instance("trim_array", {t[0], columnar::Int64()}, t[0], PickKernel(TrimRow));
      },
      "array(T)", "array(T), bigint", "the array without its last n elements");
  // concat(array, ...) and array || array, array || element, element || array.
  auto concat = [](std::string name) {
    return [name](const std::vector<TypePtr>& t) {
      if (t.empty() || (name == "||" && t.size() != 2)) return std::optional<ScalarFunction>();
      TypePtr element;
      bool any_array = false;
      for (const TypePtr& a : t) {
        if (a == nullptr) continue;
        TypePtr e = a;
        if (IsList(a)) {
          e = IsUnknownElementArray(a) ? nullptr : ElementOf(a);  // ARRAY[] takes any type
          any_array = true;
          // element || array where the element is itself an array: array(array(T)) || array(T)
        }
        auto common = CommonSuperType(element, e);
        if (!common) return std::optional<ScalarFunction>();
        element = *common;
      }
      if (!any_array) return std::optional<ScalarFunction>();
      if (element == nullptr) element = columnar::Boolean();
      std::vector<TypePtr> args;
      for (const TypePtr& a : t) {
        // ARRAY[NULL] / ARRAY[] (no element type) is cast to the result's array type.
        args.push_back(a != nullptr && !IsUnknownElementArray(a) ? a : columnar::List(element));
      }
      // Only arrays of the same nesting or single elements of the element type.
      for (const TypePtr& a : args) {
        if (!IsList(a) && !CanCoerceImplicitly(a, element)) return std::optional<ScalarFunction>();
      }
      if (name == "concat") {
        for (const TypePtr& a : args) {
          if (!IsList(a)) return std::optional<ScalarFunction>();
        }
      }
      return kernel::Instance(name, args, columnar::List(element), ConcatArrays);
    };
  };
  AddFamily(r, "concat", concat("concat"), "array(T)", "array(T), ...",
            "the arrays one after another (NULL if any is NULL)");
  AddFamily(r, "||", concat("||"), "array(T)", "array(T) | T, array(T) | T",
            "array concatenation; a single element is appended or prepended");
  AddFamily(
      r, "array_join",
      [](const std::vector<TypePtr>& t) {
        if (t.size() < 2 || t.size() > 3 || !IsList(t[0]) ||
            !CanCast(ElementOf(t[0]), columnar::String())) {
          return std::optional<ScalarFunction>();
        }
        std::vector<TypePtr> args = {t[0], columnar::String()};
        if (t.size() == 3) args.push_back(columnar::String());
        return kernel::Instance("array_join", args, columnar::String(), ArrayJoin);
      },
      "varchar", "array(T), varchar[, varchar]",
      "the elements as text joined by the delimiter (NULLs skipped or replaced)");
}

}  // namespace sqe::exec
