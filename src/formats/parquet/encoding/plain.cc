#include "formats/parquet/encoding/plain.h"

#include <cstring>

namespace sqe::parquet {
namespace {

Status Overrun(const char* what, int64_t n, size_t size) {
  return Status::Corruption(std::string("parquet PLAIN ") + what + ": " + std::to_string(n) +
                            " values do not fit in " + std::to_string(size) + " bytes");
}

constexpr int64_t kJulianEpochDay = 2440588;  // 1970-01-01
constexpr int64_t kNanosPerDay = 86400LL * 1000000000LL;

}  // namespace

int64_t Int96ToUnixNanos(const Int96& v) {
  uint64_t nanos_of_day = uint64_t{v.value[0]} | (uint64_t{v.value[1]} << 32);
  int64_t days = static_cast<int64_t>(static_cast<int32_t>(v.value[2])) - kJulianEpochDay;
  return static_cast<int64_t>(static_cast<uint64_t>(days) * kNanosPerDay + nanos_of_day);
}

Int96 UnixNanosToInt96(int64_t nanos) {
  int64_t days = nanos / kNanosPerDay;
  int64_t rem = nanos % kNanosPerDay;
  if (rem < 0) {
    rem += kNanosPerDay;
    --days;
  }
  Int96 v;
  v.value[0] = static_cast<uint32_t>(rem);
  v.value[1] = static_cast<uint32_t>(static_cast<uint64_t>(rem) >> 32);
  v.value[2] = static_cast<uint32_t>(days + kJulianEpochDay);
  return v;
}

template <typename T>
Result<size_t> DecodePlain(const uint8_t* data, size_t size, int64_t n, T* out) {
  constexpr size_t kWidth = sizeof(T);
  static_assert(kWidth == 4 || kWidth == 8 || kWidth == 12);
  if (n < 0 || static_cast<uint64_t>(n) > size / kWidth) return Overrun("values", n, size);
  if (n > 0) std::memcpy(out, data, n * kWidth);
  return n * kWidth;
}

template <typename T>
void EncodePlain(const T* values, int64_t n, std::string* out) {
  out->append(reinterpret_cast<const char*>(values), n * sizeof(T));
}

template Result<size_t> DecodePlain<int32_t>(const uint8_t*, size_t, int64_t, int32_t*);
template Result<size_t> DecodePlain<int64_t>(const uint8_t*, size_t, int64_t, int64_t*);
template Result<size_t> DecodePlain<float>(const uint8_t*, size_t, int64_t, float*);
template Result<size_t> DecodePlain<double>(const uint8_t*, size_t, int64_t, double*);
template Result<size_t> DecodePlain<Int96>(const uint8_t*, size_t, int64_t, Int96*);
template void EncodePlain<int32_t>(const int32_t*, int64_t, std::string*);
template void EncodePlain<int64_t>(const int64_t*, int64_t, std::string*);
template void EncodePlain<float>(const float*, int64_t, std::string*);
template void EncodePlain<double>(const double*, int64_t, std::string*);
template void EncodePlain<Int96>(const Int96*, int64_t, std::string*);

Result<size_t> DecodePlainBoolean(const uint8_t* data, size_t size, int64_t n, uint8_t* out) {
  if (n < 0 || static_cast<uint64_t>(n) > size * 8) return Overrun("BOOLEAN", n, size);
  for (int64_t i = 0; i < n; ++i) out[i] = (data[i >> 3] >> (i & 7)) & 1;
  return static_cast<size_t>((n + 7) / 8);
}

void EncodePlainBoolean(const uint8_t* values, int64_t n, std::string* out) {
  size_t start = out->size();
  out->append(static_cast<size_t>((n + 7) / 8), '\0');
  for (int64_t i = 0; i < n; ++i) {
    if (values[i]) (*out)[start + (i >> 3)] |= static_cast<char>(1 << (i & 7));
  }
}

Result<size_t> DecodePlainByteArray(const uint8_t* data, size_t size, int64_t n,
                                    std::string_view* out) {
  size_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (size - pos < 4) return Overrun("BYTE_ARRAY", n, size);
    uint32_t len;
    std::memcpy(&len, data + pos, 4);
    pos += 4;
    if (len > size - pos) {
      return Status::Corruption("parquet PLAIN BYTE_ARRAY: value " + std::to_string(i) +
                                " claims " + std::to_string(len) + " bytes at offset " +
                                std::to_string(pos - 4) + ", only " + std::to_string(size - pos) +
                                " remain");
    }
    out[i] = std::string_view(reinterpret_cast<const char*>(data + pos), len);
    pos += len;
  }
  return pos;
}

void EncodePlainByteArray(const std::string_view* values, int64_t n, std::string* out) {
  for (int64_t i = 0; i < n; ++i) {
    auto len = static_cast<uint32_t>(values[i].size());
    out->append(reinterpret_cast<const char*>(&len), 4);
    out->append(values[i]);
  }
}

Result<size_t> DecodePlainFixedLenByteArray(const uint8_t* data, size_t size, int64_t n,
                                            int32_t width, uint8_t* out) {
  if (width < 0) return Status::Corruption("parquet FIXED_LEN_BYTE_ARRAY: negative width");
  if (n < 0 || (width > 0 && static_cast<uint64_t>(n) > size / width)) {
    return Overrun("FIXED_LEN_BYTE_ARRAY", n, size);
  }
  size_t bytes = static_cast<size_t>(n) * width;
  if (bytes > 0) std::memcpy(out, data, bytes);
  return bytes;
}

void EncodePlainFixedLenByteArray(const uint8_t* values, int64_t n, int32_t width,
                                  std::string* out) {
  out->append(reinterpret_cast<const char*>(values), static_cast<size_t>(n) * width);
}

}  // namespace sqe::parquet
