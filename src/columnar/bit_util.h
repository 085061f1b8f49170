#pragma once
/// Bit-level access to Arrow bitmaps (validity and boolean values): bit i lives in byte
/// i / 8 at position i % 8, least-significant bit first; a set validity bit means "not
/// null". Free functions on raw memory; callers guarantee the bounds.

#include <cstdint>

namespace sqe::columnar {

constexpr int64_t BytesForBits(int64_t bits) { return (bits + 7) >> 3; }

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
}
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline void SetBitTo(uint8_t* bits, int64_t i, bool value) {
  value ? SetBit(bits, i) : ClearBit(bits, i);
}

/// Number of set bits among [offset, offset + length).
int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);

/// Sets bits [offset, offset + length) to `value`.
void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value);

/// Copies `length` bits from src at src_offset to dst at dst_offset (ranges must not
/// overlap); bits of dst outside the range are kept.
void CopyBits(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
              int64_t dst_offset);

}  // namespace sqe::columnar
