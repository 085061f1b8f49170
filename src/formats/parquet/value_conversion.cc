#include "formats/parquet/value_conversion.h"

#include <bit>
#include <cstring>
#include <limits>

namespace sqe::parquet {

Result<columnar::Decimal128> DecimalFromBigEndian(std::string_view bytes) {
  if (bytes.empty()) return Status::Corruption("parquet decimal: empty value");
  const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t n = bytes.size();
  const bool negative = (b[0] & 0x80) != 0;
  // Drop leading sign-extension bytes beyond 16.
  while (n > 16) {
    if (b[0] != (negative ? 0xff : 0x00)) {
      return Status::Corruption("parquet decimal: " + std::to_string(bytes.size()) +
                                "-byte value does not fit 128 bits");
    }
    ++b;
    --n;
  }
  uint8_t le[16];
  std::memset(le, negative ? 0xff : 0x00, 16);
  for (size_t i = 0; i < n; ++i) le[i] = b[n - 1 - i];
  columnar::Decimal128 v;
  std::memcpy(&v.low, le, 8);
  std::memcpy(&v.high, le + 8, 8);
  return v;
}

Status DecimalToBigEndian(const columnar::Decimal128& value, int32_t width, uint8_t* out) {
  if (width < 1 || width > 16) {
    return Status::InvalidArgument("parquet decimal: width " + std::to_string(width));
  }
  uint8_t le[16];
  std::memcpy(le, &value.low, 8);
  std::memcpy(le + 8, &value.high, 8);
  const uint8_t sign = value.IsNegative() ? 0xff : 0x00;
  for (int i = width; i < 16; ++i) {
    if (le[i] != sign) {
      return Status::InvalidArgument("parquet decimal: value does not fit " +
                                     std::to_string(width) + " bytes");
    }
  }
  if (width < 16 && ((le[width - 1] & 0x80) != 0) != value.IsNegative()) {
    return Status::InvalidArgument("parquet decimal: value does not fit " + std::to_string(width) +
                                   " bytes");
  }
  for (int i = 0; i < width; ++i) out[i] = le[width - 1 - i];
  return Status::OK();
}

float Float16ToFloat32(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  const uint32_t exp = (half >> 10) & 0x1f;
  uint32_t mant = half & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);  // inf / NaN
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;  // +-0
  } else {
    // Subnormal: normalise.
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while ((mant & 0x400) == 0);
    bits = sign | static_cast<uint32_t>(112 - e) << 23 | ((mant & 0x3ff) << 13);
  }
  return std::bit_cast<float>(bits);
}

Status MillisToMicros(int64_t* values, int64_t n) {
  constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 1000;
  for (int64_t i = 0; i < n; ++i) {
    if (values[i] > kLimit || values[i] < -kLimit) {
      return Status::Corruption("parquet: millisecond value " + std::to_string(values[i]) +
                                " overflows microseconds");
    }
    values[i] *= 1000;
  }
  return Status::OK();
}

}  // namespace sqe::parquet
