#include "engine/distinct_bounds.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>

#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/scan/scan_planner.h"

namespace sqe::engine {

namespace {

/// The running [min, max] of one integer-like column over the files seen; unknown once a
/// file lacks either bound.
struct IntegerRange {
  bool known = true;
  int64_t min = std::numeric_limits<int64_t>::max();
  int64_t max = std::numeric_limits<int64_t>::min();
};

bool IntegerLike(iceberg::TypeId id) {
  return id == iceberg::TypeId::kInt || id == iceberg::TypeId::kLong ||
         id == iceberg::TypeId::kDate;
}

}  // namespace

Result<std::vector<int64_t>> DistinctValueBounds(const iceberg::TableMetadata& metadata,
                                                 const iceberg::Snapshot& snapshot,
                                                 const iceberg::Schema& schema,
                                                 io::FileSystem& fs) {
  const std::vector<iceberg::NestedField>& fields = schema.fields();
  std::vector<int64_t> bounds(fields.size(), -1);
  auto total = snapshot.summary.find("total-records");
  const int64_t rows = total == snapshot.summary.end() ? -1 : std::atoll(total->second.c_str());
  if (rows >= 0) std::fill(bounds.begin(), bounds.end(), std::max<int64_t>(rows, 1));

  iceberg::FileManifestSource source(fs);
  SQE_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestFile> manifests,
                       source.ReadManifestList(snapshot));
  if (manifests.size() > kDistinctBoundMaxManifests) return bounds;
  std::vector<IntegerRange> ranges(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    ranges[i].known = fields[i].type != nullptr && IntegerLike(fields[i].type->id());
  }
  for (const iceberg::ManifestFile& manifest : manifests) {
    if (manifest.content != iceberg::ManifestContent::kData) continue;
    const iceberg::PartitionSpec* spec = metadata.SpecById(manifest.partition_spec_id);
    if (spec == nullptr) return bounds;
    SQE_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestEntry> entries,
                         source.ReadEntries(manifest, *spec, schema));
    for (const iceberg::ManifestEntry& entry : entries) {
      if (entry.status == iceberg::ManifestStatus::kDeleted) continue;
      iceberg::expr::FileStats stats = iceberg::DataFileStats(entry.data_file, schema);
      for (size_t i = 0; i < fields.size(); ++i) {
        IntegerRange& range = ranges[i];
        if (!range.known) continue;
        auto lo = stats.lower_bounds.find(fields[i].id);
        auto hi = stats.upper_bounds.find(fields[i].id);
        if (lo == stats.lower_bounds.end() || hi == stats.upper_bounds.end() ||
            lo->second.is_null() || hi->second.is_null()) {
          // A file of only NULLs adds no values; any other file without bounds is unknown.
          auto nulls = stats.null_counts.find(fields[i].id);
          const bool all_null =
              nulls != stats.null_counts.end() && nulls->second == entry.data_file.record_count;
          if (!all_null) range.known = false;
          continue;
        }
        range.min = std::min(range.min, lo->second.int_value());
        range.max = std::max(range.max, hi->second.int_value());
      }
    }
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const IntegerRange& range = ranges[i];
    if (!range.known || range.min > range.max) continue;
    // max - min + 1 without overflow: ranges wider than a row count never bind anyway.
    const long double width = static_cast<long double>(range.max) - range.min + 1;
    if (width < static_cast<long double>(std::numeric_limits<int64_t>::max())) {
      const int64_t distinct = static_cast<int64_t>(width);
      bounds[i] = bounds[i] < 0 ? distinct : std::min(bounds[i], distinct);
    }
  }
  return bounds;
}

Result<std::vector<int64_t>> DistinctBoundsCache::Get(const iceberg::TableMetadata& metadata,
                                                      const iceberg::Snapshot& snapshot,
                                                      const iceberg::Schema& schema,
                                                      io::FileSystem& fs) {
  const std::string key = metadata.location + "#" + std::to_string(snapshot.snapshot_id) + "#" +
                          std::to_string(schema.schema_id());
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) return it->second.second;
  }
  SQE_ASSIGN_OR_RETURN(std::vector<int64_t> bounds,
                       DistinctValueBounds(metadata, snapshot, schema, fs));
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.size() >= capacity_) {
    // Drop the older half: cheap, and a dropped entry is only re-read.
    const uint64_t cutoff = inserted_ - entries_.size() / 2;
    for (auto it = entries_.begin(); it != entries_.end();) {
      it = it->second.first < cutoff ? entries_.erase(it) : std::next(it);
    }
  }
  entries_[key] = {inserted_++, bounds};
  return bounds;
}

size_t DistinctBoundsCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace sqe::engine
