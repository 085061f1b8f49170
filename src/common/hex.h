#pragma once
/// Hexadecimal text of bytes, the one copy every layer uses: digests and tokens (lower
/// case), SQL binary literals and percent-escapes (upper case), UUID text, and decoding
/// of hex digits. Pure functions, thread safe.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sqe {

/// Two digits per byte, "0123456789abcdef".
std::string HexLower(std::string_view bytes);
std::string HexLower(const unsigned char* data, size_t size);
/// Two digits per byte, "0123456789ABCDEF".
std::string HexUpper(std::string_view bytes);

/// As HexLower / HexUpper, appended to `out`.
void AppendHexLower(std::string_view bytes, std::string* out);
void AppendHexUpper(std::string_view bytes, std::string* out);
/// The two digits of one byte (percent-escapes "%2F", JSON "\u001f").
void AppendHexByte(uint8_t byte, bool upper, std::string* out);

/// The 16 lowercase digits of `value`, zero padded ("00000000000000ff").
std::string HexLower64(uint64_t value);

/// The 8-4-4-4-12 text of a UUID's 16 bytes, lower case
/// ("123e4567-e89b-12d3-a456-426614174000"); other lengths get the same dashes after
/// bytes 4, 6, 8 and 10 as far as they reach.
std::string UuidText(std::string_view bytes);
void AppendUuidText(std::string_view bytes, std::string* out);

/// The value of hex digit `c` (either case), -1 for any other character.
int HexDigitValue(char c);

/// The bytes of an even number of hex digits (either case); nullopt for an odd length or
/// a character that is not a hex digit.
std::optional<std::string> HexDecode(std::string_view text);

}  // namespace sqe
