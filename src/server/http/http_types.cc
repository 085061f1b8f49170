#include "server/http/http_types.h"

#include <algorithm>
#include <cctype>

namespace sqe::server {

const char* HttpMethodName(HttpMethod method) {
  switch (method) {
    case HttpMethod::kGet:
      return "GET";
    case HttpMethod::kPost:
      return "POST";
    case HttpMethod::kPut:
      return "PUT";
    case HttpMethod::kDelete:
      return "DELETE";
    case HttpMethod::kPatch:
      return "PATCH";
  }
  return "GET";
}

std::string HttpRequest::Header(const std::string& name) const {
  std::string key = name;
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  auto it = headers.find(key);
  return it == headers.end() ? std::string() : it->second;
}

HttpResponse HttpResponse::Json(int status, std::string json) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(json);
  return r;
}

}  // namespace sqe::server
