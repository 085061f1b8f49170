#include "net/url_encoding.h"

#include <cstdint>

#include "common/hex.h"

namespace sqe::net {

std::string FormUrlEncode(std::string_view text) {
  std::string out;
  AppendFormUrlEncoded(text, &out);
  return out;
}

void AppendFormUrlEncoded(std::string_view text, std::string* out) {
  out->reserve(out->size() + text.size());
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
        c == '-' || c == '*' || c == '_') {
      out->push_back(c);
    } else if (c == ' ') {
      out->push_back('+');
    } else {
      out->push_back('%');
      AppendHexByte(static_cast<uint8_t>(c), true, out);
    }
  }
}

}  // namespace sqe::net
