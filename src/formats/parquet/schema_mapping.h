#pragma once
/// Maps between a Parquet schema (the depth-first SchemaElement list of FileMetaData) and
/// our columnar Schema, following LogicalTypes.md including its backward-compatibility
/// rules for LIST (3-level and legacy 2-level forms) and MAP. Iceberg field ids travel in
/// SchemaElement.field_id <-> Field::field_id.
///
/// Reading also yields one ColumnDescriptor per leaf column (file order, matching
/// RowGroup.columns): its path, max definition/repetition levels, physical type, and the
/// value conversion the column reader must apply (e.g. millis -> micros). Stateless.

#include <cstdint>
#include <string>
#include <vector>

#include "columnar/schema.h"
#include "common/result.h"
#include "formats/parquet/metadata.h"

namespace sqe::parquet {

/// How a leaf's physical values become the columnar type's values.
enum class LeafConversion : uint8_t {
  kNone,         // same representation (int32, int64, float, double, bytes)
  kBoolean,      // bit-packed / RLE booleans
  kInt32ToInt8,  // narrowing of INT(8)/INT(16) annotated INT32
  kInt32ToInt16,
  kUint32ToWider,     // UINT_8/16/32 zero-extended into the next signed width
  kMillisToMicros,    // TIME(MILLIS) int32 and TIMESTAMP(MILLIS) int64, times 1000
  kInt96ToNanos,      // legacy INT96 timestamps
  kDecimalFromInt32,  // unscaled int32 -> 128-bit
  kDecimalFromInt64,  // unscaled int64 -> 128-bit
  kDecimalFromBytes,  // big-endian two's complement (BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY)
  kFloat16ToFloat32,  // FLOAT16 on FIXED_LEN_BYTE_ARRAY(2)
};

/// One leaf column of the file.
struct ColumnDescriptor {
  std::vector<std::string> path;  // as in ColumnMetaData.path_in_schema
  int schema_index = 0;           // index of the leaf in FileMetaData.schema
  PhysicalType physical_type = PhysicalType::kBoolean;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  columnar::TypePtr type;  // the leaf's columnar type
  LeafConversion conversion = LeafConversion::kNone;
  std::optional<int32_t> field_id;
};

/// A file schema as SQE sees it.
struct ParquetSchema {
  columnar::SchemaPtr schema;
  std::vector<ColumnDescriptor> columns;
};

/// A leaf path as text: "a.list.element" (error messages, tools).
std::string JoinPath(const std::vector<std::string>& path);

/// Builds the columnar schema and the leaf descriptors. Corruption for a malformed tree
/// (bad child counts, leaves without a type), NotImplemented for types we do not map
/// (UINT_64, decimals wider than 38 digits, INTERVAL, ...).
Result<ParquetSchema> FromParquetSchema(const std::vector<SchemaElement>& elements);

/// The SchemaElement list for writing `schema` (root named "schema"); lists use the
/// 3-level form with "list"/"element", maps "key_value"/"key"/"value", and both the
/// logical and the converted type are set where the spec asks for it.
Result<std::vector<SchemaElement>> ToParquetSchema(const columnar::Schema& schema);

}  // namespace sqe::parquet
