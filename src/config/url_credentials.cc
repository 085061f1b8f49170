#include "config/url_credentials_internal.h"

#include <cctype>

namespace sqe::config {
namespace {

/// [begin, end) of one password inside a URL.
struct Span {
  size_t begin;
  size_t end;
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<Span> PasswordSpans(std::string_view url) {
  std::vector<Span> spans;
  size_t scheme = url.find("://");
  size_t authority = scheme == std::string_view::npos ? 0 : scheme + 3;
  size_t authority_end = url.find_first_of("/?#", authority);
  if (authority_end == std::string_view::npos) authority_end = url.size();
  size_t at = url.rfind('@', authority_end == 0 ? 0 : authority_end - 1);
  if (at != std::string_view::npos && at >= authority && at < authority_end) {
    size_t colon = url.find(':', authority);
    if (colon != std::string_view::npos && colon < at && colon + 1 < at) {
      spans.push_back({colon + 1, at});
    }
  }
  size_t query = url.find('?', authority);
  while (query != std::string_view::npos && query < url.size()) {
    size_t start = query + 1;
    size_t amp = url.find_first_of("&;#", start);
    size_t end = amp == std::string_view::npos ? url.size() : amp;
    std::string_view pair = url.substr(start, end - start);
    size_t eq = pair.find('=');
    if (eq != std::string_view::npos) {
      std::string key = Lower(pair.substr(0, eq));
      if ((key == "password" || key == "secret" || key == "pass") && eq + 1 < pair.size()) {
        spans.push_back({start + eq + 1, end});
      }
    }
    if (amp == std::string_view::npos || url[amp] == '#') break;
    query = amp;
  }
  return spans;
}

}  // namespace

std::vector<std::string> UrlPasswords(std::string_view url) {
  std::vector<std::string> out;
  for (const Span& s : PasswordSpans(url)) out.emplace_back(url.substr(s.begin, s.end - s.begin));
  return out;
}

std::string MaskUrlPasswords(std::string_view url) {
  std::string out;
  size_t pos = 0;
  for (const Span& s : PasswordSpans(url)) {
    out.append(url.substr(pos, s.begin - pos));
    out += "***";
    pos = s.end;
  }
  out.append(url.substr(pos));
  return out;
}

}  // namespace sqe::config
