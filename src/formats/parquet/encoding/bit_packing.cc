#include "formats/parquet/encoding/bit_packing.h"

#include <bit>
#include <cstring>

namespace sqe::parquet {
namespace {

inline uint64_t Load64(const uint8_t* p, const uint8_t* end) {
  uint64_t v = 0;
  size_t avail = static_cast<size_t>(end - p);
  std::memcpy(&v, p, avail < 8 ? avail : 8);  // little-endian targets
  return v;
}

inline uint64_t Load64Unchecked(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Unpacks one group of 8 values of W bits (exactly W bytes). `kSafe`: 8 bytes may be read
// from any value's first byte (true for all but the last groups of the input).
template <typename T, int W, bool kSafe>
inline void UnpackGroup(const uint8_t* group, T* out) {
  constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
  const uint8_t* end = group + W;
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    const int bit = j * W;
    const uint8_t* p = group + bit / 8;
    const int shift = bit % 8;
    uint64_t v = (kSafe ? Load64Unchecked(p) : Load64(p, end)) >> shift;
    if (shift + W > 64) v |= static_cast<uint64_t>(p[8]) << (64 - shift);
    out[j] = static_cast<T>(v & kMask);
  }
}

template <typename T, int W>
void UnpackGroups(const uint8_t* in, int64_t num_groups, T* out) {
  if constexpr (W == 0) {
    std::memset(out, 0, sizeof(T) * 8 * num_groups);
  } else {
    // Groups whose last value starts at least 8 bytes before the end of the input take the
    // branch-free path with fixed 8-byte loads.
    const int64_t total = num_groups * W;
    int64_t safe = total >= W + 8 ? (total - W - 8) / W + 1 : 0;
    if (safe > num_groups) safe = num_groups;
    int64_t g = 0;
    for (; g < safe; ++g) UnpackGroup<T, W, true>(in + g * W, out + g * 8);
    for (; g < num_groups; ++g) UnpackGroup<T, W, false>(in + g * W, out + g * 8);
  }
}

template <typename T, int... Ws>
void Dispatch(const uint8_t* in, int64_t num_groups, int width, T* out,
              std::integer_sequence<int, Ws...>) {
  using Fn = void (*)(const uint8_t*, int64_t, T*);
  static constexpr Fn kTable[] = {&UnpackGroups<T, Ws>...};
  kTable[width](in, num_groups, out);
}

}  // namespace

void UnpackBits32(const uint8_t* in, int64_t num_groups, int bit_width, uint32_t* out) {
  Dispatch<uint32_t>(in, num_groups, bit_width, out, std::make_integer_sequence<int, 33>{});
}

void UnpackBits64(const uint8_t* in, int64_t num_groups, int bit_width, uint64_t* out) {
  Dispatch<uint64_t>(in, num_groups, bit_width, out, std::make_integer_sequence<int, 65>{});
}

void PackBits(const uint64_t* values, int64_t n, int bit_width, std::string* out) {
  int64_t padded = (n + 7) / 8 * 8;
  size_t start = out->size();
  out->append(static_cast<size_t>(padded / 8 * bit_width), '\0');
  auto* dst = reinterpret_cast<uint8_t*>(out->data() + start);
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  uint64_t bit = 0;
  for (int64_t i = 0; i < n; ++i, bit += bit_width) {
    uint64_t v = values[i] & mask;
    for (int done = 0; done < bit_width;) {
      uint64_t pos = bit + done;
      int shift = static_cast<int>(pos % 8);
      int take = std::min(8 - shift, bit_width - done);
      dst[pos / 8] |= static_cast<uint8_t>(((v >> done) & ((1u << take) - 1)) << shift);
      done += take;
    }
  }
}

int BitWidthOf(uint64_t max_value) { return 64 - std::countl_zero(max_value); }

}  // namespace sqe::parquet
