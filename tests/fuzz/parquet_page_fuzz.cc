// Fuzz target: the Parquet page decoder. FuzzDecodeColumnChunk (column_chunk_reader.h)
// reads an 8-byte prefix choosing the leaf's physical type, conversion, nesting, codec
// and value count, decodes the rest as a column chunk (page headers, codecs, levels,
// every encoding, dictionaries, row-range filtering) and assembles the column. Anything
// but a Status is a bug.
#include <string>
#include <vector>

#include "formats/parquet/column_chunk_reader.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/encoding/delta.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"
#include "formats/parquet/metadata.h"
#include "fuzz_target.h"
#include "parquet_seed_pages.h"

using namespace sqe;
using namespace sqe::parquet;
using namespace sqe::parquet::fuzz_seeds;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)FuzzDecodeColumnChunk(data, size);
  return 0;
}

namespace {

std::string Prefix(uint8_t shape, uint8_t codec, uint16_t n, uint8_t nesting, uint8_t flags) {
  std::string p(8, '\0');
  p[0] = static_cast<char>(shape);
  p[1] = static_cast<char>(codec);
  p[2] = static_cast<char>(n & 0xff);
  p[3] = static_cast<char>(n >> 8);
  p[4] = static_cast<char>(nesting);
  p[5] = static_cast<char>(flags);
  return p;
}

}  // namespace

std::vector<std::string> SqeFuzzSeeds() {
  std::vector<std::string> seeds;
  const std::vector<int32_t> ints = {1, -2, 3, 400000, 5};
  std::string plain;
  EncodePlain(ints.data(), 5, &plain);
  // Optional int32, PLAIN, uncompressed and snappy.
  seeds.push_back(Prefix(1, 0, 6, 1, 0) + Page(PageType::kDataPage, 6, Encoding::kPlain,
                                               Levels({1, 1, 0, 1, 1, 1}, 1) + plain));
  seeds.push_back(Prefix(1, 1, 6, 1, 1) + Page(PageType::kDataPage, 6, Encoding::kPlain,
                                               Levels({1, 1, 0, 1, 1, 1}, 1) + plain,
                                               CompressionCodec::kSnappy));
  // Strings: dictionary page + RLE_DICTIONARY data page.
  std::vector<std::string_view> dict = {"a", "bb", "ccc"};
  std::string dict_body;
  EncodePlainByteArray(dict.data(), 3, &dict_body);
  std::vector<uint32_t> idx = {2, 0, 1, 1};
  std::string idx_body;
  EncodeDictionaryIndices(idx.data(), 4, 3, &idx_body);
  seeds.push_back(
      Prefix(6, 0, 4, 1, 0) + Page(PageType::kDictionaryPage, 3, Encoding::kPlain, dict_body) +
      Page(PageType::kDataPage, 4, Encoding::kRleDictionary, Levels({1, 1, 1, 1}, 1) + idx_body));
  // Int64 DELTA_BINARY_PACKED, required.
  const std::vector<int64_t> longs = {10, 11, 13, 100, -5, 7};
  std::string delta;
  EncodeDeltaBinaryPacked(longs.data(), 6, &delta);
  seeds.push_back(Prefix(2, 0, 6, 0, 0) +
                  Page(PageType::kDataPage, 6, Encoding::kDeltaBinaryPacked, delta));
  // Optional list<optional int32>: rows [1, 2], [], null, [3, null].
  seeds.push_back(Prefix(1, 5, 6, 3, 1) +
                  Page(PageType::kDataPage, 6, Encoding::kPlain,
                       Levels({0, 1, 0, 0, 0, 1}, 1) + Levels({3, 3, 1, 0, 3, 2}, 2) +
                           std::string(plain.data(), 12),
                       CompressionCodec::kZstd));
  // Strings DELTA_BYTE_ARRAY, required.
  std::vector<std::string_view> words = {"apple", "applesauce", "apply", "banana"};
  std::string dba;
  EncodeDeltaByteArray(words.data(), 4, &dba);
  seeds.push_back(Prefix(6, 0, 4, 0, 0) +
                  Page(PageType::kDataPage, 4, Encoding::kDeltaByteArray, dba));
  return seeds;
}
