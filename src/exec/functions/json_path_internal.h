#pragma once
/// JSON paths of the JSON functions (private to exec/functions), in Trino's two dialects:
///
/// * json_extract / json_extract_scalar / json_size take Trino's legacy path: `$` then
///   `.key` (letters, digits, `_`, `:`), `["key"]` (with `\"` and `\\` escapes; SQE also
///   reads `['key']`) or `[key]`. A key made of digits also indexes an array, as in Trino.
///   Wildcards are refused, as Trino refuses them.
/// * json_value / json_query take an SQL/JSON path: an optional `lax` (default) or
///   `strict` mode, `$`, then `.key`, `."key"`, `.*`, `[n]`, `[last]`, `[last - n]`,
///   `[n to m]`, lists of those, and `[*]`. In lax mode a member step unwraps an array of
///   objects and an array step treats a non-array as a one-element array; a strict path
///   that does not fit the value is an error (the functions' NULL ON ERROR).
///
/// Parse errors name the path and the 1-based position of the offending character.
/// Pure functions; thread-safe.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.h"

namespace sqe::exec::json_path {

/// Keeps the input's key order (json_extract returns the subtree as written).
using Ordered = nlohmann::ordered_json;

/// One subscript of an SQL/JSON array step: [from, to], each counted from the start or,
/// when *_from_last, back from the last element.
struct Subscript {
  int64_t from = 0;
  bool from_last = false;
  int64_t to = 0;
  bool to_last = false;
};

/// One step of a path.
struct Step {
  enum class Kind { kMember, kMemberWildcard, kArray, kArrayWildcard };
  Kind kind = Kind::kMember;
  std::string name;                   ///< kMember
  std::optional<int64_t> index;       ///< legacy kMember: the key's digits, an array index
  std::vector<Subscript> subscripts;  ///< kArray
};

/// A parsed path.
struct Path {
  bool sql_json = false;
  bool strict = false;
  std::vector<Step> steps;
};

/// Parses a legacy (json_extract) path or, with `sql_json`, an SQL/JSON path.
Result<Path> Parse(std::string_view text, bool sql_json);

/// The value a legacy path names, or nullptr when it names nothing.
const Ordered* FindOne(const Ordered& root, const Path& path);

/// The items an SQL/JSON path names in order, or nullopt on a strict-mode error.
std::optional<std::vector<const Ordered*>> FindAll(const Ordered& root, const Path& path);

}  // namespace sqe::exec::json_path
