#pragma once
/// The Avro schemas of Iceberg manifests (`manifest_entry`) and manifest lists
/// (`manifest_file`) for format versions 1, 2 and 3, with the spec's field names and
/// field ids, named the way Java Iceberg names them (r2 = data_file, r102 = partition,
/// k117_v118 = a map entry, r508 = field_summary). Also the "read" schemas: the union of
/// every version's fields, optional or defaulted where an older version lacks them, that
/// readers resolve any version's file against by field id. And the Avro form of
/// partition values (table spec, Appendix A). Pure functions, thread-safe.

#include <cstdint>
#include <optional>

#include "common/result.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"
#include "iceberg/literal.h"
#include "iceberg/types.h"

namespace sqe::iceberg {

/// Field ids of `manifest_entry` and `data_file` (spec "Manifests").
namespace entry_field {
inline constexpr int32_t kStatus = 0;
inline constexpr int32_t kSnapshotId = 1;
inline constexpr int32_t kDataFile = 2;
inline constexpr int32_t kSequenceNumber = 3;
inline constexpr int32_t kFileSequenceNumber = 4;
inline constexpr int32_t kFilePath = 100;
inline constexpr int32_t kFileFormat = 101;
inline constexpr int32_t kPartition = 102;
inline constexpr int32_t kRecordCount = 103;
inline constexpr int32_t kFileSizeInBytes = 104;
inline constexpr int32_t kBlockSizeInBytes = 105;  // v1 only, deprecated
inline constexpr int32_t kColumnSizes = 108;
inline constexpr int32_t kValueCounts = 109;
inline constexpr int32_t kNullValueCounts = 110;
inline constexpr int32_t kLowerBounds = 125;
inline constexpr int32_t kUpperBounds = 128;
inline constexpr int32_t kKeyMetadata = 131;
inline constexpr int32_t kSplitOffsets = 132;
inline constexpr int32_t kSplitOffsetsElement = 133;
inline constexpr int32_t kContent = 134;
inline constexpr int32_t kEqualityIds = 135;
inline constexpr int32_t kEqualityIdsElement = 136;
inline constexpr int32_t kNanValueCounts = 137;
inline constexpr int32_t kSortOrderId = 140;
inline constexpr int32_t kFirstRowId = 142;
inline constexpr int32_t kReferencedDataFile = 143;
inline constexpr int32_t kContentOffset = 144;
inline constexpr int32_t kContentSizeInBytes = 145;
}  // namespace entry_field

/// Field ids of `manifest_file` and `field_summary` (spec "Manifest Lists").
namespace list_field {
inline constexpr int32_t kManifestPath = 500;
inline constexpr int32_t kManifestLength = 501;
inline constexpr int32_t kPartitionSpecId = 502;
inline constexpr int32_t kAddedSnapshotId = 503;
inline constexpr int32_t kAddedFilesCount = 504;
inline constexpr int32_t kExistingFilesCount = 505;
inline constexpr int32_t kDeletedFilesCount = 506;
inline constexpr int32_t kPartitions = 507;
inline constexpr int32_t kPartitionsElement = 508;
inline constexpr int32_t kContainsNull = 509;
inline constexpr int32_t kLowerBound = 510;
inline constexpr int32_t kUpperBound = 511;
inline constexpr int32_t kAddedRowsCount = 512;
inline constexpr int32_t kExistingRowsCount = 513;
inline constexpr int32_t kDeletedRowsCount = 514;
inline constexpr int32_t kSequenceNumber = 515;
inline constexpr int32_t kMinSequenceNumber = 516;
inline constexpr int32_t kContent = 517;
inline constexpr int32_t kContainsNan = 518;
inline constexpr int32_t kKeyMetadata = 519;
inline constexpr int32_t kFirstRowId = 520;
}  // namespace list_field

/// The `manifest_entry` schema a writer of `format_version` (1..3) uses, with the
/// partition record built from `partition_type` (PartitionSpec::PartitionType).
/// InvalidArgument for another version or a partition type with no Avro form.
Result<avro::SchemaPtr> ManifestEntrySchema(int format_version, const Type& partition_type);
/// The superset schema every version's manifest is read as.
Result<avro::SchemaPtr> ManifestEntryReadSchema(const Type& partition_type);

/// The `manifest_file` schema of a manifest list of `format_version` (1..3).
Result<avro::SchemaPtr> ManifestFileSchema(int format_version);
/// The superset schema every version's manifest list is read as (v1 lists get content
/// 0 and sequence numbers 0).
Result<avro::SchemaPtr> ManifestFileReadSchema();

/// The Avro form of a partition value of `type` (nullopt or a null literal -> null).
Result<avro::Value> PartitionValueToAvro(const std::optional<Literal>& value, const Type& type);
/// A partition value decoded from Avro (already resolved to the read schema's type).
/// Corruption when the datum does not fit `type`.
Result<std::optional<Literal>> PartitionValueFromAvro(const avro::Value& value, const Type& type);

}  // namespace sqe::iceberg
