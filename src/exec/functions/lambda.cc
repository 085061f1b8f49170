// Higher-order functions with Trino's semantics: transform, filter, reduce, any_match,
// all_match, none_match, zip_with, array_sort with a comparator, transform_keys,
// transform_values and map_filter. Each lambda runs once per batch over all the elements
// of all the rows (reduce: once per element position), never once per element.

#include "exec/functions/lambda.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "exec/functions/array_elements_internal.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/interleave.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;
using namespace array_elements;  // NOLINT: the element helpers are this file's vocabulary

namespace {

/// The rows of `mask` (a lambda's boolean result) that are true.
std::vector<uint32_t> TruePositions(const Column& mask) {
  std::vector<uint32_t> keep;
  for (int64_t k = 0; k < mask.length(); ++k) {
    if (mask.IsValid(k) && mask.BoolAt(k)) keep.push_back(static_cast<uint32_t>(k));
  }
  return keep;
}

Result<Column> Transform(const std::vector<Column>& args, const std::vector<LambdaFn>& lambdas,
                         int64_t rows, const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& a = args[0];
  ElementRows el = ListElements(a, rows);
  SQE_ASSIGN_OR_RETURN(Column x, Gather(a.ListValues(), el.index, ctx));
  SQE_ASSIGN_OR_RETURN(Column y, lambdas[0]({x}, el.row_of));
  return MakeList(fn.return_type, rows, &a, Lengths(a, rows), std::move(y), ctx);
}

Result<Column> Filter(const std::vector<Column>& args, const std::vector<LambdaFn>& lambdas,
                      int64_t rows, const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& a = args[0];
  ElementRows el = ListElements(a, rows);
  SQE_ASSIGN_OR_RETURN(Column x, Gather(a.ListValues(), el.index, ctx));
  SQE_ASSIGN_OR_RETURN(Column mask, lambdas[0]({x}, el.row_of));
  std::vector<uint32_t> keep = TruePositions(mask);
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  for (uint32_t k : keep) ++lengths[el.row_of[k]];
  SQE_ASSIGN_OR_RETURN(Column kept, Gather(x, keep, ctx));
  return MakeList(fn.return_type, rows, &a, lengths, std::move(kept), ctx);
}

enum class Match { kAny, kAll, kNone };

HigherOrderKernel MatchKernel(Match match) {
  return [match](const std::vector<Column>& args, const std::vector<LambdaFn>& lambdas,
                 int64_t rows, const ScalarFunction&, const EvalContext& ctx) -> Result<Column> {
    const Column& a = args[0];
    ElementRows el = ListElements(a, rows);
    SQE_ASSIGN_OR_RETURN(Column x, Gather(a.ListValues(), el.index, ctx));
    SQE_ASSIGN_OR_RETURN(Column mask, lambdas[0]({x}, el.row_of));
    // Undecided rows end with the default (any: false; all, none: true), or NULL when
    // some element gave NULL.
    const uint8_t fallback = match == Match::kAny ? 0 : 1;
    std::vector<uint8_t> decided(static_cast<size_t>(rows), 0);
    std::vector<uint8_t> saw_null(static_cast<size_t>(rows), 0);
    std::vector<uint8_t> state(static_cast<size_t>(rows), fallback);
    for (int64_t k = 0; k < mask.length(); ++k) {
      const uint32_t i = el.row_of[k];
      if (decided[i]) continue;
      if (mask.IsNull(k)) {
        saw_null[i] = 1;
        continue;
      }
      const bool v = mask.BoolAt(k);
      if (match == Match::kAny && v) state[i] = 1, decided[i] = 1;
      if (match == Match::kAll && !v) state[i] = 0, decided[i] = 1;
      if (match == Match::kNone && v) state[i] = 0, decided[i] = 1;
    }
    for (int64_t i = 0; i < rows; ++i) {
      if (a.IsNull(i) || (!decided[i] && saw_null[i])) state[i] = 2;
    }
    return BooleanFromStates(state, ctx);
  };
}

Result<Column> Reduce(const std::vector<Column>& args, const std::vector<LambdaFn>& lambdas,
                      int64_t rows, const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& a = args[0];
  const TypePtr& state_type = fn.arg_types[1];
  Column state = args[1];
  int64_t longest = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsValid(i)) longest = std::max<int64_t>(longest, a.ListLength(i));
  }
  for (int64_t k = 0; k < longest; ++k) {
    std::vector<uint32_t> active, element;
    for (int64_t i = 0; i < rows; ++i) {
      if (a.IsNull(i) || a.ListLength(i) <= k) continue;
      active.push_back(static_cast<uint32_t>(i));
      element.push_back(static_cast<uint32_t>(a.ListStart(i) + k));
    }
    SQE_ASSIGN_OR_RETURN(Column s, Gather(state, active, ctx));
    SQE_ASSIGN_OR_RETURN(Column x, Gather(a.ListValues(), element, ctx));
    SQE_ASSIGN_OR_RETURN(Column next, lambdas[0]({s, x}, active));
    std::vector<int32_t> piece(static_cast<size_t>(rows), 0);
    std::vector<uint32_t> at(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) at[i] = static_cast<uint32_t>(i);
    for (size_t p = 0; p < active.size(); ++p) {
      piece[active[p]] = 1;
      at[active[p]] = static_cast<uint32_t>(p);
    }
    SQE_ASSIGN_OR_RETURN(state,
                         Interleave(state_type, {state, next}, piece.data(), at.data(), rows, ctx));
  }
  std::vector<uint32_t> valid;
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsValid(i)) valid.push_back(static_cast<uint32_t>(i));
  }
  SQE_ASSIGN_OR_RETURN(Column s, Gather(state, valid, ctx));
  SQE_ASSIGN_OR_RETURN(Column out, lambdas[1]({s}, valid));
  std::vector<int32_t> piece(static_cast<size_t>(rows), -1);
  std::vector<uint32_t> at(static_cast<size_t>(rows), 0);
  for (size_t p = 0; p < valid.size(); ++p) {
    piece[valid[p]] = 0;
    at[valid[p]] = static_cast<uint32_t>(p);
  }
  return Interleave(fn.return_type, {out}, piece.data(), at.data(), rows, ctx);
}

Result<Column> ZipWith(const std::vector<Column>& args, const std::vector<LambdaFn>& lambdas,
                       int64_t rows, const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& a = args[0];
  const Column& b = args[1];
  std::vector<uint8_t> is_null(static_cast<size_t>(rows), 0);
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  std::vector<int32_t> piece_a, piece_b;
  std::vector<uint32_t> at_a, at_b, row_of;
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) {
      is_null[i] = 1;
      continue;
    }
    const int64_t la = a.ListLength(i);
    const int64_t lb = b.ListLength(i);
    lengths[i] = std::max(la, lb);
    for (int64_t k = 0; k < lengths[i]; ++k) {
      piece_a.push_back(k < la ? 0 : -1);
      at_a.push_back(static_cast<uint32_t>(k < la ? a.ListStart(i) + k : 0));
      piece_b.push_back(k < lb ? 0 : -1);
      at_b.push_back(static_cast<uint32_t>(k < lb ? b.ListStart(i) + k : 0));
      row_of.push_back(static_cast<uint32_t>(i));
    }
  }
  const int64_t n = static_cast<int64_t>(row_of.size());
  SQE_ASSIGN_OR_RETURN(Column x, Interleave(ElementOf(a.type()), {a.ListValues()}, piece_a.data(),
                                            at_a.data(), n, ctx));
  SQE_ASSIGN_OR_RETURN(Column y, Interleave(ElementOf(b.type()), {b.ListValues()}, piece_b.data(),
                                            at_b.data(), n, ctx));
  SQE_ASSIGN_OR_RETURN(Column out, lambdas[0]({x, y}, row_of));
  return MakeListWithNulls(fn.return_type, rows, is_null, lengths, std::move(out), ctx);
}

/// The comparator runs on every pair of a row's elements at once; beyond this many pairs
/// per batch the sort is refused rather than risking quadratic memory.
constexpr int64_t kMaxComparatorPairs = int64_t{1} << 22;

Result<Column> SortWithComparator(const std::vector<Column>& args,
                                  const std::vector<LambdaFn>& lambdas, int64_t rows,
                                  const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& a = args[0];
  std::vector<uint32_t> left, right, row_of;
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i)) continue;
    const int64_t n = a.ListLength(i);
    const int64_t start = a.ListStart(i);
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        left.push_back(static_cast<uint32_t>(start + p));
        right.push_back(static_cast<uint32_t>(start + q));
        row_of.push_back(static_cast<uint32_t>(i));
      }
    }
    if (static_cast<int64_t>(left.size()) > kMaxComparatorPairs) {
      return Status::NotImplemented(
          "array_sort with a comparator on arrays this large is not supported (at most " +
          std::to_string(kMaxComparatorPairs) + " element pairs per batch)");
    }
  }
  SQE_ASSIGN_OR_RETURN(Column x, Gather(a.ListValues(), left, ctx));
  SQE_ASSIGN_OR_RETURN(Column y, Gather(a.ListValues(), right, ctx));
  SQE_ASSIGN_OR_RETURN(Column c, lambdas[0]({x, y}, row_of));
  std::vector<uint32_t> order;
  int64_t pair = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i)) continue;
    const int64_t n = a.ListLength(i);
    const int64_t start = a.ListStart(i);
    // cmp[p * n + q]: the comparator's sign for elements p < q.
    std::vector<int8_t> cmp(static_cast<size_t>(n * n), 0);
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q, ++pair) {
        if (c.IsNull(pair))
          return Status::InvalidArgument("Lambda comparator must return either -1, 0, or 1");
        const int32_t v = c.Value<int32_t>(pair);
        if (v < -1 || v > 1) {
          return Status::InvalidArgument("Lambda comparator must return either -1, 0, or 1");
        }
        cmp[p * n + q] = static_cast<int8_t>(v);
        cmp[q * n + p] = static_cast<int8_t>(-v);
      }
    }
    std::vector<uint32_t> idx(static_cast<size_t>(n));
    for (int64_t p = 0; p < n; ++p) idx[p] = static_cast<uint32_t>(p);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](uint32_t p, uint32_t q) { return p != q && cmp[p * n + q] < 0; });
    for (uint32_t p : idx) order.push_back(static_cast<uint32_t>(start + p));
  }
  SQE_ASSIGN_OR_RETURN(Column sorted, Gather(a.ListValues(), order, ctx));
  return MakeList(fn.return_type, rows, &a, Lengths(a, rows), std::move(sorted), ctx);
}

/// The keys and values of a map column's non-null rows, as consecutive columns.
struct MapEntries {
  ElementRows el;
  Column keys;
  Column values;
};

Result<MapEntries> EntriesOf(const Column& m, int64_t rows, const EvalContext& ctx) {
  MapEntries out;
  out.el = ListElements(m, rows);
  SQE_ASSIGN_OR_RETURN(out.keys, Gather(m.MapKeys(), out.el.index, ctx));
  SQE_ASSIGN_OR_RETURN(out.values, Gather(m.MapItems(), out.el.index, ctx));
  return out;
}

Result<Column> TransformValues(const std::vector<Column>& args,
                               const std::vector<LambdaFn>& lambdas, int64_t rows,
                               const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& m = args[0];
  SQE_ASSIGN_OR_RETURN(MapEntries e, EntriesOf(m, rows, ctx));
  SQE_ASSIGN_OR_RETURN(Column v, lambdas[0]({e.keys, e.values}, e.el.row_of));
  return MakeMap(fn.return_type, rows, NullFlags(m, rows), Lengths(m, rows), std::move(e.keys),
                 std::move(v), ctx);
}

Result<Column> TransformKeys(const std::vector<Column>& args, const std::vector<LambdaFn>& lambdas,
                             int64_t rows, const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& m = args[0];
  SQE_ASSIGN_OR_RETURN(MapEntries e, EntriesOf(m, rows, ctx));
  SQE_ASSIGN_OR_RETURN(Column k, lambdas[0]({e.keys, e.values}, e.el.row_of));
  const std::vector<int64_t> lengths = Lengths(m, rows);
  SQE_RETURN_NOT_OK(CheckMapKeys(k, lengths, NullFlags(m, rows), ctx));
  return MakeMap(fn.return_type, rows, NullFlags(m, rows), lengths, std::move(k),
                 std::move(e.values), ctx);
}

Result<Column> MapFilter(const std::vector<Column>& args, const std::vector<LambdaFn>& lambdas,
                         int64_t rows, const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& m = args[0];
  SQE_ASSIGN_OR_RETURN(MapEntries e, EntriesOf(m, rows, ctx));
  SQE_ASSIGN_OR_RETURN(Column mask, lambdas[0]({e.keys, e.values}, e.el.row_of));
  std::vector<uint32_t> keep = TruePositions(mask);
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  for (uint32_t k : keep) ++lengths[e.el.row_of[k]];
  SQE_ASSIGN_OR_RETURN(Column keys, Gather(e.keys, keep, ctx));
  SQE_ASSIGN_OR_RETURN(Column values, Gather(e.values, keep, ctx));
  return MakeMap(fn.return_type, rows, NullFlags(m, rows), lengths, std::move(keys),
                 std::move(values), ctx);
}

const std::unordered_map<std::string, HigherOrderKernel>& Kernels() {
  static const auto* kernels = new std::unordered_map<std::string, HigherOrderKernel>{
      {"transform", Transform},
      {"filter", Filter},
      {"any_match", MatchKernel(Match::kAny)},
      {"all_match", MatchKernel(Match::kAll)},
      {"none_match", MatchKernel(Match::kNone)},
      {"reduce", Reduce},
      {"zip_with", ZipWith},
      {"array_sort", SortWithComparator},
      {"transform_values", TransformValues},
      {"transform_keys", TransformKeys},
      {"map_filter", MapFilter},
  };
  return *kernels;
}

/// The registry's kernel of a higher-order function: the evaluator runs these calls
/// through their HigherOrderKernel, so reaching this one is a bug.
Result<Column> LambdaMissing(const std::vector<Column>&, int64_t, const ScalarFunction& fn,
                             const EvalContext&) {
  return Status::Internal("function '" + fn.name + "' was called without its lambda argument");
}

}  // namespace

const HigherOrderKernel* FindHigherOrderKernel(std::string_view name) {
  auto it = Kernels().find(std::string(name));
  return it == Kernels().end() ? nullptr : &it->second;
}

bool IsHigherOrderFunction(std::string_view name) { return FindHigherOrderKernel(name) != nullptr; }

Result<std::vector<TypePtr>> LambdaParameterTypes(std::string_view name, size_t index,
                                                  const std::vector<TypePtr>& earlier) {
  const std::string n(name);
  auto wrong = [&]() {
    return Status::InvalidArgument("function '" + n + "' does not take a lambda as argument " +
                                   std::to_string(index + 1));
  };
  auto list_at = [&](size_t k) -> Result<TypePtr> {
    if (k >= earlier.size() || !IsList(earlier[k])) {
      return Status::InvalidArgument("function '" + n + "' expects an array as argument " +
                                     std::to_string(k + 1));
    }
    return ElementOf(earlier[k]);
  };
  auto map_at = [&](size_t k) -> Result<std::vector<TypePtr>> {
    if (k >= earlier.size() || !IsMap(earlier[k])) {
      return Status::InvalidArgument("function '" + n + "' expects a map as argument " +
                                     std::to_string(k + 1));
    }
    return std::vector<TypePtr>{earlier[k]->key_field().type(), earlier[k]->item_field().type()};
  };
  if (n == "transform" || n == "filter" || n == "any_match" || n == "all_match" ||
      n == "none_match") {
    if (index != 1) return wrong();
    SQE_ASSIGN_OR_RETURN(TypePtr e, list_at(0));
    return std::vector<TypePtr>{e};
  }
  if (n == "array_sort") {
    if (index != 1) return wrong();
    SQE_ASSIGN_OR_RETURN(TypePtr e, list_at(0));
    return std::vector<TypePtr>{e, e};
  }
  if (n == "reduce") {
    if (index != 2 && index != 3) return wrong();
    SQE_ASSIGN_OR_RETURN(TypePtr e, list_at(0));
    TypePtr state = earlier[1];
    if (state == nullptr) state = e;  // reduce(a, NULL, ...): the state takes the element type
    if (index == 2) return std::vector<TypePtr>{state, e};
    return std::vector<TypePtr>{earlier[2] != nullptr ? earlier[2] : state};
  }
  if (n == "zip_with") {
    if (index != 2) return wrong();
    SQE_ASSIGN_OR_RETURN(TypePtr a, list_at(0));
    SQE_ASSIGN_OR_RETURN(TypePtr b, list_at(1));
    return std::vector<TypePtr>{a, b};
  }
  if (n == "transform_keys" || n == "transform_values" || n == "map_filter") {
    if (index != 1) return wrong();
    return map_at(0);
  }
  return Status::InvalidArgument("function '" + n + "' does not take lambda arguments");
}

void RegisterLambdaFunctions(FunctionRegistry& r) {
  using columnar::Boolean;
  auto unary_array = [](std::string name, std::function<TypePtr(const std::vector<TypePtr>&)> ret,
                        bool boolean_lambda) {
    return [name, ret, boolean_lambda](const std::vector<TypePtr>& t) {
      if (t.size() != 2 || !IsList(t[0]) || t[1] == nullptr) return std::optional<ScalarFunction>();
      TypePtr lambda = boolean_lambda ? Boolean() : t[1];
      return kernel::Instance(name, {t[0], lambda}, ret(t), LambdaMissing);
    };
  };
  AddFamily(r, "transform",
            unary_array(
                "transform", [](const auto& t) { return columnar::List(t[1]); }, false),
            "array(U)", "array(T), function(T, U)", "each element mapped through the function");
  AddFamily(r, "filter",
            unary_array(
                "filter", [](const auto& t) { return t[0]; }, true),
            "array(T)", "array(T), function(T, boolean)",
            "the elements for which the function returns true");
  AddFamily(r, "any_match",
            unary_array(
                "any_match", [](const auto&) { return Boolean(); }, true),
            "boolean", "array(T), function(T, boolean)",
            "whether the function is true for some element (NULL when none is but some give NULL)");
  AddFamily(r, "all_match",
            unary_array(
                "all_match", [](const auto&) { return Boolean(); }, true),
            "boolean", "array(T), function(T, boolean)",
            "whether the function is true for every element (true for an empty array)");
  AddFamily(r, "none_match",
            unary_array(
                "none_match", [](const auto&) { return Boolean(); }, true),
            "boolean", "array(T), function(T, boolean)",
            "whether the function is true for no element (true for an empty array)");
  AddFamily(
      r, "array_sort",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 2 || !IsList(t[0]) || t[1] == nullptr || !t[1]->is_integer()) {
          return std::optional<ScalarFunction>();
        }
        return kernel::Instance("array_sort", {t[0], columnar::Int32()}, t[0], LambdaMissing);
      },
      "array(T)", "array(T), function(T, T, integer)",
      "the array sorted by a comparator returning -1, 0 or 1");
  AddFamily(
      r, "reduce",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 4 || !IsList(t[0]) || t[2] == nullptr || t[3] == nullptr) {
          return std::optional<ScalarFunction>();
        }
        return kernel::Instance("reduce", {t[0], t[2], t[2], t[3]}, t[3], LambdaMissing);
      },
      "R", "array(T), S, function(S, T, S), function(S, R)",
      "folds the elements into a state from an initial value, then maps the state");
  AddFamily(
      r, "zip_with",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 3 || !IsList(t[0]) || !IsList(t[1]) || t[2] == nullptr) {
          return std::optional<ScalarFunction>();
        }
        return kernel::Instance("zip_with", {t[0], t[1], t[2]}, columnar::List(t[2]),
                                LambdaMissing);
      },
      "array(R)", "array(T), array(U), function(T, U, R)",
      "the arrays merged element-wise by the function (the shorter padded with NULLs)");
  AddFamily(
      r, "transform_values",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 2 || !IsMap(t[0]) || t[1] == nullptr)
          return std::optional<ScalarFunction>();
        return kernel::Instance("transform_values", {t[0], t[1]},
                                columnar::Map(t[0]->key_field().type(), t[1]), LambdaMissing);
      },
      "map(K, V2)", "map(K, V), function(K, V, V2)", "each value mapped through the function");
  AddFamily(
      r, "transform_keys",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 2 || !IsMap(t[0]) || t[1] == nullptr || !IsComparableType(t[1])) {
          return std::optional<ScalarFunction>();
        }
        return kernel::Instance("transform_keys", {t[0], t[1]},
                                columnar::Map(t[1], t[0]->item_field().type()), LambdaMissing);
      },
      "map(K2, V)", "map(K, V), function(K, V, K2)",
      "each key mapped through the function (an error for NULL or duplicate keys)");
  AddFamily(
      r, "map_filter",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 2 || !IsMap(t[0]) || t[1] == nullptr)
          return std::optional<ScalarFunction>();
        return kernel::Instance("map_filter", {t[0], Boolean()}, t[0], LambdaMissing);
      },
      "map(K, V)", "map(K, V), function(K, V, boolean)",
      "the entries for which the function returns true");
}

}  // namespace sqe::exec
