#include "formats/parquet/encoding/byte_stream_split.h"

namespace sqe::parquet {
namespace {

template <int W>
void Gather(const uint8_t* data, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
#pragma GCC unroll 8
    for (int k = 0; k < W; ++k) out[i * W + k] = data[k * n + i];
  }
}

}  // namespace

Status DecodeByteStreamSplit(const uint8_t* data, size_t size, int64_t n, int32_t width,
                             uint8_t* out) {
  if (width <= 0 || n < 0 || static_cast<uint64_t>(n) > size / width ||
      static_cast<uint64_t>(n) * width != size) {
    return Status::Corruption("parquet BYTE_STREAM_SPLIT: " + std::to_string(n) + " values of " +
                              std::to_string(width) + " bytes do not match a " +
                              std::to_string(size) + "-byte page");
  }
  switch (width) {
    case 4:
      Gather<4>(data, n, out);
      break;
    case 8:
      Gather<8>(data, n, out);
      break;
    default:
      for (int64_t i = 0; i < n; ++i) {
        for (int32_t k = 0; k < width; ++k) out[i * width + k] = data[k * n + i];
      }
  }
  return Status::OK();
}

void EncodeByteStreamSplit(const uint8_t* values, int64_t n, int32_t width, std::string* out) {
  size_t start = out->size();
  out->resize(start + static_cast<size_t>(n) * width);
  auto* dst = reinterpret_cast<uint8_t*>(out->data() + start);
  for (int64_t i = 0; i < n; ++i) {
    for (int32_t k = 0; k < width; ++k) dst[k * n + i] = values[i * width + k];
  }
}

}  // namespace sqe::parquet
