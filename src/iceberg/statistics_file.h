#pragma once
/// Table and partition statistics files registered in table metadata (spec "Table
/// Statistics", "Partition Statistics"): Puffin files with blob metadata, and partition
/// statistics files. Informational; value types.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sqe::iceberg {

/// One blob of a Puffin statistics file.
struct BlobMetadata {
  std::string type;
  int64_t snapshot_id = 0;
  int64_t sequence_number = 0;
  std::vector<int32_t> fields;
  std::map<std::string, std::string> properties;
  std::string extra_json;

  bool operator==(const BlobMetadata&) const = default;
};

/// An entry of the metadata's "statistics" list.
struct StatisticsFile {
  int64_t snapshot_id = 0;
  std::string statistics_path;
  int64_t file_size_in_bytes = 0;
  int64_t file_footer_size_in_bytes = 0;
  std::optional<std::string> key_metadata;  // base64, as stored
  std::vector<BlobMetadata> blob_metadata;
  std::string extra_json;

  bool operator==(const StatisticsFile&) const = default;
};

/// An entry of the metadata's "partition-statistics" list.
struct PartitionStatisticsFile {
  int64_t snapshot_id = 0;
  std::string statistics_path;
  int64_t file_size_in_bytes = 0;
  std::string extra_json;

  bool operator==(const PartitionStatisticsFile&) const = default;
};

}  // namespace sqe::iceberg
