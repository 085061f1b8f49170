#include "columnar/utf8.h"

#include <cstdint>

namespace sqe::columnar {

size_t ValidUtf8SequenceLength(std::string_view text) {
  if (text.empty()) return 0;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  const uint8_t b0 = s[0];
  if (b0 < 0x80) return 1;
  auto continuation = [&](size_t i) { return i < n && (s[i] & 0xC0) == 0x80; };
  if (b0 >= 0xC2 && b0 <= 0xDF) return continuation(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (n < 2) return 0;
    const uint8_t b1 = s[1];
    // E0 needs A0..BF (no overlongs); ED needs 80..9F (no surrogates).
    if (b0 == 0xE0 && b1 < 0xA0) return 0;
    if (b0 == 0xED && b1 > 0x9F) return 0;
    return continuation(1) && continuation(2) ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (n < 2) return 0;
    const uint8_t b1 = s[1];
    // F0 needs 90..BF (no overlongs); F4 needs 80..8F (<= U+10FFFF).
    if (b0 == 0xF0 && b1 < 0x90) return 0;
    if (b0 == 0xF4 && b1 > 0x8F) return 0;
    return continuation(1) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

bool IsValidUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    // ASCII fast path.
    if (static_cast<uint8_t>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t len = ValidUtf8SequenceLength(text.substr(i));
    if (len == 0) return false;
    i += len;
  }
  return true;
}

}  // namespace sqe::columnar
