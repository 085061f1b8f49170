#pragma once
/// Builders for the seed inputs of the Parquet fuzz targets: a v1 level section and a
/// data or dictionary page (header + optionally compressed body), from our own encoders.
/// Header-only and test-only.

#include <cstdint>
#include <string>
#include <vector>

#include "formats/parquet/compression.h"
#include "formats/parquet/encoding/rle.h"
#include "formats/parquet/metadata.h"

namespace sqe::parquet::fuzz_seeds {

/// A v1 level section: 4-byte length prefix + RLE/bit-packed levels.
inline std::string Levels(const std::vector<uint32_t>& levels, int bit_width) {
  RleBitPackedEncoder enc(bit_width);
  enc.PutBatch(levels.data(), static_cast<int64_t>(levels.size()));
  std::string body;
  enc.Finish(&body);
  uint32_t len = static_cast<uint32_t>(body.size());
  return std::string(reinterpret_cast<const char*>(&len), 4) + body;
}

/// A page of `n` values: PageHeader + body, compressed with `codec` when it can be.
inline std::string Page(PageType type, int32_t n, Encoding e, const std::string& body,
                        CompressionCodec codec = CompressionCodec::kUncompressed) {
  PageHeader h;
  h.type = type;
  if (type == PageType::kDictionaryPage) {
    h.dictionary_page_header.emplace();
    h.dictionary_page_header->num_values = n;
  } else {
    h.data_page_header.emplace();
    h.data_page_header->num_values = n;
    h.data_page_header->encoding = e;
  }
  std::string stored = body;
  if (codec != CompressionCodec::kUncompressed) {
    auto packed = Compress(codec, body);
    if (packed.ok()) stored = *packed;
  }
  h.uncompressed_page_size = static_cast<int32_t>(body.size());
  h.compressed_page_size = static_cast<int32_t>(stored.size());
  return EncodeThrift(h) + stored;
}

}  // namespace sqe::parquet::fuzz_seeds
