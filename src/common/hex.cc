#include "common/hex.h"

namespace sqe {
namespace {

constexpr char kLowerDigits[] = "0123456789abcdef";
constexpr char kUpperDigits[] = "0123456789ABCDEF";

void AppendDigits(std::string_view bytes, const char* digits, std::string* out) {
  out->reserve(out->size() + 2 * bytes.size());
  for (char c : bytes) {
    const auto b = static_cast<uint8_t>(c);
    out->push_back(digits[b >> 4]);
    out->push_back(digits[b & 15]);
  }
}

}  // namespace

std::string HexLower(std::string_view bytes) {
  std::string out;
  AppendDigits(bytes, kLowerDigits, &out);
  return out;
}

std::string HexLower(const unsigned char* data, size_t size) {
  return HexLower(std::string_view(reinterpret_cast<const char*>(data), size));
}

std::string HexUpper(std::string_view bytes) {
  std::string out;
  AppendDigits(bytes, kUpperDigits, &out);
  return out;
}

void AppendHexLower(std::string_view bytes, std::string* out) {
  AppendDigits(bytes, kLowerDigits, out);
}

void AppendHexUpper(std::string_view bytes, std::string* out) {
  AppendDigits(bytes, kUpperDigits, out);
}

void AppendHexByte(uint8_t byte, bool upper, std::string* out) {
  const char* digits = upper ? kUpperDigits : kLowerDigits;
  out->push_back(digits[byte >> 4]);
  out->push_back(digits[byte & 15]);
}

std::string HexLower64(uint64_t value) {
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) out[static_cast<size_t>(i)] = kLowerDigits[value & 15];
  return out;
}

std::string UuidText(std::string_view bytes) {
  std::string out;
  AppendUuidText(bytes, &out);
  return out;
}

void AppendUuidText(std::string_view bytes, std::string* out) {
  out->reserve(out->size() + 2 * bytes.size() + 4);
  for (size_t k = 0; k < bytes.size(); ++k) {
    if (k == 4 || k == 6 || k == 8 || k == 10) out->push_back('-');
    AppendHexByte(static_cast<uint8_t>(bytes[k]), false, out);
  }
}

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> HexDecode(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 2);
  for (size_t i = 0; i < text.size(); i += 2) {
    const int hi = HexDigitValue(text[i]);
    const int lo = HexDigitValue(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi << 4 | lo));
  }
  return out;
}

}  // namespace sqe
