// JSON path parsing and evaluation for the JSON functions (json_path_internal.h).

#include "exec/functions/json_path_internal.h"

#include <string>
#include <utility>

namespace sqe::exec::json_path {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

/// Trino's unquoted key characters: letters (non-ASCII bytes count as letters), digits, _.
bool IsKeyChar(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

/// A cursor over the path text that reports errors with their position.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void Advance(size_t n = 1) { pos_ += n; }
  bool TryMatch(char c) {
    if (Peek() != c || AtEnd()) return false;
    ++pos_;
    return true;
  }
  bool TryMatchWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  void SkipSpaces() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t')) ++pos_;
  }
  size_t pos() const { return pos_; }
  std::string_view text() const { return text_; }

  /// "Invalid JSON path: '<path>' at position N: why" (N is 1-based).
  Status Error(const std::string& why) const {
    std::string message = "Invalid JSON path: '" + std::string(text_) + "' at position " +
                          std::to_string(pos_ + 1) + ": ";
    if (AtEnd()) {
      message += "unexpected end of the path; " + why;
    } else {
      message += "unexpected '" + std::string(1, Peek()) + "'; " + why;
    }
    return Status::InvalidArgument(message);
  }

  /// Digits as a non-negative int64 (at most 18 of them).
  std::optional<int64_t> Number() {
    size_t n = 0;
    while (pos_ + n < text_.size() && IsDigit(text_[pos_ + n])) ++n;
    if (n == 0 || n > 18) return std::nullopt;
    const int64_t value = std::stoll(std::string(text_.substr(pos_, n)));
    pos_ += n;
    return value;
  }

  /// A double-quoted key after its opening quote; \" and \\ escapes.
  Result<std::string> Quoted(char quote) {
    std::string out;
    while (!AtEnd() && Peek() != quote) {
      if (Peek() == '\\') {
        Advance();
        if (Peek() != quote && Peek() != '\\') return Error("only \\\" and \\\\ are escapes");
      }
      out.push_back(Peek());
      Advance();
    }
    if (!TryMatch(quote)) return Error("a quoted key must end with its quote");
    return out;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

std::optional<int64_t> DigitsOf(const std::string& key) {
  if (key.empty() || key.size() > 9) return std::nullopt;
  for (char c : key) {
    if (!IsDigit(c)) return std::nullopt;
  }
  return std::stoll(key);
}

constexpr const char* kNoWildcards =
    "json_extract takes no wildcards (as in Trino); json_query / json_value take them in an "
    "SQL/JSON path such as 'lax $.a[*].b'";

Result<std::vector<Step>> ParseLegacySteps(Reader& r) {
  std::vector<Step> steps;
  while (!r.AtEnd()) {
    Step step;
    if (r.TryMatch('.')) {
      const size_t start = r.pos();
      while (!r.AtEnd() && (IsKeyChar(r.Peek()) || r.Peek() == ':')) r.Advance();
      if (r.pos() == start) {
        return r.Error(r.Peek() == '*' ? kNoWildcards
                                       : "a key after '.' is letters, digits, '_' or ':'; "
                                         "quote other keys as [\"key\"]");
      }
      step.name = std::string(r.text().substr(start, r.pos() - start));
    } else if (r.TryMatch('[')) {
      if (r.Peek() == '"' || r.Peek() == '\'') {
        const char quote = r.Peek();
        r.Advance();
        SQE_ASSIGN_OR_RETURN(step.name, r.Quoted(quote));
      } else {
        const size_t start = r.pos();
        while (!r.AtEnd() && IsKeyChar(r.Peek())) r.Advance();
        if (r.pos() == start) {
          return r.Error(r.Peek() == '*' ? kNoWildcards
                                         : "a subscript is an index or a key (\"quoted\" or "
                                           "letters, digits and '_')");
        }
        step.name = std::string(r.text().substr(start, r.pos() - start));
      }
      if (!r.TryMatch(']')) return r.Error("expected ']'");
    } else {
      return r.Error("expected '.' or '['");
    }
    step.index = DigitsOf(step.name);
    steps.push_back(std::move(step));
  }
  return steps;
}

/// One SQL/JSON array subscript bound: n, last or last - n.
Result<std::pair<int64_t, bool>> ParseBound(Reader& r) {
  r.SkipSpaces();
  if (r.TryMatchWord("last")) {
    r.SkipSpaces();
    int64_t back = 0;
    if (r.TryMatch('-')) {
      r.SkipSpaces();
      std::optional<int64_t> n = r.Number();
      if (!n) return r.Error("expected a number after 'last -'");
      back = *n;
    }
    return std::make_pair(back, true);
  }
  std::optional<int64_t> n = r.Number();
  if (!n) return r.Error("an array subscript is a number, last, last - n, n to m or *");
  return std::make_pair(*n, false);
}

Result<std::vector<Step>> ParseSqlJsonSteps(Reader& r) {
  std::vector<Step> steps;
  while (true) {
    r.SkipSpaces();
    if (r.AtEnd()) break;
    Step step;
    if (r.TryMatch('.')) {
      if (r.TryMatch('*')) {
        step.kind = Step::Kind::kMemberWildcard;
      } else if (r.TryMatch('"')) {
        SQE_ASSIGN_OR_RETURN(step.name, r.Quoted('"'));
      } else {
        const size_t start = r.pos();
        while (!r.AtEnd() && (IsKeyChar(r.Peek()) || r.Peek() == '$')) r.Advance();
        if (r.pos() == start) {
          return r.Error("a member is .key, .\"key\" or .*");
        }
        step.name = std::string(r.text().substr(start, r.pos() - start));
      }
    } else if (r.TryMatch('[')) {
      r.SkipSpaces();
      if (r.TryMatch('*')) {
        step.kind = Step::Kind::kArrayWildcard;
      } else if (r.Peek() == '"' || r.Peek() == '\'') {
        // SQE also reads ["key"] here, as in its legacy paths.
        const char quote = r.Peek();
        r.Advance();
        SQE_ASSIGN_OR_RETURN(step.name, r.Quoted(quote));
      } else {
        step.kind = Step::Kind::kArray;
        do {
          Subscript s;
          SQE_ASSIGN_OR_RETURN(auto from, ParseBound(r));
          s.from = from.first;
          s.from_last = from.second;
          s.to = s.from;
          s.to_last = s.from_last;
          r.SkipSpaces();
          if (r.TryMatchWord("to")) {
            SQE_ASSIGN_OR_RETURN(auto to, ParseBound(r));
            s.to = to.first;
            s.to_last = to.second;
            r.SkipSpaces();
          }
          step.subscripts.push_back(s);
        } while (r.TryMatch(','));
      }
      r.SkipSpaces();
      if (!r.TryMatch(']')) return r.Error("expected ']'");
    } else {
      return r.Error("expected '.' or '['");
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

/// Appends the members of `item` a member step selects; false on a strict-mode error.
bool ApplyMember(const Ordered& item, const Step& step, bool strict,
                 std::vector<const Ordered*>* out) {
  if (item.is_array() && !strict) {
    for (const Ordered& element : item) {
      if (element.is_object()) ApplyMember(element, step, strict, out);
    }
    return true;
  }
  if (!item.is_object()) return !strict;
  if (step.kind == Step::Kind::kMemberWildcard) {
    for (const auto& member : item.items()) out->push_back(&member.value());
    return true;
  }
  auto it = item.find(step.name);
  if (it == item.end()) return !strict;
  out->push_back(&*it);
  return true;
}

/// Appends the elements of `item` an array step selects; false on a strict-mode error.
bool ApplyArray(const Ordered& item, const Step& step, bool strict,
                std::vector<const Ordered*>* out) {
  if (!item.is_array()) {
    if (strict) return false;
    // Lax: a non-array is an array of one element.
    if (step.kind == Step::Kind::kArrayWildcard) {
      out->push_back(&item);
      return true;
    }
    for (const Subscript& s : step.subscripts) {
      const int64_t from = s.from_last ? 0 - s.from : s.from;
      const int64_t to = s.to_last ? 0 - s.to : s.to;
      if (from <= 0 && to >= 0) out->push_back(&item);
    }
    return true;
  }
  const int64_t size = static_cast<int64_t>(item.size());
  if (step.kind == Step::Kind::kArrayWildcard) {
    for (const Ordered& element : item) out->push_back(&element);
    return true;
  }
  for (const Subscript& s : step.subscripts) {
    const int64_t from = s.from_last ? size - 1 - s.from : s.from;
    const int64_t to = s.to_last ? size - 1 - s.to : s.to;
    if (from < 0 || to >= size || from > to) {
      if (strict) return false;
    }
    for (int64_t k = std::max<int64_t>(from, 0); k <= std::min(to, size - 1); ++k) {
      out->push_back(&item[static_cast<size_t>(k)]);
    }
  }
  return true;
}

}  // namespace

Result<Path> Parse(std::string_view text, bool sql_json) {
  Reader r(text);
  Path path;
  path.sql_json = sql_json;
  r.SkipSpaces();
  if (sql_json) {
    if (r.TryMatchWord("strict ")) {
      path.strict = true;
    } else {
      r.TryMatchWord("lax ");
    }
    r.SkipSpaces();
  }
  if (!r.TryMatch('$')) return r.Error("a path starts with '$'");
  if (sql_json) {
    SQE_ASSIGN_OR_RETURN(path.steps, ParseSqlJsonSteps(r));
  } else {
    SQE_ASSIGN_OR_RETURN(path.steps, ParseLegacySteps(r));
  }
  return path;
}

const Ordered* FindOne(const Ordered& root, const Path& path) {
  const Ordered* at = &root;
  for (const Step& s : path.steps) {
    if (at->is_array()) {
      if (!s.index.has_value() || *s.index >= static_cast<int64_t>(at->size())) return nullptr;
      at = &(*at)[static_cast<size_t>(*s.index)];
    } else if (at->is_object()) {
      auto it = at->find(s.name);
      if (it == at->end()) return nullptr;
      at = &*it;
    } else {
      return nullptr;
    }
  }
  return at;
}

std::optional<std::vector<const Ordered*>> FindAll(const Ordered& root, const Path& path) {
  std::vector<const Ordered*> items = {&root};
  for (const Step& s : path.steps) {
    std::vector<const Ordered*> next;
    for (const Ordered* item : items) {
      const bool member = s.kind == Step::Kind::kMember || s.kind == Step::Kind::kMemberWildcard;
      const bool ok = member ? ApplyMember(*item, s, path.strict, &next)
                             : ApplyArray(*item, s, path.strict, &next);
      if (!ok) return std::nullopt;
    }
    items = std::move(next);
  }
  return items;
}

}  // namespace sqe::exec::json_path
