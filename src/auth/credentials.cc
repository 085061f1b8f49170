#include "auth/credentials.h"

#include <cctype>
#include <optional>

namespace sqe::auth {
namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<std::string> Base64Decode(std::string_view in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  while (!in.empty() && in.back() == '=') in.remove_suffix(1);
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    int v = value(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  if (bits >= 6) return std::nullopt;  // a dangling sextet is not base64
  return out;
}

}  // namespace

Credentials Credentials::Bearer(std::string token) {
  Credentials c;
  c.kind = Kind::kBearer;
  c.secret = SecretString(std::move(token));
  return c;
}

Credentials Credentials::Basic(std::string user, std::string password) {
  Credentials c;
  c.kind = Kind::kBasic;
  c.user = std::move(user);
  c.secret = SecretString(std::move(password));
  return c;
}

Result<Credentials> ParseAuthorizationHeader(std::string_view value) {
  value = Trim(value);
  if (value.empty()) return Credentials::None();
  if (StartsWithNoCase(value, "bearer ")) {
    std::string_view token = Trim(value.substr(7));
    if (token.empty()) {
      return Status::Unauthenticated("the Authorization header's Bearer token is empty");
    }
    return Credentials::Bearer(std::string(token));
  }
  if (StartsWithNoCase(value, "basic ")) {
    std::optional<std::string> decoded = Base64Decode(Trim(value.substr(6)));
    size_t colon = decoded ? decoded->find(':') : std::string::npos;
    if (colon == std::string::npos) {
      if (decoded) SecureZero(decoded->data(), decoded->size());
      return Status::Unauthenticated(
          "the Authorization header's Basic credentials are not base64 of user:password");
    }
    Credentials c = Credentials::Basic(decoded->substr(0, colon), decoded->substr(colon + 1));
    SecureZero(decoded->data(), decoded->size());
    return c;
  }
  return Status::Unauthenticated(
      "unsupported Authorization scheme: send 'Bearer <token or API key>' or 'Basic "
      "<base64 user:password>'");
}

}  // namespace sqe::auth
