// Map functions with Trino's semantics: map(keys, values), map_from_entries, map_entries,
// map_keys, map_values and map_concat (element_at, cardinality and m[k] live in array.cc).
// Building a map checks its keys: a NULL key or a repeated one is an error.

#include <string>

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

/// map(keys, values): the arrays paired position by position.
Result<Column> MapFromArrays(const std::vector<Column>& args, int64_t rows,
                             const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& k = args[0];
  const Column& v = args[1];
  std::vector<uint8_t> is_null(static_cast<size_t>(rows), 0);
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  std::vector<uint32_t> kpos, vpos;
  for (int64_t i = 0; i < rows; ++i) {
    if (k.IsNull(i) || v.IsNull(i)) {
      is_null[i] = 1;
      continue;
    }
    if (k.ListLength(i) != v.ListLength(i)) {
      return Status::InvalidArgument("Key and value arrays must be the same length");
    }
    lengths[i] = k.ListLength(i);
    for (int64_t p = 0; p < lengths[i]; ++p) {
      kpos.push_back(static_cast<uint32_t>(k.ListStart(i) + p));
      vpos.push_back(static_cast<uint32_t>(v.ListStart(i) + p));
    }
  }
  SQE_ASSIGN_OR_RETURN(Column keys, Gather(k.ListValues(), kpos, ctx));
  SQE_ASSIGN_OR_RETURN(Column values, Gather(v.ListValues(), vpos, ctx));
  SQE_RETURN_NOT_OK(CheckMapKeys(keys, lengths, is_null, ctx));
  return MakeMap(fn.return_type, rows, is_null, lengths, std::move(keys), std::move(values), ctx);
}

/// map_from_entries(array(row(K, V))).
Result<Column> MapFromEntries(const std::vector<Column>& args, int64_t rows,
                              const ScalarFunction& fn, const EvalContext& ctx) {
  const Column& a = args[0];
  ElementRows el = ListElements(a, rows);
  SQE_ASSIGN_OR_RETURN(Column entries, Gather(a.ListValues(), el.index, ctx));
  for (int64_t p = 0; p < entries.length(); ++p) {
    if (entries.IsNull(p)) return Status::InvalidArgument("map entry cannot be null");
  }
  Column keys = entries.StructField(0);
  Column values = entries.StructField(1);
  const std::vector<int64_t> lengths = Lengths(a, rows);
  const std::vector<uint8_t> is_null = NullFlags(a, rows);
  SQE_RETURN_NOT_OK(CheckMapKeys(keys, lengths, is_null, ctx));
  return MakeMap(fn.return_type, rows, is_null, lengths, std::move(keys), std::move(values), ctx);
}

/// map_entries(map(K, V)): array(row(key K, value V)).
Result<Column> MapEntriesOf(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                            const EvalContext& ctx) {
  const Column& m = args[0];
  ElementRows el = ListElements(m, rows);
  SQE_ASSIGN_OR_RETURN(Column keys, Gather(m.MapKeys(), el.index, ctx));
  SQE_ASSIGN_OR_RETURN(Column values, Gather(m.MapItems(), el.index, ctx));
  const int64_t n = keys.length();
  SQE_ASSIGN_OR_RETURN(Column entries, Column::Make(ElementOf(fn.return_type), n, {nullptr},
                                                    {std::move(keys), std::move(values)}, 0));
  return MakeList(fn.return_type, rows, &m, Lengths(m, rows), std::move(entries), ctx);
}

/// map_keys / map_values: the keys or the values as an array, in the map's order.
ScalarKernel PartKernel(bool keys) {
  return [keys](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                const EvalContext& ctx) -> Result<Column> {
    const Column& m = args[0];
    ElementRows el = ListElements(m, rows);
    SQE_ASSIGN_OR_RETURN(Column part, Gather(keys ? m.MapKeys() : m.MapItems(), el.index, ctx));
    return MakeList(fn.return_type, rows, &m, Lengths(m, rows), std::move(part), ctx);
  };
}

/// map_concat(m1, m2, ...): the union of the maps; a key in several takes the value of the
/// last. As in Trino, the entries of the last map come first, then the new keys of each
/// earlier map, from the last to the first. NULL when any argument is NULL.
Result<Column> MapConcat(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                         const EvalContext& ctx) {
  std::vector<uint8_t> is_null(static_cast<size_t>(rows), 0);
  for (const Column& m : args) {
    for (int64_t i = 0; i < rows; ++i) is_null[i] |= m.IsNull(i) ? 1 : 0;
  }
  std::vector<Column> key_pieces, value_pieces;
  for (const Column& m : args) {
    key_pieces.push_back(m.MapKeys());
    value_pieces.push_back(m.MapItems());
  }
  std::vector<int32_t> piece;
  std::vector<uint32_t> at;
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  for (int64_t i = 0; i < rows; ++i) {
    if (is_null[i]) continue;
    const size_t row_start = piece.size();
    for (size_t m = args.size(); m-- > 0;) {
      const Column& map = args[m];
      const Column& keys = key_pieces[m];
      for (int64_t p = map.ListStart(i); p < map.ListStart(i) + map.ListLength(i); ++p) {
        bool seen = false;
        for (size_t e = row_start; e < piece.size() && !seen; ++e) {
          seen = CompareValues(key_pieces[piece[e]], at[e], keys, p) == 0;
        }
        if (seen) continue;
        piece.push_back(static_cast<int32_t>(m));
        at.push_back(static_cast<uint32_t>(p));
      }
    }
    lengths[i] = static_cast<int64_t>(piece.size() - row_start);
  }
  const TypePtr& map_type = fn.return_type;
  const int64_t n = static_cast<int64_t>(piece.size());
  SQE_ASSIGN_OR_RETURN(Column keys, Interleave(map_type->key_field().type(), key_pieces,
                                               piece.data(), at.data(), n, ctx));
  SQE_ASSIGN_OR_RETURN(Column values, Interleave(map_type->item_field().type(), value_pieces,
                                                 piece.data(), at.data(), n, ctx));
  return MakeMap(map_type, rows, is_null, lengths, std::move(keys), std::move(values), ctx);
}

}  // namespace

void RegisterMapFunctions(FunctionRegistry& r) {
  AddFamily(
      r, "map",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 2 || !IsList(t[0]) || !IsList(t[1]) || !IsComparableType(ElementOf(t[0]))) {
          return std::optional<ScalarFunction>();
        }
        return kernel::Instance("map", {t[0], t[1]},
                                columnar::Map(ElementOf(t[0]), ElementOf(t[1])), MapFromArrays);
      },
      "map(K, V)", "array(K), array(V)",
      "a map pairing the keys with the values position by position");
  AddFamily(
      r, "map_from_entries",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 1 || !IsList(t[0]) || ElementOf(t[0])->id() != TypeId::kStruct ||
            ElementOf(t[0])->num_fields() != 2) {
          return std::optional<ScalarFunction>();
        }
        const TypePtr& row = ElementOf(t[0]);
        const TypePtr& key = row->field(0).type();
        if (!IsComparableType(key)) return std::optional<ScalarFunction>();
        return kernel::Instance("map_from_entries", {t[0]},
                                columnar::Map(key, row->field(1).type()), MapFromEntries);
      },
      "map(K, V)", "array(row(K, V))", "a map of the (key, value) entries");
  AddFamily(
      r, "map_entries",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 1 || !IsMap(t[0])) return std::optional<ScalarFunction>();
        TypePtr row = columnar::Struct({columnar::Field("key", t[0]->key_field().type()),
                                        columnar::Field("value", t[0]->item_field().type())});
        return kernel::Instance("map_entries", {t[0]}, columnar::List(row), MapEntriesOf);
      },
      "array(row(K, V))", "map(K, V)", "the map's entries as (key, value) rows");
  AddFamily(
      r, "map_keys",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 1 || !IsMap(t[0])) return std::optional<ScalarFunction>();
        return kernel::Instance("map_keys", {t[0]}, columnar::List(t[0]->key_field().type()),
                                PartKernel(true));
      },
      "array(K)", "map(K, V)", "the keys of the map");
  AddFamily(
      r, "map_values",
      [](const std::vector<TypePtr>& t) {
        if (t.size() != 1 || !IsMap(t[0])) return std::optional<ScalarFunction>();
        return kernel::Instance("map_values", {t[0]}, columnar::List(t[0]->item_field().type()),
                                PartKernel(false));
      },
      "array(V)", "map(K, V)", "the values of the map");
  AddFamily(
      r, "map_concat",
      [](const std::vector<TypePtr>& t) {
        if (t.empty() || !IsMap(t[0])) return std::optional<ScalarFunction>();
        for (const TypePtr& m : t) {
          if (!IsMap(m) || !m->Equals(*t[0])) return std::optional<ScalarFunction>();
        }
        return kernel::Instance("map_concat", t, t[0], MapConcat);
      },
      "map(K, V)", "map(K, V), ...", "the union of the maps (the last map's value wins)");
}

}  // namespace sqe::exec
