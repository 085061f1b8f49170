#pragma once
/// Options of the Parquet writer (file_writer.h). A plain value type.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "formats/parquet/compression.h"
#include "formats/parquet/parquet_types.h"

namespace sqe::parquet {

enum class DataPageVersion : uint8_t { kV1 = 1, kV2 = 2 };

struct WriterOptions {
  /// ZSTD, SNAPPY, GZIP, LZ4_RAW (kLz4 is written as LZ4_RAW too), BROTLI or
  /// UNCOMPRESSED.
  CompressionCodec codec = CompressionCodec::kZstd;
  int compression_level = kDefaultCompressionLevel;
  /// A row group is closed once its estimated encoded size or its row count reaches
  /// these targets (whichever comes first; <= 0 disables a target).
  int64_t row_group_bytes = int64_t{128} << 20;
  int64_t row_group_rows = 1 << 20;
  /// A data page is closed at a row boundary once its estimated size reaches this.
  int64_t data_page_bytes = int64_t{1} << 20;
  /// ... or once it holds this many level entries.
  int64_t data_page_values = 20000;
  DataPageVersion page_version = DataPageVersion::kV1;
  /// Dictionary-encode columns (all but boolean); a column falls back to PLAIN for the
  /// rest of its chunk once its dictionary's PLAIN size exceeds dictionary_page_bytes.
  bool dictionary = true;
  int64_t dictionary_page_bytes = int64_t{1} << 20;
  /// ColumnIndex + OffsetIndex before the footer.
  bool write_page_index = true;
  /// Written to FileMetaData.key_value_metadata, in this order.
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
};

}  // namespace sqe::parquet
