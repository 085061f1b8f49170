// Regular expression functions beyond regexp_like / regexp_replace / regexp_extract of
// string.cc: regexp_extract with a group, regexp_extract_all, regexp_split, regexp_count,
// regexp_position and the two-argument regexp_replace, in RE2 syntax. Matches are found
// the way Trino (java.util.regex semantics) finds them: left to right, and after an empty
// match the search resumes one code point further. Positions count code points. A
// pattern is compiled once while it stays the same (a literal pattern: once per
// process: compiled patterns are shared through a bounded cache), never per row.

#include <memory>
#include <string>
#include <vector>

#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/regex_cache_internal.h"
#include "exec/functions/string_array_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;

namespace {

using kernel::CompiledPattern;

TypePtr V() { return columnar::String(); }
TypePtr I64() { return columnar::Int64(); }

/// Calls visit(groups) for each match of `re` in s from byte `from` (groups[0]: the whole
/// match, groups[g]: group g, data() == nullptr when it did not take part) until visit
/// returns false.
template <typename Visit>
void ForEachMatch(const re2::RE2& re, std::string_view s, size_t from, Visit&& visit) {
  const int n = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> groups(static_cast<size_t>(n));
  const re2::StringPiece text(s.data(), s.size());
  size_t pos = from;
  while (pos <= s.size()) {
    if (!re.Match(text, pos, s.size(), re2::RE2::UNANCHORED, groups.data(), n)) return;
    if (!visit(groups)) return;
    const size_t begin = static_cast<size_t>(groups[0].data() - s.data());
    const size_t end = begin + groups[0].size();
    if (end == begin) {
      if (end >= s.size()) return;
      size_t next = end;
      kernel::NextCodePoint(s, &next);
      pos = next;
    } else {
      pos = end;
    }
  }
}

std::string_view View(const re2::StringPiece& p) {
  return p.data() == nullptr ? kernel::NullPiece() : std::string_view(p.data(), p.size());
}

Status CheckGroup(const re2::RE2& re, int64_t group) {
  if (group < 0) return Status::InvalidArgument("Group cannot be negative");
  const int groups = re.NumberOfCapturingGroups();
  if (group > groups) {
    return Status::InvalidArgument("Pattern has " + std::to_string(groups) +
                                   " groups. Cannot access group " + std::to_string(group));
  }
  return Status::OK();
}

/// Byte offset of 1-based code point `position` of s (s.size() past the end).
size_t ByteOfCodePoint(std::string_view s, int64_t position) {
  size_t pos = 0;
  for (int64_t k = 1; k < position && pos < s.size(); ++k) kernel::NextCodePoint(s, &pos);
  return pos;
}

Result<Column> ExtractGroup(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                            const EvalContext& ctx) {
  CompiledPattern pattern;
  return kernel::MapToString(
      args, rows, ctx, [&](int64_t i, std::string* out, bool* is_null) -> Status {
        SQE_ASSIGN_OR_RETURN(const re2::RE2* re, pattern.Get(args[1].StringAt(i)));
        const int64_t group = args[2].Value<int64_t>(i);
        SQE_RETURN_NOT_OK(CheckGroup(*re, group));
        const std::string_view s = args[0].StringAt(i);
        *is_null = true;
        ForEachMatch(*re, s, 0, [&](const std::vector<re2::StringPiece>& g) {
          const re2::StringPiece& hit = g[static_cast<size_t>(group)];
          if (hit.data() != nullptr) {
            out->assign(hit.data(), hit.size());
            *is_null = false;
          }
          return false;
        });
        return Status::OK();
      });
}

Result<Column> ExtractAll(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                          const EvalContext& ctx) {
  CompiledPattern pattern;
  return kernel::MapToStringArray(
      args, rows, ctx, [&](int64_t i, std::vector<std::string_view>* pieces, bool*) -> Status {
        SQE_ASSIGN_OR_RETURN(const re2::RE2* re, pattern.Get(args[1].StringAt(i)));
        const int64_t group = args.size() > 2 ? args[2].Value<int64_t>(i) : 0;
        SQE_RETURN_NOT_OK(CheckGroup(*re, group));
        ForEachMatch(*re, args[0].StringAt(i), 0, [&](const std::vector<re2::StringPiece>& g) {
          pieces->push_back(View(g[static_cast<size_t>(group)]));
          return true;
        });
        return Status::OK();
      });
}

Result<Column> Split(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                     const EvalContext& ctx) {
  CompiledPattern pattern;
  return kernel::MapToStringArray(
      args, rows, ctx, [&](int64_t i, std::vector<std::string_view>* pieces, bool*) -> Status {
        SQE_ASSIGN_OR_RETURN(const re2::RE2* re, pattern.Get(args[1].StringAt(i)));
        const std::string_view s = args[0].StringAt(i);
        size_t start = 0;
        ForEachMatch(*re, s, 0, [&](const std::vector<re2::StringPiece>& g) {
          const size_t begin = static_cast<size_t>(g[0].data() - s.data());
          pieces->push_back(s.substr(start, begin - start));
          start = begin + g[0].size();
          return true;
        });
        pieces->push_back(s.substr(start));
        return Status::OK();
      });
}

Result<Column> Count(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                     const EvalContext& ctx) {
  CompiledPattern pattern;
  return kernel::MapToFixed<int64_t>(
      args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
        SQE_ASSIGN_OR_RETURN(const re2::RE2* re, pattern.Get(args[1].StringAt(i)));
        int64_t n = 0;
        ForEachMatch(*re, args[0].StringAt(i), 0, [&](const std::vector<re2::StringPiece>&) {
          ++n;
          return true;
        });
        *out = n;
        return Status::OK();
      });
}

Result<Column> Position(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                        const EvalContext& ctx) {
  CompiledPattern pattern;
  return kernel::MapToFixed<int32_t>(
      args, rows, fn.return_type, ctx, [&](int64_t i, int32_t* out, bool*) -> Status {
        SQE_ASSIGN_OR_RETURN(const re2::RE2* re, pattern.Get(args[1].StringAt(i)));
        const int64_t start = args.size() > 2 ? args[2].Value<int64_t>(i) : 1;
        const int64_t occurrence = args.size() > 3 ? args[3].Value<int64_t>(i) : 1;
        if (start < 1) return Status::InvalidArgument("start position cannot be smaller than 1");
        if (occurrence < 1) return Status::InvalidArgument("occurrence cannot be smaller than 1");
        const std::string_view s = args[0].StringAt(i);
        *out = -1;
        if (start > kernel::CodePointCount(s) + 1) return Status::OK();
        int64_t seen = 0;
        ForEachMatch(*re, s, ByteOfCodePoint(s, start),
                     [&](const std::vector<re2::StringPiece>& g) {
                       if (++seen < occurrence) return true;
                       const size_t begin = static_cast<size_t>(g[0].data() - s.data());
                       *out = static_cast<int32_t>(kernel::CodePointCount(s.substr(0, begin)) + 1);
                       return false;
                     });
        return Status::OK();
      });
}

Result<Column> Remove(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                      const EvalContext& ctx) {
  CompiledPattern pattern;
  return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) -> Status {
    SQE_ASSIGN_OR_RETURN(const re2::RE2* re, pattern.Get(args[1].StringAt(i)));
    const std::string_view s = args[0].StringAt(i);
    size_t start = 0;
    ForEachMatch(*re, s, 0, [&](const std::vector<re2::StringPiece>& g) {
      const size_t begin = static_cast<size_t>(g[0].data() - s.data());
      out->append(s.substr(start, begin - start));
      start = begin + g[0].size();
      return true;
    });
    out->append(s.substr(start));
    return Status::OK();
  });
}

}  // namespace

void RegisterRegexpFunctions(FunctionRegistry& r) {
  using kernel::AddFixed;
  const TypePtr array = columnar::List(V());
  AddFixed(r, "regexp_extract", {V(), V(), I64()}, V(), ExtractGroup,
           "group `group` of the first match, NULL if none");
  AddFixed(r, "regexp_extract_all", {V(), V()}, array, ExtractAll, "every match");
  AddFixed(r, "regexp_extract_all", {V(), V(), I64()}, array, ExtractAll,
           "group `group` of every match");
  AddFixed(r, "regexp_split", {V(), V()}, array, Split,
           "the pieces between the matches (a trailing empty piece included)");
  AddFixed(r, "regexp_count", {V(), V()}, I64(), Count, "the number of matches");
  AddFixed(r, "regexp_position", {V(), V()}, columnar::Int32(), Position,
           "1-based position of the first match, -1 if none");
  AddFixed(r, "regexp_position", {V(), V(), I64()}, columnar::Int32(), Position,
           "1-based position of the first match from `start`, -1 if none");
  AddFixed(r, "regexp_position", {V(), V(), I64(), I64()}, columnar::Int32(), Position,
           "1-based position of the n-th match from `start`, -1 if none");
  AddFixed(r, "regexp_replace", {V(), V()}, V(), Remove, "removes every match");
}

}  // namespace sqe::exec
