// FuzzDecodeColumnChunk: a fixed table of leaf shapes in front of the column chunk reader
// and record assembly, so one byte string exercises every decoder.
#include <cstring>

#include "columnar/data_type.h"
#include "formats/parquet/column_chunk_reader.h"
#include "formats/parquet/record_assembly.h"

namespace sqe::parquet {
namespace {

struct LeafShape {
  PhysicalType physical;
  int32_t type_length;
  columnar::TypePtr (*type)();
  LeafConversion conversion;
};

const LeafShape kShapes[] = {
    {PhysicalType::kBoolean, 0, columnar::Boolean, LeafConversion::kBoolean},
    {PhysicalType::kInt32, 0, columnar::Int32, LeafConversion::kNone},
    {PhysicalType::kInt64, 0, columnar::Int64, LeafConversion::kNone},
    {PhysicalType::kInt96, 0, [] { return columnar::TimestampTz(columnar::TimeUnit::kNano); },
     LeafConversion::kInt96ToNanos},
    {PhysicalType::kFloat, 0, columnar::Float32, LeafConversion::kNone},
    {PhysicalType::kDouble, 0, columnar::Float64, LeafConversion::kNone},
    {PhysicalType::kByteArray, 0, columnar::String, LeafConversion::kNone},
    {PhysicalType::kFixedLenByteArray, 16, columnar::Uuid, LeafConversion::kNone},
    {PhysicalType::kInt32, 0, columnar::Int8, LeafConversion::kInt32ToInt8},
    {PhysicalType::kInt32, 0, columnar::Int16, LeafConversion::kUint32ToWider},
    {PhysicalType::kInt64, 0, [] { return columnar::Timestamp(); },
     LeafConversion::kMillisToMicros},
    {PhysicalType::kInt32, 0, [] { return columnar::Decimal(9, 2); },
     LeafConversion::kDecimalFromInt32},
    {PhysicalType::kFixedLenByteArray, 5, [] { return columnar::Decimal(10, 2); },
     LeafConversion::kDecimalFromBytes},
    {PhysicalType::kByteArray, 0, [] { return columnar::Decimal(20, 2); },
     LeafConversion::kDecimalFromBytes},
    {PhysicalType::kFixedLenByteArray, 2, columnar::Float32, LeafConversion::kFloat16ToFloat32},
};

}  // namespace

Status FuzzDecodeColumnChunk(const uint8_t* data, size_t size) {
  constexpr size_t kPrefix = 8;
  if (size < kPrefix) return Status::InvalidArgument("fuzz input shorter than its 8-byte prefix");
  const LeafShape& shape = kShapes[data[0] % (sizeof(kShapes) / sizeof(kShapes[0]))];
  static constexpr CompressionCodec kCodecs[] = {
      CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kGzip,
      CompressionCodec::kBrotli,       CompressionCodec::kLz4,    CompressionCodec::kZstd,
      CompressionCodec::kLz4Raw};
  const CompressionCodec codec = kCodecs[data[1] % 7];
  const int64_t num_values = data[2] | (int64_t{data[3]} << 8);
  const int nesting = data[4] % 5;
  const bool with_ranges = (data[5] & 1) != 0;

  columnar::TypePtr leaf_type = shape.type();
  // (max def, max rep) and the field tree for each nesting shape.
  static constexpr int16_t kDef[] = {0, 1, 2, 3, 1};
  static constexpr int16_t kRep[] = {0, 0, 0, 1, 1};
  columnar::Field field("v", leaf_type, nesting != 0);
  switch (nesting) {
    case 2:
      field = columnar::Field("s", columnar::Struct({columnar::Field("v", leaf_type, true)}), true);
      break;
    case 3:
      field = columnar::Field("l", columnar::List(leaf_type, true), true);
      break;
    case 4:
      field = columnar::Field("l", columnar::List(leaf_type, false), false);
      break;
    default:
      break;
  }
  ColumnDescriptor d;
  d.path = {"v"};
  d.physical_type = shape.physical;
  d.type_length = shape.type_length;
  d.max_definition_level = kDef[nesting];
  d.max_repetition_level = kRep[nesting];
  d.type = leaf_type;
  d.conversion = shape.conversion;

  ColumnChunk chunk;
  ColumnMetaData& meta = chunk.meta_data.emplace();
  meta.type = shape.physical;
  meta.codec = codec;
  meta.path_in_schema = d.path;
  meta.num_values = num_values;
  meta.total_compressed_size = static_cast<int64_t>(size - kPrefix);
  meta.total_uncompressed_size = int64_t{1} << 20;
  meta.data_page_offset = 0;
  SQE_ASSIGN_OR_RETURN(auto bytes,
                       columnar::Buffer::CopyOf(std::string_view(
                           reinterpret_cast<const char*>(data) + kPrefix, size - kPrefix)));
  ColumnChunkReadOptions options;
  options.file_path = "fuzz";
  options.max_page_values = int64_t{1} << 16;
  options.max_page_size = int64_t{1} << 20;
  RowRanges ranges = RowRanges::FromRanges({{1, 3}, {5, 1000}});
  SQE_ASSIGN_OR_RETURN(LeafData leaf,
                       ReadColumnChunk(d, chunk, bytes, options, with_ranges ? &ranges : nullptr));
  const ColumnDescriptor* descriptors[] = {&d};
  SQE_ASSIGN_OR_RETURN(
      columnar::Column column,
      AssembleColumn(field, descriptors, std::span<const LeafData>(&leaf, 1), leaf.num_rows));
  return column.ValidateFull();
}

}  // namespace sqe::parquet
