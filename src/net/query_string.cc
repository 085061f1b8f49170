#include "net/query_string.h"

#include "net/sigv4.h"

namespace sqe::net {

std::string QueryString(const std::vector<std::pair<std::string, std::string>>& query) {
  std::string out;
  for (const auto& [name, value] : query) {
    out += out.empty() ? "?" : "&";
    out += UriEncode(name, true) + "=" + UriEncode(value, true);
  }
  return out;
}

}  // namespace sqe::net
