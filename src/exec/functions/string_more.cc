// More string functions with Trino's semantics: split (array), hamming_distance,
// luhn_check, from_utf8 with a replacement, normalize (Unicode NFC/NFD/NFKC/NFKD through
// utf8proc), the URL family (url_extract_protocol/host/port/path/query/fragment/parameter, parsed
// the way java.net.URI reads an absolute or relative URI; NULL for a string that is not one) and
// url_encode / url_decode (application/x-www-form-urlencoded, UTF-8).

#include <utf8proc.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "columnar/utf8.h"
#include "common/hex.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/string_array_internal.h"
#include "net/url_encoding.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;

namespace {

TypePtr V() { return columnar::String(); }
TypePtr I64() { return columnar::Int64(); }

// -- split --------------------------------------------------------------------------------

Status SplitString(std::string_view s, std::string_view delim, int64_t limit,
                   std::vector<std::string_view>* pieces) {
  if (delim.empty()) return Status::InvalidArgument("The delimiter may not be the empty string");
  if (limit <= 0) return Status::InvalidArgument("Limit must be positive");
  size_t pos = 0;
  while (static_cast<int64_t>(pieces->size()) + 1 < limit) {
    const size_t hit = s.find(delim, pos);
    if (hit == std::string_view::npos) break;
    pieces->push_back(s.substr(pos, hit - pos));
    pos = hit + delim.size();
  }
  pieces->push_back(s.substr(pos));
  return Status::OK();
}

Result<Column> Split(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                     const EvalContext& ctx) {
  return kernel::MapToStringArray(
      args, rows, ctx, [&](int64_t i, std::vector<std::string_view>* pieces, bool*) {
        const int64_t limit = args.size() > 2 ? args[2].Value<int64_t>(i) : INT64_MAX;
        return SplitString(args[0].StringAt(i), args[1].StringAt(i), limit, pieces);
      });
}

// -- normalize ----------------------------------------------------------------------------

Result<int> NormalForm(std::string_view form) {
  if (form == "NFC") return UTF8PROC_STABLE | UTF8PROC_COMPOSE;
  if (form == "NFD") return UTF8PROC_STABLE | UTF8PROC_DECOMPOSE;
  if (form == "NFKC") return UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT;
  if (form == "NFKD") return UTF8PROC_STABLE | UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT;
  return Status::InvalidArgument("Normalization form must be one of [NFD, NFC, NFKD, NFKC]: " +
                                 std::string(form));
}

Status Normalize(std::string_view s, int options, std::string* out) {
  utf8proc_uint8_t* mapped = nullptr;
  const utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                                          static_cast<utf8proc_ssize_t>(s.size()), &mapped,
                                          static_cast<utf8proc_option_t>(options));
  if (n < 0) {
    return Status::InvalidArgument(std::string("Cannot normalize the string: ") +
                                   utf8proc_errmsg(n));
  }
  out->assign(reinterpret_cast<const char*>(mapped), static_cast<size_t>(n));
  std::free(mapped);
  return Status::OK();
}

// -- URLs ---------------------------------------------------------------------------------

/// The parts of a URI; a part that is absent is nullopt.
struct UrlParts {
  std::optional<std::string_view> scheme, host, path, query, fragment;
  std::optional<int64_t> port;
};

bool IsSchemeChar(char c, bool first) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return !first && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.');
}

/// Parses `url` like java.net.URI; nullopt when it is not a URI (a space, a bad port, ...).
std::optional<UrlParts> ParseUrl(std::string_view url) {
  for (char c : url) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' ||
        c == '`' || c == '{' || c == '|' || c == '}') {
      return std::nullopt;
    }
  }
  UrlParts parts;
  std::string_view rest = url;
  if (const size_t hash = rest.find('#'); hash != std::string_view::npos) {
    parts.fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
  }
  size_t k = 0;
  while (k < rest.size() && IsSchemeChar(rest[k], k == 0)) ++k;
  if (k > 0 && k < rest.size() && rest[k] == ':') {
    parts.scheme = rest.substr(0, k);
    rest = rest.substr(k + 1);
  }
  if (const size_t q = rest.find('?'); q != std::string_view::npos) {
    parts.query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  if (rest.starts_with("//")) {
    rest = rest.substr(2);
    const size_t slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
      authority = authority.substr(at + 1);
    }
    const size_t bracket = authority.rfind(']');
    const size_t colon = authority.rfind(':');
    if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
      const std::string_view digits = authority.substr(colon + 1);
      authority = authority.substr(0, colon);
      if (!digits.empty()) {
        int64_t port = 0;
        for (char c : digits) {
          if (c < '0' || c > '9' || port > 1000000) return std::nullopt;
          port = port * 10 + (c - '0');
        }
        parts.port = port;
      }
    }
    if (!authority.empty()) parts.host = authority;
  }
  parts.path = rest;
  return parts;
}

/// Registers url_extract_<part>(varchar) -> varchar.
void AddUrlPart(FunctionRegistry& r, const char* name,
                std::optional<std::string_view> UrlParts::*part, const char* what) {
  kernel::AddFixed(
      r, name, {V()}, V(),
      [part](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
             const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx,
                                   [&](int64_t i, std::string* out, bool* is_null) {
                                     const auto parts = ParseUrl(args[0].StringAt(i));
                                     if (!parts || !((*parts).*part)) {
                                       *is_null = true;
                                     } else {
                                       out->assign(*((*parts).*part));
                                     }
                                     return Status::OK();
                                   });
      },
      what);
}

/// The value of the first `name=value` of a query string; "" for a bare `name`.
std::optional<std::string_view> QueryParameter(std::string_view query, std::string_view name) {
  size_t pos = 0;
  while (pos <= query.size()) {
    const size_t amp = query.find('&', pos);
    const std::string_view pair =
        query.substr(pos, amp == std::string_view::npos ? query.npos : amp - pos);
    const size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      return eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    }
    if (amp == std::string_view::npos) break;
    pos = amp + 1;
  }
  return std::nullopt;
}

Status UrlDecode(std::string_view s, std::string* out) {
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == '+') {
      out->push_back(' ');
    } else if (s[k] == '%') {
      if (k + 2 >= s.size()) {
        return Status::InvalidArgument("Incomplete trailing escape (%) pattern");
      }
      const int hi = HexDigitValue(s[k + 1]);
      const int lo = HexDigitValue(s[k + 2]);
      if (hi < 0 || lo < 0) {
        return Status::InvalidArgument("Illegal hex characters in escape (%) pattern");
      }
      out->push_back(static_cast<char>(hi * 16 + lo));
      k += 2;
    } else {
      out->push_back(s[k]);
    }
  }
  return Status::OK();
}

// -- from_utf8 with a replacement -------------------------------------------------------

/// Decodes UTF-8 bytes, each invalid sequence replaced by `replacement` (may be empty).
void DecodeUtf8(std::string_view bytes, std::string_view replacement, std::string* out) {
  size_t pos = 0;
  while (pos < bytes.size()) {
    const size_t start = pos;
    kernel::NextCodePoint(bytes, &pos);
    if (columnar::ValidUtf8SequenceLength(bytes.substr(start)) == 0) {
      out->append(replacement);
    } else {
      out->append(bytes.substr(start, pos - start));
    }
  }
}

Result<Column> FromUtf8(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                        const EvalContext& ctx) {
  const bool by_code_point = args[1].type_id() == columnar::TypeId::kInt64;
  return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) -> Status {
    std::string replacement;
    if (by_code_point) {
      const int64_t cp = args[1].Value<int64_t>(i);
      if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return Status::InvalidArgument("Not a valid Unicode code point: " + std::to_string(cp));
      }
      kernel::AppendUtf8(static_cast<uint32_t>(cp), &replacement);
    } else {
      replacement.assign(args[1].StringAt(i));
      if (kernel::CodePointCount(replacement) > 1) {
        return Status::InvalidArgument(
            "Replacement character string must empty or a single character");
      }
    }
    DecodeUtf8(args[0].BinaryAt(i), replacement, out);
    return Status::OK();
  });
}

// -- distances and checks -----------------------------------------------------------------

Status HammingDistance(std::string_view a, std::string_view b, int64_t* out) {
  size_t p = 0;
  size_t q = 0;
  int64_t distance = 0;
  while (p < a.size() && q < b.size()) {
    if (kernel::NextCodePoint(a, &p) != kernel::NextCodePoint(b, &q)) ++distance;
  }
  if (p < a.size() || q < b.size()) {
    return Status::InvalidArgument(
        "The input strings to hamming_distance function must have the same length");
  }
  *out = distance;
  return Status::OK();
}

Status LuhnCheck(std::string_view digits, bool* out) {
  if (digits.empty()) {
    *out = false;
    return Status::OK();
  }
  int sum = 0;
  bool twice = false;
  for (size_t k = digits.size(); k-- > 0;) {
    const char c = digits[k];
    if (c < '0' || c > '9') {
      return Status::InvalidArgument("Input contains non-digit characters: " + std::string(digits));
    }
    int d = c - '0';
    if (twice) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    twice = !twice;
  }
  *out = sum % 10 == 0;
  return Status::OK();
}

}  // namespace

void RegisterStringMoreFunctions(FunctionRegistry& r) {
  using kernel::AddFixed;
  const TypePtr array = columnar::List(V());
  AddFixed(r, "split", {V(), V()}, array, Split, "the pieces of the string between delimiters");
  AddFixed(r, "split", {V(), V(), I64()}, array, Split,
           "at most `limit` pieces (the last one holds the rest)");
  AddFixed(r, "from_utf8", {columnar::Binary(), V()}, V(), FromUtf8,
           "decodes UTF-8 bytes, invalid sequences replaced by a character (or dropped)");
  AddFixed(r, "from_utf8", {columnar::Binary(), I64()}, V(), FromUtf8,
           "decodes UTF-8 bytes, invalid sequences replaced by a code point");
  AddFixed(
      r, "hamming_distance", {V(), V()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) {
              return HammingDistance(args[0].StringAt(i), args[1].StringAt(i), out);
            });
      },
      "the number of positions at which two equally long strings differ");
  AddFixed(
      r, "luhn_check", {V()}, columnar::Boolean(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToBoolean(args, rows, ctx, [&](int64_t i, bool* out, bool*) {
          return LuhnCheck(args[0].StringAt(i), out);
        });
      },
      "whether a string of digits passes the Luhn checksum");
  ScalarKernel normalize = [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                              const EvalContext& ctx) {
    return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) -> Status {
      int options = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
      if (args.size() > 1) {
        SQE_ASSIGN_OR_RETURN(options, NormalForm(args[1].StringAt(i)));
      }
      return Normalize(args[0].StringAt(i), options, out);
    });
  };
  AddFixed(r, "normalize", {V()}, V(), normalize, "Unicode NFC normal form");
  AddFixed(r, "normalize", {V(), V()}, V(), normalize,
           "Unicode normal form NFC, NFD, NFKC or NFKD");
  AddUrlPart(r, "url_extract_protocol", &UrlParts::scheme, "the URL's scheme (http, https, ...)");
  AddUrlPart(r, "url_extract_host", &UrlParts::host, "the URL's host");
  AddUrlPart(r, "url_extract_path", &UrlParts::path, "the URL's path");
  AddUrlPart(r, "url_extract_query", &UrlParts::query, "the URL's query string");
  AddUrlPart(r, "url_extract_fragment", &UrlParts::fragment, "the URL's fragment");
  AddFixed(
      r, "url_extract_port", {V()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(args, rows, fn.return_type, ctx,
                                           [&](int64_t i, int64_t* out, bool* is_null) {
                                             const auto parts = ParseUrl(args[0].StringAt(i));
                                             if (!parts || !parts->port) {
                                               *is_null = true;
                                             } else {
                                               *out = *parts->port;
                                             }
                                             return Status::OK();
                                           });
      },
      "the URL's port, NULL if it has none");
  AddFixed(
      r, "url_extract_parameter", {V(), V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx,
                                   [&](int64_t i, std::string* out, bool* is_null) {
                                     const auto parts = ParseUrl(args[0].StringAt(i));
                                     std::optional<std::string_view> value;
                                     if (parts && parts->query) {
                                       value = QueryParameter(*parts->query, args[1].StringAt(i));
                                     }
                                     if (!value) {
                                       *is_null = true;
                                     } else {
                                       out->assign(*value);
                                     }
                                     return Status::OK();
                                   });
      },
      "the value of the first query parameter of that name");
  AddFixed(
      r, "url_encode", {V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          net::AppendFormUrlEncoded(args[0].StringAt(i), out);
          return Status::OK();
        });
      },
      "escapes for a URL query (space as +, other bytes as %XX)");
  AddFixed(
      r, "url_decode", {V()}, V(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          return UrlDecode(args[0].StringAt(i), out);
        });
      },
      "unescapes a URL query string");
}

}  // namespace sqe::exec
