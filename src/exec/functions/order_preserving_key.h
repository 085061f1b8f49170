#pragma once
/// Order-preserving images of SQL values: byte strings whose memcmp order is the SQL order
/// (numbers by value with NaN above everything as in Trino and -0.0 = 0.0; strings and
/// varbinary by unsigned bytes, 0x00 escaped as 0x00 0xFF and ended by 0x00 0x00;
/// decimals, dates, times, timestamps by value; false < true; integers big-endian with the
/// sign bit flipped). The scalar writers are inline for the sort encoder's flat loops;
/// AppendSortValue adds arrays (lexicographic, a prefix first) and rows (field by field),
/// NULL elements and fields after every value. Used by ORDER BY (sort_key_encoder.h) and
/// by min / max over arrays and rows. Pure functions, thread-safe.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "columnar/column.h"

namespace sqe::exec::order_key {

using columnar::Column;
using columnar::TypeId;

constexpr uint8_t kValid = 0x01;

inline void PutBigEndian(uint64_t v, int bytes, uint8_t* p) {
  for (int b = bytes - 1; b >= 0; --b) {
    p[b] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}

/// Order-preserving unsigned image of a double: NaN largest, -0.0 = 0.0.
inline uint64_t DoubleBits(double d) {
  if (std::isnan(d)) return std::numeric_limits<uint64_t>::max();
  if (d == 0) d = 0;
  const uint64_t bits = std::bit_cast<uint64_t>(d);
  return (bits & (uint64_t{1} << 63)) ? ~bits : bits | (uint64_t{1} << 63);
}

/// Bytes of a valid value (without the marker).
inline uint32_t ValueSize(const Column& c, int64_t i) {
  switch (c.type_id()) {
    case TypeId::kBoolean:
      return 1;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return 8;
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view v = c.StringAt(i);
      return static_cast<uint32_t>(v.size() + std::count(v.begin(), v.end(), '\0') + 2);
    }
    default:
      return static_cast<uint32_t>(c.type()->byte_width());
  }
}

template <typename T>
inline void PutSigned(const Column& c, int64_t i, uint8_t* p) {
  using U = std::make_unsigned_t<T>;
  const U v = static_cast<U>(c.Values<T>()[i]) ^ (U{1} << (sizeof(T) * 8 - 1));
  PutBigEndian(v, sizeof(T), p);
}

/// Writes a valid value; returns its size.
inline uint32_t PutValue(const Column& c, int64_t i, uint8_t* p) {
  switch (c.type_id()) {
    case TypeId::kBoolean:
      *p = c.BoolAt(i) ? 1 : 0;
      return 1;
    case TypeId::kInt8:
      PutSigned<int8_t>(c, i, p);
      return 1;
    case TypeId::kInt16:
      PutSigned<int16_t>(c, i, p);
      return 2;
    case TypeId::kInt32:
    case TypeId::kDate32:
      PutSigned<int32_t>(c, i, p);
      return 4;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      PutSigned<int64_t>(c, i, p);
      return 8;
    case TypeId::kFloat32:
      PutBigEndian(DoubleBits(c.Values<float>()[i]), 8, p);
      return 8;
    case TypeId::kFloat64:
      PutBigEndian(DoubleBits(c.Values<double>()[i]), 8, p);
      return 8;
    case TypeId::kDecimal128: {
      const columnar::Decimal128 d = c.DecimalAt(i);
      PutBigEndian(static_cast<uint64_t>(d.high) ^ (uint64_t{1} << 63), 8, p);
      PutBigEndian(d.low, 8, p + 8);
      return 16;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view v = c.StringAt(i);
      uint8_t* start = p;
      for (char ch : v) {
        *p++ = static_cast<uint8_t>(ch);
        if (ch == '\0') *p++ = 0xFF;
      }
      *p++ = 0;
      *p++ = 0;
      return static_cast<uint32_t>(p - start);
    }
    default: {  // fixed(n), uuid: unsigned bytes
      std::string_view v = c.FixedSizeBinaryAt(i);
      std::memcpy(p, v.data(), v.size());
      return static_cast<uint32_t>(v.size());
    }
  }
}

/// Appends the order-preserving image of a valid value of an orderable type (no map
/// inside). Arrays: per element a marker (0x01 valid, then the element's image; 0x02 NULL,
/// after every valid element) and 0x00 at the end, so a shorter prefix sorts first; rows:
/// per field the same marker and image, no end; scalars: PutValue.
void AppendSortValue(const Column& c, int64_t i, std::string* out);

}  // namespace sqe::exec::order_key
