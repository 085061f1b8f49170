#pragma once
/// Decimal128: the unscaled value of a decimal(p, s), a 128-bit two's-complement integer
/// stored exactly as Arrow's decimal128 buffers hold it (16 bytes, little-endian: low
/// word first). The scale is a property of the type, so it is passed to ToString and
/// FromString. A trivially copyable value type.

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace sqe::columnar {

static_assert(std::endian::native == std::endian::little,
              "columnar buffers assume a little-endian host (Arrow's native order)");

struct Decimal128 {
  uint64_t low = 0;
  int64_t high = 0;

  constexpr Decimal128() = default;
  constexpr Decimal128(int64_t value)  // NOLINT: implicit, like an integer literal
      : low(static_cast<uint64_t>(value)), high(value < 0 ? -1 : 0) {}
  constexpr Decimal128(int64_t high_word, uint64_t low_word) : low(low_word), high(high_word) {}

  /// Parses "-12.3", "0.05", "1e3" is rejected. Fewer fractional digits than `scale` are
  /// padded ("12.3" at scale 2 -> 1230); more are an error, as are more than 38 digits.
  static Result<Decimal128> FromString(std::string_view text, int32_t scale);

  /// The value with `scale` digits after the point: 1230 at scale 2 -> "12.30",
  /// -5 at scale 2 -> "-0.05", any 128-bit value (39 digits at most).
  std::string ToString(int32_t scale) const;
  /// Appends ToString(scale) to *out without a temporary.
  void AppendTo(int32_t scale, std::string* out) const;

  /// Whether |value| < 10^precision.
  bool FitsInPrecision(int32_t precision) const;
  bool IsNegative() const { return high < 0; }

  /// 10^exponent for 0 <= exponent <= 38.
  static Decimal128 PowerOfTen(int exponent);

  friend constexpr bool operator==(const Decimal128& a, const Decimal128& b) {
    return a.low == b.low && a.high == b.high;
  }
  friend bool operator<(const Decimal128& a, const Decimal128& b) {
    return a.high < b.high || (a.high == b.high && a.low < b.low);
  }
};
static_assert(sizeof(Decimal128) == 16, "Decimal128 must match Arrow's 16-byte layout");

}  // namespace sqe::columnar
