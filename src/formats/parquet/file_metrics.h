#pragma once
/// FileMetrics: what Iceberg records about a data file in its manifest entry (spec.md,
/// "Manifests": file_size_in_bytes, record_count, split_offsets and the per-column
/// maps), as ParquetWriter::Close reports it. Plain value types.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sqe::parquet {

/// Metrics of one leaf column that carries an Iceberg field id.
struct ColumnMetrics {
  int32_t field_id = 0;
  /// Compressed bytes of the column's chunks (pages and their headers).
  int64_t column_size = 0;
  /// Values including nulls (Parquet num_values: level entries for nested columns).
  int64_t value_count = 0;
  int64_t null_count = 0;
  /// NaN values; set for float and double columns only.
  std::optional<int64_t> nan_count;
  /// Iceberg single-value binary serialization (spec.md Appendix D). Only for leaves
  /// outside lists and maps. Strings are truncated to 16 code points and binary values
  /// to 16 bytes (Iceberg's default `truncate(16)` metrics mode); a truncated upper bound
  /// is rounded up, or omitted when it cannot be.
  std::optional<std::string> lower_bound;
  std::optional<std::string> upper_bound;
};

struct FileMetrics {
  int64_t file_size = 0;
  int64_t record_count = 0;
  /// File offset of each row group's first page.
  std::vector<int64_t> split_offsets;
  /// Leaf columns with field ids, in file (depth-first) order.
  std::vector<ColumnMetrics> columns;
};

}  // namespace sqe::parquet
