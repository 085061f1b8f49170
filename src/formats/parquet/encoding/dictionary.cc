#include "formats/parquet/encoding/dictionary.h"

#include <algorithm>

#include "formats/parquet/encoding/bit_packing.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"

namespace sqe::parquet {
namespace {

Status OpenIndices(const uint8_t* data, size_t size, RleBitPackedDecoder* decoder) {
  if (size < 1) return Status::Corruption("parquet dictionary indices: empty page data");
  if (data[0] > 32) {
    return Status::Corruption("parquet dictionary indices: bit width " + std::to_string(data[0]) +
                              " exceeds 32");
  }
  *decoder = RleBitPackedDecoder(data + 1, size - 1, data[0]);
  return Status::OK();
}

Status BadIndex(uint32_t index, int64_t dictionary_size) {
  return Status::Corruption("parquet dictionary index " + std::to_string(index) +
                            " is out of range for a dictionary of " +
                            std::to_string(dictionary_size) + " values");
}

}  // namespace

Status DecodeDictionaryIndexValues(const uint8_t* data, size_t size, int64_t dictionary_size,
                                   int64_t n, uint32_t* out) {
  if (n == 0) return Status::OK();  // all-null pages may omit even the width byte
  RleBitPackedDecoder decoder(nullptr, 0, 0);
  SQE_RETURN_NOT_OK(OpenIndices(data, size, &decoder));
  SQE_RETURN_NOT_OK(decoder.GetBatch(out, n));
  for (int64_t i = 0; i < n; ++i) {
    if (out[i] >= dictionary_size) return BadIndex(out[i], dictionary_size);
  }
  return Status::OK();
}

template <typename T>
Status DecodeDictionaryIndices(const uint8_t* data, size_t size, const T* dictionary,
                               int64_t dictionary_size, int64_t n, T* out) {
  if (n == 0) return Status::OK();  // all-null pages may omit even the width byte
  RleBitPackedDecoder decoder(nullptr, 0, 0);
  SQE_RETURN_NOT_OK(OpenIndices(data, size, &decoder));
  constexpr int64_t kChunk = 1024;
  uint32_t idx[kChunk];
  for (int64_t done = 0; done < n;) {
    int64_t take = std::min(kChunk, n - done);
    SQE_RETURN_NOT_OK(decoder.GetBatch(idx, take));
    // Validate the chunk first so the gather loop stays branch-free.
    uint32_t max_index = 0;
    for (int64_t i = 0; i < take; ++i) max_index = std::max(max_index, idx[i]);
    if (take > 0 && max_index >= dictionary_size) return BadIndex(max_index, dictionary_size);
    for (int64_t i = 0; i < take; ++i) out[done + i] = dictionary[idx[i]];
    done += take;
  }
  return Status::OK();
}

#define SQE_INSTANTIATE_DICT(T)                                                                  \
  template Status DecodeDictionaryIndices<T>(const uint8_t*, size_t, const T*, int64_t, int64_t, \
                                             T*);
SQE_INSTANTIATE_DICT(int32_t)
SQE_INSTANTIATE_DICT(int64_t)
SQE_INSTANTIATE_DICT(float)
SQE_INSTANTIATE_DICT(double)
SQE_INSTANTIATE_DICT(Int96)
SQE_INSTANTIATE_DICT(std::string_view)
#undef SQE_INSTANTIATE_DICT

void EncodeDictionaryIndices(const uint32_t* indices, int64_t n, int64_t dictionary_size,
                             std::string* out) {
  int width = BitWidthOf(dictionary_size > 0 ? static_cast<uint64_t>(dictionary_size - 1) : 0);
  out->push_back(static_cast<char>(width));
  RleBitPackedEncoder encoder(width);
  encoder.PutBatch(indices, n);
  encoder.Finish(out);
}

}  // namespace sqe::parquet
