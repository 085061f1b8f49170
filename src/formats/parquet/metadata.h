#pragma once
/// The Parquet footer and page structures (parquet.thrift) as plain C++ structs, with
/// Decode from and Encode to the Thrift compact protocol using the spec's field ids.
/// Optional thrift fields are std::optional (or an empty vector where absence and
/// emptiness mean the same); unknown fields are skipped on decode, so newer files read.
/// Decode reports malformed input (truncation, wrong wire types, missing required
/// fields) as Status::Corruption with the byte offset.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "formats/parquet/parquet_types.h"
#include "formats/parquet/thrift_compact.h"

namespace sqe::parquet {

struct Statistics {
  std::optional<std::string> max;  // deprecated signed-order bounds
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
  bool operator==(const Statistics&) const = default;
};

enum class LogicalTimeUnit : uint8_t { kMillis, kMicros, kNanos };

/// The LogicalType union. `kind` says which member is set; the payload fields below
/// belong to decimal (scale, precision), time/timestamp (is_adjusted_to_utc, unit) and
/// integer (bit_width, is_signed). Members we only recognise (variant, geometry,
/// geography) decode to their kind with no payload; an unknown member is kUnrecognized.
struct LogicalType {
  enum class Kind : uint8_t {
    kString = 1,
    kMap = 2,
    kList = 3,
    kEnum = 4,
    kDecimal = 5,
    kDate = 6,
    kTime = 7,
    kTimestamp = 8,
    kInteger = 10,
    kUnknown = 11,  // always-null column
    kJson = 12,
    kBson = 13,
    kUuid = 14,
    kFloat16 = 15,
    kVariant = 16,
    kGeometry = 17,
    kGeography = 18,
    kUnrecognized = 255,
  };
  Kind kind = Kind::kUnrecognized;
  int32_t scale = 0;
  int32_t precision = 0;
  bool is_adjusted_to_utc = false;
  LogicalTimeUnit unit = LogicalTimeUnit::kMillis;
  int8_t bit_width = 0;
  bool is_signed = true;

  static LogicalType Of(Kind kind) {
    LogicalType t;
    t.kind = kind;
    return t;
  }
  static LogicalType Decimal(int32_t precision, int32_t scale);
  static LogicalType Time(bool utc, LogicalTimeUnit unit);
  static LogicalType Timestamp(bool utc, LogicalTimeUnit unit);
  static LogicalType Integer(int8_t bit_width, bool is_signed);
  bool operator==(const LogicalType&) const = default;
};

/// One node of the depth-first flattened schema tree. Groups have num_children; leaves
/// have a physical type.
struct SchemaElement {
  std::optional<PhysicalType> type;
  std::optional<int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;
  bool operator==(const SchemaElement&) const = default;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const KeyValue&) const = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  bool operator==(const SortingColumn&) const = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  int32_t count = 0;
  bool operator==(const PageEncodingStats&) const = default;
};

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;
  bool operator==(const SizeStatistics&) const = default;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::vector<PageEncodingStats> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  bool operator==(const ColumnMetaData&) const = default;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  /// Column encryption is not supported; its presence is recorded so readers can refuse.
  bool has_crypto_metadata = false;
  std::optional<std::string> encrypted_column_metadata;
  bool operator==(const ColumnChunk&) const = default;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::vector<SortingColumn> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

/// The ColumnOrder union member (1 TYPE_ORDER, 2 IEEE_754_TOTAL_ORDER,
/// 3 INT96_TIMESTAMP_ORDER); kUnknown means statistics must be ignored.
enum class ColumnOrder : uint8_t {
  kUnknown = 0,
  kTypeDefined = 1,
  kIeee754TotalOrder = 2,
  kInt96Timestamp = 3,
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  std::vector<ColumnOrder> column_orders;
  /// Plaintext-footer encryption is not supported; presence is recorded.
  bool has_encryption_algorithm = false;
  std::optional<std::string> footer_signing_key_metadata;
  bool operator==(const FileMetaData&) const = default;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

struct IndexPageHeader {
  bool operator==(const IndexPageHeader&) const = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;  // the spec's default when absent
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeaderV2&) const = default;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::vector<int64_t> unencoded_byte_array_data_bytes;
  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::optional<std::vector<int64_t>> null_counts;  // absent != all zero
  std::vector<int64_t> repetition_level_histograms;
  std::vector<int64_t> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
  bool operator==(const ColumnIndex&) const = default;
};

/// The header before each Bloom filter bitset. The algorithm, hash and compression
/// unions each have a single member today (split-block, xxHash64, uncompressed); a value
/// of 0 records an unrecognised member.
struct BloomFilterHeader {
  int32_t num_bytes = 0;
  int32_t algorithm = 1;    // 1 = BLOCK
  int32_t hash = 1;         // 1 = XXHASH
  int32_t compression = 1;  // 1 = UNCOMPRESSED
  bool operator==(const BloomFilterHeader&) const = default;
};

// Decode one struct at the reader's position / Encode one struct to the writer.
#define SQE_PARQUET_THRIFT_STRUCT(T)            \
  Status Decode(CompactReader& reader, T* out); \
  void Encode(const T& value, CompactWriter& writer);
SQE_PARQUET_THRIFT_STRUCT(Statistics)
SQE_PARQUET_THRIFT_STRUCT(LogicalType)
SQE_PARQUET_THRIFT_STRUCT(SchemaElement)
SQE_PARQUET_THRIFT_STRUCT(KeyValue)
SQE_PARQUET_THRIFT_STRUCT(SortingColumn)
SQE_PARQUET_THRIFT_STRUCT(PageEncodingStats)
SQE_PARQUET_THRIFT_STRUCT(SizeStatistics)
SQE_PARQUET_THRIFT_STRUCT(ColumnMetaData)
SQE_PARQUET_THRIFT_STRUCT(ColumnChunk)
SQE_PARQUET_THRIFT_STRUCT(RowGroup)
SQE_PARQUET_THRIFT_STRUCT(FileMetaData)
SQE_PARQUET_THRIFT_STRUCT(DataPageHeader)
SQE_PARQUET_THRIFT_STRUCT(IndexPageHeader)
SQE_PARQUET_THRIFT_STRUCT(DictionaryPageHeader)
SQE_PARQUET_THRIFT_STRUCT(DataPageHeaderV2)
SQE_PARQUET_THRIFT_STRUCT(PageHeader)
SQE_PARQUET_THRIFT_STRUCT(PageLocation)
SQE_PARQUET_THRIFT_STRUCT(OffsetIndex)
SQE_PARQUET_THRIFT_STRUCT(ColumnIndex)
SQE_PARQUET_THRIFT_STRUCT(BloomFilterHeader)
#undef SQE_PARQUET_THRIFT_STRUCT

/// Decodes one T from the start of `bytes`. `*consumed` (if given) receives the encoded
/// size: page headers are followed by page data. `base_offset` locates `bytes` in the file
/// for error messages.
template <typename T>
Result<T> DecodeThrift(std::string_view bytes, uint64_t base_offset = 0,
                       size_t* consumed = nullptr) {
  CompactReader reader(bytes, base_offset);
  T value;
  SQE_RETURN_NOT_OK(Decode(reader, &value));
  if (consumed != nullptr) *consumed = reader.position();
  return value;
}

/// Encodes `value` as one compact-protocol struct.
template <typename T>
std::string EncodeThrift(const T& value) {
  CompactWriter writer;
  Encode(value, writer);
  return writer.Release();
}

}  // namespace sqe::parquet
