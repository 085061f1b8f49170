// String functions. Positions and lengths count Unicode code points, not bytes; strings
// compare and match on their UTF-8 bytes. LIKE patterns and regular expressions are
// compiled once per batch when the pattern does not change from row to row (a literal
// pattern is broadcast, so it is compiled once).

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <memory>
#include <unordered_map>

#include "columnar/utf8.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/regex_cache_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;

namespace {

TypePtr V() { return columnar::String(); }
TypePtr I64() { return columnar::Int64(); }

// -- case mapping (ASCII, Latin-1, Latin Extended-A, Greek, Cyrillic) --------------------

uint32_t LowerCp(uint32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7)) return c + 0x20;
  if (c >= 0x100 && c <= 0x137) return c | 1;
  if (c >= 0x139 && c <= 0x148) return (c & 1) ? c + 1 : c;
  if (c >= 0x14A && c <= 0x177) return c | 1;
  if (c == 0x178) return 0xFF;
  if (c >= 0x179 && c <= 0x17E) return (c & 1) ? c + 1 : c;
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 0x20;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  return c;
}

uint32_t UpperCp(uint32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
  if ((c >= 0xE0 && c <= 0xFE && c != 0xF7)) return c - 0x20;
  if (c == 0xFF) return 0x178;
  if (c >= 0x100 && c <= 0x137) return c & ~1u;
  if (c >= 0x139 && c <= 0x148) return (c & 1) ? c : c - 1;
  if (c >= 0x14A && c <= 0x177) return c & ~1u;
  if (c >= 0x179 && c <= 0x17E) return (c & 1) ? c : c - 1;
  if (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) return c - 0x20;
  if (c >= 0x430 && c <= 0x44F) return c - 0x20;
  if (c >= 0x450 && c <= 0x45F) return c - 0x50;
  return c;
}

template <uint32_t (*Map)(uint32_t)>
void MapCase(std::string_view s, std::string* out) {
  out->reserve(s.size());
  size_t pos = 0;
  while (pos < s.size()) {
    const auto b = static_cast<uint8_t>(s[pos]);
    if (b < 0x80) {
      out->push_back(static_cast<char>(Map(b)));
      ++pos;
      continue;
    }
    const size_t start = pos;
    const uint32_t cp = kernel::NextCodePoint(s, &pos);
    if (cp == 0xFFFD) {
      out->append(s.substr(start, pos - start));  // keep invalid bytes as they are
    } else {
      kernel::AppendUtf8(Map(cp), out);
    }
  }
}

/// Byte offset of code point `n` (0-based) in s, or s.size() when s is shorter.
size_t ByteOffsetOfCodePoint(std::string_view s, int64_t n) {
  size_t pos = 0;
  while (n > 0 && pos < s.size()) {
    ++pos;
    while (pos < s.size() && (static_cast<uint8_t>(s[pos]) & 0xC0) == 0x80) ++pos;
    --n;
  }
  return pos;
}

std::vector<uint32_t> CodePoints(std::string_view s) {
  std::vector<uint32_t> out;
  size_t pos = 0;
  while (pos < s.size()) out.push_back(kernel::NextCodePoint(s, &pos));
  return out;
}

/// Trino's strpos(s, sub, n): the 1-based code point position of the n-th occurrence of
/// sub (occurrences may overlap), counted from the end when n is negative; 0 when there are
/// fewer; 1 for an empty sub. n = 0 is an error.
Status NthPosition(std::string_view s, std::string_view sub, int64_t n, int64_t* out) {
  if (n == 0) return Status::InvalidArgument("'instance' must be a positive or negative number.");
  if (sub.empty()) {
    *out = 1;
    return Status::OK();
  }
  size_t hit = std::string_view::npos;
  if (n > 0) {
    size_t from = 0;
    for (int64_t k = 0; k < n; ++k) {
      hit = s.find(sub, from);
      if (hit == std::string_view::npos) break;
      from = hit + 1;
    }
  } else {
    size_t before = s.size();  // the next hit starts before this byte
    for (int64_t k = 0; k > n; --k) {
      if (before == 0) {
        hit = std::string_view::npos;
        break;
      }
      hit = s.rfind(sub, before - 1);
      if (hit == std::string_view::npos) break;
      before = hit;
    }
  }
  *out = hit == std::string_view::npos ? 0 : kernel::CodePointCount(s.substr(0, hit)) + 1;
  return Status::OK();
}

/// translate()'s mapping: each code point of `from` maps to the code point at the same index
/// of `to`, or to nothing (removal) past its end; the first occurrence of a repeated
/// code point in `from` wins.
class CharacterMap {
 public:
  CharacterMap() = default;
  CharacterMap(std::string_view from, std::string_view to) {
    const std::vector<uint32_t> f = CodePoints(from);
    const std::vector<uint32_t> t = CodePoints(to);
    for (size_t k = 0; k < f.size(); ++k) {
      const uint32_t target = k < t.size() ? t[k] : kRemove;
      if (f[k] < kAsciiSize) {
        if (!ascii_set_[f[k]]) {
          ascii_set_[f[k]] = true;
          ascii_[f[k]] = target;
        }
      } else {
        other_.emplace(f[k], target);  // keeps the first mapping of a repeated key
      }
    }
  }

  void Apply(std::string_view s, std::string* out) const {
    out->reserve(s.size());
    size_t pos = 0;
    while (pos < s.size()) {
      const size_t start = pos;
      const uint32_t cp = kernel::NextCodePoint(s, &pos);
      uint32_t target = cp;
      bool mapped = false;
      if (cp == 0xFFFD && columnar::ValidUtf8SequenceLength(s.substr(start)) == 0) {
        // an invalid byte, not a real U+FFFD: kept as it is
      } else if (cp < kAsciiSize) {
        mapped = ascii_set_[cp];
        if (mapped) target = ascii_[cp];
      } else if (auto it = other_.find(cp); it != other_.end()) {
        mapped = true;
        target = it->second;
      }
      if (!mapped) {
        out->append(s.substr(start, pos - start));  // unchanged bytes, invalid ones included
      } else if (target != kRemove) {
        kernel::AppendUtf8(target, out);
      }
    }
  }

 private:
  static constexpr uint32_t kAsciiSize = 128;
  static constexpr uint32_t kRemove = 0xFFFFFFFF;
  std::array<bool, kAsciiSize> ascii_set_{};
  std::array<uint32_t, kAsciiSize> ascii_{};
  std::unordered_map<uint32_t, uint32_t> other_;
};

// -- LIKE -------------------------------------------------------------------------------

/// A compiled LIKE pattern: literal runs, `_` (one code point) and `%` (any run).
class LikePattern {
 public:
  static Result<LikePattern> Compile(std::string_view pattern, std::optional<uint32_t> escape) {
    LikePattern p;
    size_t pos = 0;
    while (pos < pattern.size()) {
      const uint32_t cp = kernel::NextCodePoint(pattern, &pos);
      if (escape && cp == *escape) {
        if (pos >= pattern.size()) {
          return Status::InvalidArgument(
              "Escape character must be followed by '%', '_' or the "
              "escape character");
        }
        const uint32_t next = kernel::NextCodePoint(pattern, &pos);
        if (next != '%' && next != '_' && next != *escape) {
          return Status::InvalidArgument(
              "Escape character must be followed by '%', '_' or the "
              "escape character");
        }
        p.AddLiteral(next);
      } else if (cp == '%') {
        if (p.tokens_.empty() || p.tokens_.back().kind != Kind::kMany) {
          p.tokens_.push_back({Kind::kMany, {}});
        }
      } else if (cp == '_') {
        p.tokens_.push_back({Kind::kOne, {}});
      } else {
        p.AddLiteral(cp);
      }
    }
    return p;
  }

  bool Matches(std::string_view s) const {
    size_t ti = 0;
    size_t si = 0;
    size_t star_ti = std::string::npos;
    size_t star_si = 0;
    while (true) {
      if (ti < tokens_.size()) {
        const Token& t = tokens_[ti];
        if (t.kind == Kind::kMany) {
          star_ti = ++ti;
          star_si = si;
          continue;
        }
        if (t.kind == Kind::kOne && si < s.size()) {
          si = Advance(s, si);
          ++ti;
          continue;
        }
        if (t.kind == Kind::kLiteral && s.substr(si, t.text.size()) == t.text) {
          si += t.text.size();
          ++ti;
          continue;
        }
      } else if (si == s.size()) {
        return true;
      }
      // Mismatch (or pattern exhausted early): retry after the last % one code point later.
      if (star_ti == std::string::npos || star_si >= s.size()) return false;
      star_si = Advance(s, star_si);
      si = star_si;
      ti = star_ti;
    }
  }

 private:
  enum class Kind : uint8_t { kLiteral, kOne, kMany };
  struct Token {
    Kind kind;
    std::string text;
  };
  static size_t Advance(std::string_view s, size_t pos) {
    ++pos;
    while (pos < s.size() && (static_cast<uint8_t>(s[pos]) & 0xC0) == 0x80) ++pos;
    return pos;
  }
  void AddLiteral(uint32_t cp) {
    if (tokens_.empty() || tokens_.back().kind != Kind::kLiteral) {
      tokens_.push_back({Kind::kLiteral, {}});
    }
    kernel::AppendUtf8(cp, &tokens_.back().text);
  }
  std::vector<Token> tokens_;
};

ScalarKernel LikeKernel(bool ignore_case) {
  return [ignore_case](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                       const EvalContext& ctx) -> Result<Column> {
    std::optional<LikePattern> compiled;
    std::string last_pattern;
    std::string last_escape;
    std::string lowered;
    return kernel::MapToBoolean(args, rows, ctx, [&](int64_t i, bool* out, bool*) -> Status {
      std::string_view pattern = args[1].StringAt(i);
      std::string_view escape = args.size() > 2 ? args[2].StringAt(i) : std::string_view();
      if (!compiled || pattern != last_pattern || escape != last_escape) {
        std::optional<uint32_t> esc;
        if (args.size() > 2) {
          if (kernel::CodePointCount(escape) != 1) {
            return Status::InvalidArgument("Escape string must be a single character");
          }
          size_t p = 0;
          esc = kernel::NextCodePoint(escape, &p);
        }
        std::string pat(pattern);
        std::string lowered_pattern;
        if (ignore_case) {
          MapCase<LowerCp>(pat, &lowered_pattern);
          pat = lowered_pattern;
        }
        SQE_ASSIGN_OR_RETURN(LikePattern p, LikePattern::Compile(pat, esc));
        compiled = std::move(p);
        last_pattern.assign(pattern);
        last_escape.assign(escape);
      }
      if (ignore_case) {
        lowered.clear();
        MapCase<LowerCp>(args[0].StringAt(i), &lowered);
        *out = compiled->Matches(lowered);
      } else {
        *out = compiled->Matches(args[0].StringAt(i));
      }
      return Status::OK();
    });
  };
}

/// The RE2 of row i's pattern, looked up again only when the pattern changes (compiled
/// patterns are shared by every query: regex_cache_internal.h).
using RegexCache = kernel::CompiledPattern;

// -- trim -------------------------------------------------------------------------------

std::string_view TrimChars(std::string_view s, const std::vector<uint32_t>& chars, bool left,
                           bool right) {
  auto in_set = [&](uint32_t cp) {
    return std::find(chars.begin(), chars.end(), cp) != chars.end();
  };
  size_t b = 0;
  size_t e = s.size();
  if (left) {
    while (b < e) {
      size_t p = b;
      const uint32_t cp = kernel::NextCodePoint(s, &p);
      if (!in_set(cp)) break;
      b = p;
    }
  }
  if (right) {
    while (e > b) {
      size_t start = e - 1;
      while (start > b && (static_cast<uint8_t>(s[start]) & 0xC0) == 0x80) --start;
      size_t p = start;
      const uint32_t cp = kernel::NextCodePoint(s, &p);
      if (!in_set(cp)) break;
      e = start;
    }
  }
  return s.substr(b, e - b);
}

void AddTrim(FunctionRegistry& r, const char* name, bool left, bool right) {
  static const std::vector<uint32_t> kWhitespace = {' ', '\t', '\n', '\r', '\f', '\v'};
  kernel::AddFixed(
      r, name, {V()}, V(),
      [left, right](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                    const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          out->assign(TrimChars(args[0].StringAt(i), kWhitespace, left, right));
          return Status::OK();
        });
      },
      "removes whitespace");
  kernel::AddFixed(
      r, name, {V(), V()}, V(),
      [left, right](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                    const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          out->assign(TrimChars(args[0].StringAt(i), CodePoints(args[1].StringAt(i)), left, right));
          return Status::OK();
        });
      },
      "removes the given characters");
}

std::string Pad(std::string_view s, int64_t size, std::string_view pad, bool left) {
  const int64_t len = kernel::CodePointCount(s);
  if (size <= len) return std::string(s.substr(0, ByteOffsetOfCodePoint(s, size)));
  const std::vector<uint32_t> pad_cps = CodePoints(pad);
  std::string fill;
  for (int64_t k = 0; k < size - len; ++k) {
    kernel::AppendUtf8(pad_cps[static_cast<size_t>(k) % pad_cps.size()], &fill);
  }
  return left ? fill + std::string(s) : std::string(s) + fill;
}

ScalarKernel PadKernel(bool left) {
  return [left](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                const EvalContext& ctx) {
    return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) -> Status {
      const int64_t size = args[1].Value<int64_t>(i);
      const std::string_view pad = args[2].StringAt(i);
      if (size < 0 || size > (1 << 30)) {
        return Status::InvalidArgument("Target length must be in the range [0.." +
                                       std::to_string(1 << 30) + "]");
      }
      if (pad.empty()) return Status::InvalidArgument("Padding string must not be empty");
      *out = Pad(args[0].StringAt(i), size, pad, left);
      return Status::OK();
    });
  };
}

std::string Substr(std::string_view s, int64_t start, std::optional<int64_t> length) {
  // Trino: 1-based; 0 gives ''; a negative start counts from the end.
  if (start == 0) return "";
  const int64_t n = kernel::CodePointCount(s);
  if (start < 0) start = n + start + 1;
  if (start < 1 || start > n) return "";
  int64_t len = length ? *length : n - start + 1;
  if (len <= 0) return "";
  len = std::min(len, n - start + 1);
  const size_t b = ByteOffsetOfCodePoint(s, start - 1);
  const size_t e = b + ByteOffsetOfCodePoint(s.substr(b), len);
  return std::string(s.substr(b, e - b));
}

void RegisterConcat(FunctionRegistry& r) {
  ScalarKernel concat = [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                           const EvalContext& ctx) {
    return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
      for (const Column& c : args) out->append(c.StringAt(i));
      return Status::OK();
    });
  };
  auto resolver = [concat](std::string name, size_t min_args) {
    return [concat, name,
            min_args](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
      if (types.size() < min_args || (name == "||" && types.size() != 2)) {
        return std::optional<ScalarFunction>();
      }
      for (const TypePtr& t : types) {
        if (t != nullptr && t->id() != columnar::TypeId::kString) {
          return std::optional<ScalarFunction>();
        }
      }
      return kernel::Instance(name, std::vector<TypePtr>(types.size(), V()), V(), concat);
    };
  };
  FunctionInfo info{"concat", "varchar", "varchar, ...", "scalar",
                    "concatenation of every argument (NULL if any is NULL)"};
  r.AddScalar("concat", resolver("concat", 1), info);
  info.name = "||";
  info.argument_types = "varchar, varchar";
  r.AddScalar("||", resolver("||", 2), info);
}

/// to_utf8 / from_utf8, concat_ws, levenshtein_distance.
void RegisterMoreStringFunctions(FunctionRegistry& r) {
  kernel::AddFixed(
      r, "to_utf8", {V()}, columnar::Binary(),
      [](const std::vector<Column>& args, int64_t, const ScalarFunction&,
         const EvalContext&) -> Result<Column> {
        const Column& a = args[0];
        return Column::Make(columnar::Binary(), a.length(), a.buffers(), {}, a.null_count(),
                            a.offset());
      },
      "the UTF-8 bytes of a string");
  kernel::AddFixed(
      r, "from_utf8", {columnar::Binary()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          // Invalid sequences become U+FFFD, as in Trino.
          const std::string_view s = args[0].BinaryAt(i);
          size_t pos = 0;
          while (pos < s.size()) {
            const size_t start = pos;
            const uint32_t cp = kernel::NextCodePoint(s, &pos);
            if (cp == 0xFFFD && columnar::ValidUtf8SequenceLength(s.substr(start)) == 0) {
              kernel::AppendUtf8(0xFFFD, out);
            } else {
              out->append(s.substr(start, pos - start));
            }
          }
          return Status::OK();
        });
      },
      "decodes UTF-8 bytes (invalid sequences become U+FFFD)");
  ScalarKernel concat_ws = [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                              const EvalContext& ctx) {
    // NULL separator -> NULL; NULL values are skipped (Trino).
    return kernel::MapToString({args[0]}, rows, ctx, [&](int64_t i, std::string* out, bool*) {
      const std::string_view sep = args[0].StringAt(i);
      bool first = true;
      for (size_t k = 1; k < args.size(); ++k) {
        if (args[k].IsNull(i)) continue;
        if (!first) out->append(sep);
        out->append(args[k].StringAt(i));
        first = false;
      }
      return Status::OK();
    });
  };
  r.AddScalar(
      "concat_ws",
      [concat_ws](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.size() < 2) return std::optional<ScalarFunction>();
        for (const TypePtr& t : types) {
          if (t != nullptr && t->id() != columnar::TypeId::kString) {
            return std::optional<ScalarFunction>();
          }
        }
        return kernel::Instance("concat_ws", std::vector<TypePtr>(types.size(), V()), V(),
                                concat_ws);
      },
      {"concat_ws", "varchar", "varchar, varchar, ...", "scalar",
       "the non-NULL values joined by the separator"});
  kernel::AddFixed(
      r, "levenshtein_distance", {V(), V()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        std::vector<int64_t> prev;
        std::vector<int64_t> cur;
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
              const std::vector<uint32_t> a = CodePoints(args[0].StringAt(i));
              const std::vector<uint32_t> b = CodePoints(args[1].StringAt(i));
              if (a.size() * b.size() > 1'000'000) {
                return Status::InvalidArgument(
                    "The combined inputs for Levenshtein distance are too large");
              }
              prev.assign(b.size() + 1, 0);
              cur.assign(b.size() + 1, 0);
              for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int64_t>(j);
              for (size_t x = 1; x <= a.size(); ++x) {
                cur[0] = static_cast<int64_t>(x);
                for (size_t y = 1; y <= b.size(); ++y) {
                  cur[y] = std::min(
                      {prev[y] + 1, cur[y - 1] + 1, prev[y - 1] + (a[x - 1] == b[y - 1] ? 0 : 1)});
                }
                std::swap(prev, cur);
              }
              *out = prev[b.size()];
              return Status::OK();
            });
      },
      "edit distance in code points");
}

}  // namespace

void RegisterStringFunctions(FunctionRegistry& r) {
  using kernel::AddFixed;
  AddFixed(
      r, "length", {V()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(args, rows, fn.return_type, ctx,
                                           [&](int64_t i, int64_t* out, bool*) {
                                             *out = kernel::CodePointCount(args[0].StringAt(i));
                                             return Status::OK();
                                           });
      },
      "number of code points");
  AddFixed(
      r, "length", {columnar::Binary()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) {
              *out = static_cast<int64_t>(args[0].BinaryAt(i).size());
              return Status::OK();
            });
      },
      "number of bytes");
  AddFixed(
      r, "lower", {V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          MapCase<LowerCp>(args[0].StringAt(i), out);
          return Status::OK();
        });
      },
      "lower case");
  AddFixed(
      r, "upper", {V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          MapCase<UpperCp>(args[0].StringAt(i), out);
          return Status::OK();
        });
      },
      "upper case");
  AddTrim(r, "trim", true, true);
  AddTrim(r, "ltrim", true, false);
  AddTrim(r, "rtrim", false, true);
  for (const char* name : {"substr", "substring"}) {
    AddFixed(
        r, name, {V(), I64()}, V(),
        [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
           const EvalContext& ctx) {
          return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
            *out = Substr(args[0].StringAt(i), args[1].Value<int64_t>(i), std::nullopt);
            return Status::OK();
          });
        },
        "suffix from a 1-based start (negative: from the end)");
    AddFixed(
        r, name, {V(), I64(), I64()}, V(),
        [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
           const EvalContext& ctx) {
          return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
            *out =
                Substr(args[0].StringAt(i), args[1].Value<int64_t>(i), args[2].Value<int64_t>(i));
            return Status::OK();
          });
        },
        "substring of a length from a 1-based start");
  }
  ScalarKernel replace = [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                            const EvalContext& ctx) {
    return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
      const std::string_view s = args[0].StringAt(i);
      const std::string_view from = args[1].StringAt(i);
      const std::string_view to = args.size() > 2 ? args[2].StringAt(i) : std::string_view();
      if (from.empty()) {
        // Trino inserts the replacement before every code point and at the end.
        size_t pos = 0;
        out->append(to);
        while (pos < s.size()) {
          const size_t start = pos;
          kernel::NextCodePoint(s, &pos);
          out->append(s.substr(start, pos - start));
          out->append(to);
        }
        return Status::OK();
      }
      size_t pos = 0;
      while (true) {
        const size_t hit = s.find(from, pos);
        if (hit == std::string_view::npos) break;
        out->append(s.substr(pos, hit - pos));
        out->append(to);
        pos = hit + from.size();
      }
      out->append(s.substr(pos));
      return Status::OK();
    });
  };
  AddFixed(r, "replace", {V(), V()}, V(), replace, "removes every occurrence of a string");
  AddFixed(r, "replace", {V(), V(), V()}, V(), replace, "replaces every occurrence of a string");
  AddFixed(
      r, "split_part", {V(), V(), I64()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(
            args, rows, ctx, [&](int64_t i, std::string* out, bool* is_null) -> Status {
              const std::string_view s = args[0].StringAt(i);
              const std::string_view delim = args[1].StringAt(i);
              const int64_t index = args[2].Value<int64_t>(i);
              if (index <= 0) return Status::InvalidArgument("Index must be greater than zero");
              if (delim.empty()) {
                // Trino splits into code points when the delimiter is empty.
                size_t pos = 0;
                int64_t k = 0;
                while (pos < s.size()) {
                  const size_t start = pos;
                  kernel::NextCodePoint(s, &pos);
                  if (++k == index) {
                    out->assign(s.substr(start, pos - start));
                    return Status::OK();
                  }
                }
                *is_null = true;
                return Status::OK();
              }
              size_t pos = 0;
              for (int64_t k = 1;; ++k) {
                const size_t hit = s.find(delim, pos);
                if (k == index) {
                  out->assign(s.substr(pos, hit == std::string_view::npos ? s.npos : hit - pos));
                  return Status::OK();
                }
                if (hit == std::string_view::npos) break;
                pos = hit + delim.size();
              }
              *is_null = true;
              return Status::OK();
            });
      },
      "field `index` (1-based) of the string split at a delimiter; NULL past the last");
  RegisterConcat(r);
  AddFixed(
      r, "strpos", {V(), V()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) {
              const std::string_view s = args[0].StringAt(i);
              const size_t hit = s.find(args[1].StringAt(i));
              *out =
                  hit == std::string_view::npos ? 0 : kernel::CodePointCount(s.substr(0, hit)) + 1;
              return Status::OK();
            });
      },
      "1-based code point position of the first occurrence, 0 if none");
  AddFixed(
      r, "strpos", {V(), V(), I64()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
              return NthPosition(args[0].StringAt(i), args[1].StringAt(i),
                                 args[2].Value<int64_t>(i), out);
            });
      },
      "1-based code point position of the n-th occurrence (negative n: from the end), 0 if "
      "none");
  AddFixed(
      r, "translate", {V(), V(), V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        CharacterMap map;
        std::string last_from;
        std::string last_to;
        bool compiled = false;
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          const std::string_view from = args[1].StringAt(i);
          const std::string_view to = args[2].StringAt(i);
          if (!compiled || from != last_from || to != last_to) {
            map = CharacterMap(from, to);
            last_from.assign(from);
            last_to.assign(to);
            compiled = true;
          }
          map.Apply(args[0].StringAt(i), out);
          return Status::OK();
        });
      },
      "replaces each character found in `from` by the one at the same place in `to` (removes "
      "it when `to` is shorter)");
  AddFixed(
      r, "starts_with", {V(), V()}, columnar::Boolean(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToBoolean(args, rows, ctx, [&](int64_t i, bool* out, bool*) {
          *out = args[0].StringAt(i).starts_with(args[1].StringAt(i));
          return Status::OK();
        });
      },
      "whether the string starts with the prefix");
  AddFixed(
      r, "ends_with", {V(), V()}, columnar::Boolean(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToBoolean(args, rows, ctx, [&](int64_t i, bool* out, bool*) {
          *out = args[0].StringAt(i).ends_with(args[1].StringAt(i));
          return Status::OK();
        });
      },
      "whether the string ends with the suffix");
  AddFixed(r, "lpad", {V(), I64(), V()}, V(), PadKernel(true),
           "left-pads (or truncates) to a length in code points");
  AddFixed(r, "rpad", {V(), I64(), V()}, V(), PadKernel(false),
           "right-pads (or truncates) to a length in code points");
  AddFixed(
      r, "reverse", {V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          const std::string_view s = args[0].StringAt(i);
          size_t end = s.size();
          while (end > 0) {
            size_t start = end - 1;
            while (start > 0 && (static_cast<uint8_t>(s[start]) & 0xC0) == 0x80) --start;
            out->append(s.substr(start, end - start));
            end = start;
          }
          return Status::OK();
        });
      },
      "code points in reverse order");
  AddFixed(
      r, "chr", {I64()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          const int64_t cp = args[0].Value<int64_t>(i);
          if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return Status::InvalidArgument("Not a valid Unicode code point: " + std::to_string(cp));
          }
          kernel::AppendUtf8(static_cast<uint32_t>(cp), out);
          return Status::OK();
        });
      },
      "the character of a code point");
  AddFixed(
      r, "codepoint", {V()}, columnar::Int32(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int32_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int32_t* out, bool*) -> Status {
              const std::string_view s = args[0].StringAt(i);
              if (kernel::CodePointCount(s) != 1) {
                return Status::InvalidArgument(
                    "Unexpected parameters (varchar) for function codepoint: the argument must "
                    "be a single character");
              }
              size_t p = 0;
              *out = static_cast<int32_t>(kernel::NextCodePoint(s, &p));
              return Status::OK();
            });
      },
      "the code point of a single character");
  AddFixed(r, "like", {V(), V()}, columnar::Boolean(), LikeKernel(false),
           "SQL LIKE: % any run, _ one character");
  AddFixed(r, "like", {V(), V(), V()}, columnar::Boolean(), LikeKernel(false),
           "SQL LIKE with an escape character");
  AddFixed(r, "ilike", {V(), V()}, columnar::Boolean(), LikeKernel(true), "case-insensitive LIKE");
  AddFixed(r, "ilike", {V(), V(), V()}, columnar::Boolean(), LikeKernel(true),
           "case-insensitive LIKE with an escape character");
  AddFixed(
      r, "regexp_like", {V(), V()}, columnar::Boolean(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        RegexCache cache;
        return kernel::MapToBoolean(args, rows, ctx, [&](int64_t i, bool* out, bool*) -> Status {
          SQE_ASSIGN_OR_RETURN(const re2::RE2* re, cache.Get(args[1].StringAt(i)));
          const std::string_view s = args[0].StringAt(i);
          *out = re2::RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re);
          return Status::OK();
        });
      },
      "whether the regular expression (RE2 syntax) matches part of the string");
  AddFixed(
      r, "regexp_replace", {V(), V(), V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        RegexCache cache;
        return kernel::MapToString(
            args, rows, ctx, [&](int64_t i, std::string* out, bool*) -> Status {
              SQE_ASSIGN_OR_RETURN(const re2::RE2* re, cache.Get(args[1].StringAt(i)));
              out->assign(args[0].StringAt(i));
              // Trino writes group references as $1; RE2 as \1.
              std::string rewrite;
              const std::string_view rep = args[2].StringAt(i);
              for (size_t k = 0; k < rep.size(); ++k) {
                if (rep[k] == '$' && k + 1 < rep.size() && rep[k + 1] >= '0' && rep[k + 1] <= '9') {
                  rewrite.push_back('\\');  // $n -> \n
                  continue;
                } else if (rep[k] == '\\') {
                  rewrite.push_back('\\');
                }
                rewrite.push_back(rep[k]);
              }
              re2::RE2::GlobalReplace(out, *re, rewrite);
              return Status::OK();
            });
      },
      "replaces every match of the regular expression ($n: group n)");
  AddFixed(
      r, "regexp_extract", {V(), V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        RegexCache cache;
        return kernel::MapToString(
            args, rows, ctx, [&](int64_t i, std::string* out, bool* is_null) -> Status {
              SQE_ASSIGN_OR_RETURN(const re2::RE2* re, cache.Get(args[1].StringAt(i)));
              const std::string_view s = args[0].StringAt(i);
              re2::StringPiece match;
              if (!re->Match(re2::StringPiece(s.data(), s.size()), 0, s.size(),
                             re2::RE2::UNANCHORED, &match, 1)) {
                *is_null = true;
              } else {
                out->assign(match.data(), match.size());
              }
              return Status::OK();
            });
      },
      "the first match of the regular expression, NULL if none");
  RegisterMoreStringFunctions(r);
}

}  // namespace sqe::exec
