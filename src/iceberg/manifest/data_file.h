#pragma once
/// The in-memory model of Iceberg manifests (table spec "Manifests", "Manifest Lists"):
/// DataFile (the `data_file` struct: a data or delete file with its partition tuple and
/// column metrics), ManifestEntry (one row of a manifest) and ManifestFile (one row of a
/// manifest list, with per-partition-field summaries). Plain value types; not
/// synchronised.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "iceberg/literal.h"

namespace sqe::iceberg {

/// `data_file.content` (field 134).
enum class FileContent : int32_t {
  kData = 0,
  kPositionDeletes = 1,
  kEqualityDeletes = 2,
};

/// `data_file.file_format` (field 101).
enum class FileFormat : uint8_t {
  kParquet,
  kAvro,
  kOrc,
  kPuffin,
};

/// The upper-case name Java and PyIceberg write ("PARQUET").
std::string_view FileFormatName(FileFormat format);
/// Case-insensitive; InvalidArgument for an unknown name.
Result<FileFormat> ParseFileFormat(std::string_view name);

/// A data or delete file as a manifest describes it. Maps are keyed by table field id;
/// bounds hold raw Appendix D bytes (single_value.h). Empty maps and lists are written
/// as null.
struct DataFile {
  FileContent content = FileContent::kData;
  std::string file_path;
  FileFormat file_format = FileFormat::kParquet;
  /// One value per partition spec field, in spec order; nullopt is a null value.
  std::vector<std::optional<Literal>> partition;
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  std::map<int32_t, int64_t> column_sizes;
  std::map<int32_t, int64_t> value_counts;
  std::map<int32_t, int64_t> null_value_counts;
  std::map<int32_t, int64_t> nan_value_counts;
  std::map<int32_t, std::string> lower_bounds;
  std::map<int32_t, std::string> upper_bounds;
  std::optional<std::string> key_metadata;
  std::vector<int64_t> split_offsets;
  std::vector<int32_t> equality_ids;
  std::optional<int32_t> sort_order_id;
  /// v3 row lineage: the _row_id of the first row (inherited when null).
  std::optional<int64_t> first_row_id;
  /// v2+: the data file every delete in this file refers to.
  std::optional<std::string> referenced_data_file;
  /// v3 deletion vectors: where the vector lies inside a Puffin file.
  std::optional<int64_t> content_offset;
  std::optional<int64_t> content_size_in_bytes;

  bool operator==(const DataFile&) const = default;
};

/// `manifest_entry.status` (field 0).
enum class ManifestStatus : int32_t {
  kExisting = 0,
  kAdded = 1,
  kDeleted = 2,
};

/// One row of a manifest. A null snapshot id or sequence number in a file means
/// "inherit from the manifest list entry"; the reader fills them in (manifest_reader.h).
struct ManifestEntry {
  ManifestStatus status = ManifestStatus::kAdded;
  std::optional<int64_t> snapshot_id;
  /// The data sequence number (field 3).
  std::optional<int64_t> sequence_number;
  /// The file sequence number (field 4).
  std::optional<int64_t> file_sequence_number;
  DataFile data_file;

  bool operator==(const ManifestEntry&) const = default;
};

/// `manifest_file.content` (field 517).
enum class ManifestContent : int32_t {
  kData = 0,
  kDeletes = 1,
};

/// `field_summary` (field 508): the values one partition field takes in a manifest.
/// Bounds are Appendix D bytes of the partition field's type.
struct PartitionFieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;
  std::optional<std::string> upper_bound;

  bool operator==(const PartitionFieldSummary&) const = default;
};

/// A sequence number not assigned yet: a new manifest takes the snapshot's number when
/// the manifest list is written.
inline constexpr int64_t kUnassignedSequenceNumber = -1;

/// One row of a manifest list.
struct ManifestFile {
  std::string manifest_path;
  int64_t manifest_length = 0;
  int32_t partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  /// 0 when read from a v1 list; kUnassignedSequenceNumber for a manifest not yet listed.
  int64_t sequence_number = 0;
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = 0;
  /// Optional in v1 (null means "unknown, assume non-zero").
  std::optional<int32_t> added_files_count;
  std::optional<int32_t> existing_files_count;
  std::optional<int32_t> deleted_files_count;
  std::optional<int64_t> added_rows_count;
  std::optional<int64_t> existing_rows_count;
  std::optional<int64_t> deleted_rows_count;
  /// One summary per partition spec field, in spec order (empty = not written).
  std::vector<PartitionFieldSummary> partitions;
  std::optional<std::string> key_metadata;
  /// v3: the first _row_id assigned to rows of ADDED data files in the manifest.
  std::optional<int64_t> first_row_id;

  bool operator==(const ManifestFile&) const = default;
};

}  // namespace sqe::iceberg
