// JSON functions with Trino's semantics over VARCHAR-backed JSON: SQE has no JSON type, so
// json_parse returns the canonical JSON text (object keys sorted, no spaces) as varchar, and
// every json argument is varchar holding JSON text (typeof(json_parse('1')) is varchar where
// Trino says json). Functions: json_parse, json_format, json_extract, json_extract_scalar,
// json_array_length, json_array_get, json_array_contains, json_size, is_json_scalar, and
// json_value / json_query called as plain functions with a path ('lax $.a' or '$.a').
//
// Paths: Trino's legacy path for json_extract, json_extract_scalar and json_size, an
// SQL/JSON path (wildcards, ranges, lax / strict) for json_value and json_query; see
// json_path_internal.h.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exec/functions/builtin_families.h"
#include "exec/functions/json_path_internal.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;

namespace {

// ordered_json keeps the input's key order (json_extract returns the subtree as written);
// json (std::map) sorts keys (json_parse's canonical form, as Trino's).
using Ordered = json_path::Ordered;
using Sorted = nlohmann::json;

template <typename J>
std::optional<J> Parse(std::string_view text) {
  J j = J::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

template <typename J>
std::string Dump(const J& j) {
  return j.dump(-1, ' ', false, nlohmann::detail::error_handler_t::replace);
}

/// A scalar's text as json_extract_scalar gives it: strings unquoted, numbers and booleans
/// as JSON spells them; nullopt for null, objects and arrays.
std::optional<std::string> ScalarText(const Ordered& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number() || j.is_boolean()) return Dump(j);
  return std::nullopt;
}

/// Per-batch cache of a compiled path (paths are nearly always literals).
class PathCache {
 public:
  explicit PathCache(bool sql_json) : sql_json_(sql_json) {}
  Result<const json_path::Path*> Get(std::string_view text) {
    if (!valid_ || text != text_) {
      SQE_ASSIGN_OR_RETURN(path_, json_path::Parse(text, sql_json_));
      text_ = std::string(text);
      valid_ = true;
    }
    return &path_;
  }

 private:
  bool sql_json_;
  bool valid_ = false;
  std::string text_;
  json_path::Path path_;
};

Result<Column> JsonParse(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                         const EvalContext& ctx) {
  return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
    std::optional<Sorted> j = Parse<Sorted>(args[0].StringAt(i));
    if (!j) {
      return Status::InvalidArgument("Cannot convert value to JSON: '" +
                                     std::string(args[0].StringAt(i)) + "'");
    }
    *out = Dump(*j);
    return Status::OK();
  });
}

Result<Column> JsonFormat(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                          const EvalContext& ctx) {
  return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
    std::optional<Ordered> j = Parse<Ordered>(args[0].StringAt(i));
    if (!j)
      return Status::InvalidArgument("Invalid JSON value: '" + std::string(args[0].StringAt(i)) +
                                     "'");
    *out = Dump(*j);
    return Status::OK();
  });
}

/// json_extract, json_extract_scalar, json_value, json_query: the value at a path.
enum class Extract { kJson, kScalar, kValue, kQuery };

ScalarKernel ExtractKernel(Extract mode) {
  return [mode](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                const EvalContext& ctx) -> Result<Column> {
    PathCache paths(mode == Extract::kValue || mode == Extract::kQuery);
    return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool* is_null) {
      SQE_ASSIGN_OR_RETURN(const json_path::Path* path, paths.Get(args[1].StringAt(i)));
      std::optional<Ordered> j = Parse<Ordered>(args[0].StringAt(i));
      const Ordered* at = nullptr;
      if (j && path->sql_json) {
        // SQL/JSON: exactly one item, else NULL (NULL ON EMPTY / NULL ON ERROR, no wrapper).
        auto items = json_path::FindAll(*j, *path);
        if (items && items->size() == 1) at = items->front();
      } else if (j) {
        at = json_path::FindOne(*j, *path);
      }
      if (at == nullptr) {
        *is_null = true;
        return Status::OK();
      }
      if (mode == Extract::kJson || mode == Extract::kQuery) {
        *out = Dump(*at);  // json_query: a single scalar item is returned too, as Trino does
        return Status::OK();
      }
      std::optional<std::string> text = ScalarText(*at);
      if (!text) {
        *is_null = true;
      } else {
        *out = std::move(*text);
      }
      return Status::OK();
    });
  };
}

/// json_query(json, path, wrapper, on_empty, on_error, quotes) and json_value(json, path, on_empty,
/// empty_default, on_error, error_default): the SQL/JSON forms with their clauses, which
/// the parser spells as trailing string arguments. wrapper: "without", "conditional" or
/// "unconditional"; quotes: "keep" or "omit"; a behaviour: "null", "error", "empty array", "empty
/// object" (json_query) or "default" (json_value, with its default's text).
struct ClauseBehaviour {
  std::string_view kind;
  std::string_view default_text;
};

/// Applies `b` for a path that found nothing (`empty`) or failed with `error`.
Status Apply(const ClauseBehaviour& b, const std::string& error, std::string* out, bool* is_null) {
  if (b.kind == "error") return Status::InvalidArgument(error);
  if (b.kind == "empty array") {
    *out = "[]";
  } else if (b.kind == "empty object") {
    *out = "{}";
  } else if (b.kind == "default") {
    *out = std::string(b.default_text);
  } else {
    *is_null = true;
  }
  return Status::OK();
}

/// Parses the row's document into `doc` and finds the path's items (they point into
/// `doc`, which the caller keeps); on invalid JSON or a strict-mode mismatch applies
/// `on_error`, on an empty sequence `on_empty`, and then answers nullopt. `fn` names the
/// function in errors.
Result<std::optional<std::vector<const Ordered*>>> FindClauseItems(
    std::string_view fn, std::string_view text, const json_path::Path& path,
    const ClauseBehaviour& on_empty, const ClauseBehaviour& on_error, std::optional<Ordered>* doc,
    std::string* out, bool* is_null) {
  using Items = std::optional<std::vector<const Ordered*>>;
  *doc = Parse<Ordered>(text);
  const std::string name(fn);
  if (!*doc) {
    SQE_RETURN_NOT_OK(Apply(on_error, name + ": the input is not JSON", out, is_null));
    return Items();
  }
  Items items = json_path::FindAll(**doc, path);
  if (!items) {
    SQE_RETURN_NOT_OK(Apply(on_error, name + ": strict path error", out, is_null));
    return Items();
  }
  if (items->empty()) {
    SQE_RETURN_NOT_OK(Apply(on_empty, name + ": the path found no item", out, is_null));
    return Items();
  }
  return items;
}

Result<Column> JsonQueryClauses(const std::vector<Column>& args, int64_t rows,
                                const ScalarFunction&, const EvalContext& ctx) {
  PathCache paths(true);
  return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool* is_null) {
    SQE_ASSIGN_OR_RETURN(const json_path::Path* path, paths.Get(args[1].StringAt(i)));
    const std::string_view wrapper = args[2].StringAt(i);
    const ClauseBehaviour on_empty{args[3].StringAt(i), {}};
    const ClauseBehaviour on_error{args[4].StringAt(i), {}};
    std::optional<Ordered> doc;
    SQE_ASSIGN_OR_RETURN(auto items, FindClauseItems("json_query", args[0].StringAt(i), *path,
                                                     on_empty, on_error, &doc, out, is_null));
    if (!items) return Status::OK();
    const bool wrap =
        wrapper == "unconditional" ||
        (wrapper == "conditional" && !(items->size() == 1 && items->front()->is_structured()));
    if (wrap) {
      Ordered array = Ordered::array();
      for (const Ordered* item : *items) array.push_back(*item);
      *out = Dump(array);
      return Status::OK();
    }
    if (items->size() > 1) {
      return Apply(on_error,
                   "json_query: the path found more than one item; use WITH ARRAY WRAPPER", out,
                   is_null);
    }
    // One item, a scalar too (Trino); OMIT QUOTES gives a string's text without quotes.
    const Ordered& item = *items->front();
    *out = item.is_string() && args[5].StringAt(i) == "omit" ? item.get<std::string>() : Dump(item);
    return Status::OK();
  });
}

Result<Column> JsonValueClauses(const std::vector<Column>& args, int64_t rows,
                                const ScalarFunction&, const EvalContext& ctx) {
  PathCache paths(true);
  return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool* is_null) {
    SQE_ASSIGN_OR_RETURN(const json_path::Path* path, paths.Get(args[1].StringAt(i)));
    const ClauseBehaviour on_empty{args[2].StringAt(i), args[3].StringAt(i)};
    const ClauseBehaviour on_error{args[4].StringAt(i), args[5].StringAt(i)};
    std::optional<Ordered> doc;
    SQE_ASSIGN_OR_RETURN(auto items, FindClauseItems("json_value", args[0].StringAt(i), *path,
                                                     on_empty, on_error, &doc, out, is_null));
    if (!items) return Status::OK();
    if (items->size() > 1) {
      return Apply(on_error, "json_value: the path found more than one item", out, is_null);
    }
    const Ordered& item = *items->front();
    if (item.is_null()) {
      *is_null = true;
      return Status::OK();
    }
    std::optional<std::string> text = ScalarText(item);
    if (!text) return Apply(on_error, "json_value: the item is not a scalar", out, is_null);
    *out = std::move(*text);
    return Status::OK();
  });
}

Result<Column> ArrayLength(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                           const EvalContext& ctx) {
  return kernel::MapToFixed<int64_t>(
      args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool* is_null) {
        std::optional<Ordered> j = Parse<Ordered>(args[0].StringAt(i));
        if (!j || !j->is_array()) {
          *is_null = true;
        } else {
          *out = static_cast<int64_t>(j->size());
        }
        return Status::OK();
      });
}

Result<Column> Size(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                    const EvalContext& ctx) {
  PathCache paths(false);
  return kernel::MapToFixed<int64_t>(
      args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool* is_null) {
        SQE_ASSIGN_OR_RETURN(const json_path::Path* path, paths.Get(args[1].StringAt(i)));
        std::optional<Ordered> j = Parse<Ordered>(args[0].StringAt(i));
        const Ordered* at = j ? json_path::FindOne(*j, *path) : nullptr;
        if (at == nullptr) {
          *is_null = true;
        } else {
          *out = at->is_structured() ? static_cast<int64_t>(at->size()) : 0;
        }
        return Status::OK();
      });
}

Result<Column> IsScalar(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                        const EvalContext& ctx) {
  return kernel::MapToBoolean(args, rows, ctx, [&](int64_t i, bool* out, bool*) {
    std::optional<Ordered> j = Parse<Ordered>(args[0].StringAt(i));
    if (!j)
      return Status::InvalidArgument("Invalid JSON value: '" + std::string(args[0].StringAt(i)) +
                                     "'");
    *out = !j->is_structured();
    return Status::OK();
  });
}

/// json_array_get(json, index): the element at a 0-based index (negative: from the end).
Result<Column> ArrayGet(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                        const EvalContext& ctx) {
  return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool* is_null) {
    std::optional<Ordered> j = Parse<Ordered>(args[0].StringAt(i));
    int64_t k = args[1].Value<int64_t>(i);
    const int64_t n = j && j->is_array() ? static_cast<int64_t>(j->size()) : 0;
    if (k < 0) k += n;
    if (k < 0 || k >= n) {
      *is_null = true;
      return Status::OK();
    }
    *out = Dump((*j)[static_cast<size_t>(k)]);
    return Status::OK();
  });
}

/// json_array_contains(json, value) for boolean, bigint, double and varchar values.
Result<Column> ArrayContains(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                             const EvalContext& ctx) {
  const columnar::TypeId id = args[1].type_id();
  return kernel::MapToBoolean(args, rows, ctx, [&](int64_t i, bool* out, bool* is_null) {
    std::optional<Ordered> j = Parse<Ordered>(args[0].StringAt(i));
    if (!j || !j->is_array()) {
      *is_null = true;
      return Status::OK();
    }
    *out = false;
    for (const Ordered& e : *j) {
      bool match = false;
      switch (id) {
        case columnar::TypeId::kBoolean:
          match = e.is_boolean() && e.get<bool>() == args[1].BoolAt(i);
          break;
        case columnar::TypeId::kInt64:
          match = e.is_number_integer() && e.get<int64_t>() == args[1].Value<int64_t>(i);
          break;
        case columnar::TypeId::kFloat64:
          match = e.is_number() && e.get<double>() == args[1].Value<double>(i);
          break;
        default:
          match = e.is_string() && e.get_ref<const std::string&>() == args[1].StringAt(i);
          break;
      }
      if (match) {
        *out = true;
        break;
      }
    }
    return Status::OK();
  });
}

}  // namespace

void RegisterJsonFunctions(FunctionRegistry& r) {
  const TypePtr v = columnar::String();
  kernel::AddFixed(r, "json_parse", {v}, v, JsonParse,
                   "the JSON text parsed and written canonically (keys sorted, no spaces); "
                   "json is varchar in SQE");
  kernel::AddFixed(r, "json_format", {v}, v, JsonFormat, "the JSON value as compact text");
  kernel::AddFixed(r, "json_extract", {v, v}, v, ExtractKernel(Extract::kJson),
                   "the JSON value at a path ($.a.b, $[0], $[\"k\"]); NULL when there is none");
  kernel::AddFixed(r, "json_extract_scalar", {v, v}, v, ExtractKernel(Extract::kScalar),
                   "the scalar at a path as varchar; NULL for objects, arrays and null");
  kernel::AddFixed(r, "json_value", {v, v}, v, ExtractKernel(Extract::kValue),
                   "the SQL/JSON scalar at a path ('lax $.a') as varchar; NULL when none");
  kernel::AddFixed(r, "json_query", {v, v}, v, ExtractKernel(Extract::kQuery),
                   "the SQL/JSON object or array at a path ('lax $.a'); NULL for scalars");
  kernel::AddFixed(r, "json_query", {v, v, v, v, v, v}, v, JsonQueryClauses,
                   "json_query(json, path WITH [CONDITIONAL] ARRAY WRAPPER ... ON EMPTY ... ON "
                   "ERROR): the clauses as trailing arguments (the parser writes them)");
  kernel::AddFixed(r, "json_value", {v, v, v, v, v, v}, v, JsonValueClauses,
                   "json_value(json, path ... ON EMPTY ... ON ERROR): the clauses as trailing "
                   "arguments (the parser writes them)");
  kernel::AddFixed(r, "json_array_length", {v}, columnar::Int64(), ArrayLength,
                   "the number of elements of a JSON array; NULL for other values");
  kernel::AddFixed(r, "json_size", {v, v}, columnar::Int64(), Size,
                   "the size of the object or array at a path (0 for scalars)");
  kernel::AddFixed(r, "is_json_scalar", {v}, columnar::Boolean(), IsScalar,
                   "whether the JSON value is a scalar (not an object or array)");
  kernel::AddFixed(r, "json_array_get", {v, columnar::Int64()}, v, ArrayGet,
                   "the element at a 0-based index (negative: from the end) as JSON");
  for (const TypePtr& t : {columnar::Boolean(), columnar::Int64(), columnar::Float64(), v}) {
    kernel::AddFixed(r, "json_array_contains", {v, t}, columnar::Boolean(), ArrayContains,
                     "whether the JSON array holds the value");
  }
}

}  // namespace sqe::exec
