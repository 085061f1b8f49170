#include "iceberg/scan/scan_planner.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "iceberg/expr/evaluators.h"
#include "iceberg/expr/projection.h"
#include "iceberg/manifest/single_value.h"

namespace sqe::iceberg {

ManifestSource::~ManifestSource() = default;

namespace {

Result<const Snapshot*> SelectSnapshot(const TableMetadata& m, const ScanOptions& o) {
  int selectors = o.snapshot_id.has_value() + o.ref.has_value() + o.as_of_timestamp_ms.has_value();
  if (selectors > 1) {
    return Status::InvalidArgument(
        "a scan selects its snapshot by id, by ref or by time, not by "
        "several at once");
  }
  if (o.snapshot_id) {
    const Snapshot* s = m.SnapshotById(*o.snapshot_id);
    if (s == nullptr) {
      return Status::NotFound("snapshot " + std::to_string(*o.snapshot_id) +
                              " does not exist in this table");
    }
    return s;
  }
  if (o.ref) return m.SnapshotForRef(*o.ref);
  if (o.as_of_timestamp_ms) return m.SnapshotAsOf(*o.as_of_timestamp_ms);
  return m.CurrentSnapshot();  // nullptr for an empty table
}

// The partition tuple as a map key ("spec|v1|v2|...").
std::string PartitionKey(int32_t spec_id, const std::vector<std::optional<Literal>>& partition) {
  std::string key = std::to_string(spec_id);
  for (const auto& v : partition) {
    key += '|';
    key += v ? std::to_string(static_cast<int>(v->type())) + ":" + v->ToString() : "null";
  }
  return key;
}

// Partition summaries of a manifest keyed by partition field id, bounds decoded.
Result<std::map<int32_t, expr::PartitionSummary>> SummariesOf(const ManifestFile& manifest,
                                                              const PartitionSpec& spec,
                                                              const Schema& schema) {
  std::map<int32_t, expr::PartitionSummary> out;
  if (manifest.partitions.size() != spec.fields().size()) return out;  // none written
  SQE_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  const auto& fields = partition_type->fields();
  for (size_t i = 0; i < manifest.partitions.size() && i < fields.size(); ++i) {
    const PartitionFieldSummary& raw = manifest.partitions[i];
    expr::PartitionSummary s;
    s.contains_null = raw.contains_null;
    s.contains_nan = raw.contains_nan;
    if (raw.lower_bound) {
      auto v = DecodeSingleValue(*raw.lower_bound, *fields[i].type);
      if (v.ok()) s.lower = std::move(*v);
    }
    if (raw.upper_bound) {
      auto v = DecodeSingleValue(*raw.upper_bound, *fields[i].type);
      if (v.ok()) s.upper = std::move(*v);
    }
    // A bound we cannot read leaves the field unknown rather than wrongly empty.
    if ((raw.lower_bound && !s.lower) || (raw.upper_bound && !s.upper)) continue;
    out.emplace(fields[i].id, std::move(s));
  }
  return out;
}

struct ManifestResult {
  std::vector<ManifestEntry> entries;
  bool skipped = false;
};

struct LiveDelete {
  DataFile file;
  int64_t sequence_number = 0;
};

}  // namespace

expr::FileStats DataFileStats(const DataFile& f, const Schema& schema) {
  expr::FileStats s;
  s.record_count = f.record_count;
  s.value_counts = f.value_counts;
  s.null_counts = f.null_value_counts;
  s.nan_counts = f.nan_value_counts;
  auto decode = [&](const std::map<int32_t, std::string>& raw, std::map<int32_t, Literal>* out) {
    for (const auto& [id, bytes] : raw) {
      const NestedField* field = schema.FindFieldById(id);
      if (field == nullptr || !field->type->is_primitive()) continue;
      auto value = DecodeSingleValue(bytes, *field->type);
      if (value.ok()) out->emplace(id, std::move(*value));  // undecodable: unknown
    }
  };
  decode(f.lower_bounds, &s.lower_bounds);
  decode(f.upper_bounds, &s.upper_bounds);
  return s;
}


std::vector<std::pair<int64_t, int64_t>> SplitFile(int64_t file_size,
                                                   const std::vector<int64_t>& split_offsets,
                                                   int64_t target) {
  std::vector<int64_t> offsets;
  for (int64_t o : split_offsets) {
    if (o >= 0 && o < file_size) offsets.push_back(o);
  }
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  if (offsets.size() <= 1 || target <= 0) return {{0, file_size}};
  std::vector<std::pair<int64_t, int64_t>> ranges;
  int64_t start = 0;  // the first range also covers the bytes before the first row group
  for (size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] - start >= target) {
      ranges.emplace_back(start, offsets[i] - start);
      start = offsets[i];
    }
  }
  ranges.emplace_back(start, file_size - start);
  return ranges;
}

Result<ScanPlan> PlanScan(const TableMetadata& metadata, ManifestSource& source,
                          const ScanOptions& options) {
  ScanPlan plan;
  SQE_ASSIGN_OR_RETURN(const Snapshot* snapshot, SelectSnapshot(metadata, options));
  // Time travel (a snapshot id, a timestamp or a tag) reads with the schema the snapshot
  // was written with; the table and its branches read with the current schema, so a
  // column added after the last commit shows (as null), as Spark and Trino do.
  bool time_travel = options.snapshot_id.has_value() || options.as_of_timestamp_ms.has_value();
  if (options.ref) {
    auto ref = metadata.refs.find(*options.ref);
    time_travel = time_travel ||
                  (ref != metadata.refs.end() && ref->second.type == SnapshotRefType::kTag);
  }
  const Schema* schema = metadata.CurrentSchema();
  if (snapshot != nullptr && time_travel) {
    SQE_ASSIGN_OR_RETURN(schema, metadata.SchemaForSnapshot(snapshot->snapshot_id));
  }
  if (schema == nullptr) return Status::Corruption("table metadata has no current schema");
  plan.schema = std::make_shared<const Schema>(*schema);
  if (snapshot == nullptr) return plan;
  plan.snapshot_id = snapshot->snapshot_id;

  expr::ExprPtr filter = expr::True();
  if (options.filter) {
    SQE_ASSIGN_OR_RETURN(filter, expr::Bind(options.filter, *schema, options.case_sensitive));
  }

  SQE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, source.ReadManifestList(*snapshot));
  plan.stats.manifests = static_cast<int64_t>(manifests.size());

  // Per spec: the filter projected onto its partition fields.
  std::map<int32_t, expr::ExprPtr> projected;
  for (const ManifestFile& m : manifests) {
    if (projected.count(m.partition_spec_id)) continue;
    const PartitionSpec* spec = metadata.SpecById(m.partition_spec_id);
    if (spec == nullptr) {
      return Status::Corruption("manifest " + m.manifest_path + " names partition spec " +
                                std::to_string(m.partition_spec_id) +
                                ", which the table metadata does not have");
    }
    SQE_ASSIGN_OR_RETURN(expr::ExprPtr p, expr::ProjectInclusive(filter, *spec, *schema));
    projected.emplace(m.partition_spec_id, std::move(p));
  }

  std::vector<ManifestResult> results(manifests.size());
  SQE_RETURN_NOT_OK(ParallelFor(
      options.scheduler, static_cast<int64_t>(manifests.size()), options.parallelism,
      [&](int64_t i) -> Status {
        const ManifestFile& m = manifests[static_cast<size_t>(i)];
        const PartitionSpec& spec = *metadata.SpecById(m.partition_spec_id);
        const expr::ExprPtr& partition_filter = projected.at(m.partition_spec_id);
        // Delete manifests are always read: deletes apply by partition, not by filter.
        if (m.content == ManifestContent::kData && partition_filter->op != expr::Op::kTrue) {
          SQE_ASSIGN_OR_RETURN(auto summaries, SummariesOf(m, spec, *schema));
          SQE_ASSIGN_OR_RETURN(bool may, expr::SummariesMightMatch(partition_filter, summaries));
          if (!may) {
            results[static_cast<size_t>(i)].skipped = true;
            return Status::OK();
          }
        }
        SQE_ASSIGN_OR_RETURN(results[static_cast<size_t>(i)].entries,
                             source.ReadEntries(m, spec, *schema));
        return Status::OK();
      }));

  // Deletes first, indexed by partition.
  std::map<std::string, std::vector<LiveDelete>> deletes_by_partition;
  // Spec "Scan Planning": only equality deletes of an unpartitioned spec are global;
  // position deletes (files and vectors) apply within their own spec and partition.
  std::vector<LiveDelete> global_deletes;
  for (size_t i = 0; i < manifests.size(); ++i) {
    if (results[i].skipped) {
      plan.stats.manifests_skipped++;
      continue;
    }
    if (manifests[i].content != ManifestContent::kDeletes) continue;
    const PartitionSpec& spec = *metadata.SpecById(manifests[i].partition_spec_id);
    for (ManifestEntry& e : results[i].entries) {
      if (e.status == ManifestStatus::kDeleted) continue;
      plan.stats.delete_files++;
      LiveDelete d{e.data_file, e.sequence_number.value_or(0)};
      if (spec.is_unpartitioned() && d.file.content == FileContent::kEqualityDeletes) {
        global_deletes.push_back(std::move(d));
      } else {
        deletes_by_partition[PartitionKey(spec.spec_id(), d.file.partition)].push_back(
            std::move(d));
      }
    }
  }
  std::set<std::string> applied_deletes;
  auto applies = [](const LiveDelete& d, const DataFile& data, int64_t data_seq) {
    if (d.file.content == FileContent::kPositionDeletes) {
      if (d.file.referenced_data_file && *d.file.referenced_data_file != data.file_path)
        return false;
      return d.sequence_number >= data_seq;
    }
    return d.sequence_number > data_seq;  // equality deletes: strictly newer
  };

  for (size_t i = 0; i < manifests.size(); ++i) {
    if (results[i].skipped || manifests[i].content != ManifestContent::kData) continue;
    int32_t spec_id = manifests[i].partition_spec_id;
    const expr::ExprPtr& partition_filter = projected.at(spec_id);
    for (ManifestEntry& e : results[i].entries) {
      if (e.status == ManifestStatus::kDeleted) continue;
      const DataFile& f = e.data_file;
      plan.stats.data_files++;
      if (partition_filter->op != expr::Op::kTrue) {
        const PartitionSpec& spec = *metadata.SpecById(spec_id);
        SQE_ASSIGN_OR_RETURN(
            bool may, expr::Evaluate(partition_filter, [&](int32_t id) -> const Literal* {
              for (size_t k = 0; k < spec.fields().size() && k < f.partition.size(); ++k) {
                if (spec.fields()[k].field_id == id)
                  return f.partition[k] ? &*f.partition[k] : nullptr;
              }
              return nullptr;
            }));
        if (!may) {
          plan.stats.data_files_skipped_by_partition++;
          continue;
        }
      }
      if (filter->op != expr::Op::kTrue) {
        SQE_ASSIGN_OR_RETURN(bool may, expr::MetricsMightMatch(filter, DataFileStats(f, *schema)));
        if (!may) {
          plan.stats.data_files_skipped_by_metrics++;
          continue;
        }
      }
      int64_t data_seq = e.sequence_number.value_or(0);
      std::vector<DataFile> deletes;
      auto collect = [&](const std::vector<LiveDelete>& candidates) {
        for (const LiveDelete& d : candidates) {
          if (applies(d, f, data_seq)) {
            deletes.push_back(d.file);
            applied_deletes.insert(d.file.file_path);
          }
        }
      };
      collect(global_deletes);
      auto it = deletes_by_partition.find(PartitionKey(spec_id, f.partition));
      if (it != deletes_by_partition.end()) collect(it->second);
      // A deletion vector holds every earlier position delete of its data file, so when
      // one applies, position delete files are not applied as well (spec "Deletion
      // Vectors"); a table holds at most one live vector per data file.
      const DataFile* dv = nullptr;
      for (const DataFile& d : deletes) {
        if (d.content == FileContent::kPositionDeletes && d.file_format == FileFormat::kPuffin)
          dv = &d;
      }
      if (dv != nullptr) {
        DataFile keep_dv = *dv;
        std::vector<DataFile> kept;
        for (DataFile& d : deletes) {
          if (d.content != FileContent::kPositionDeletes) kept.push_back(std::move(d));
        }
        kept.push_back(std::move(keep_dv));
        deletes = std::move(kept);
      }
      for (const auto& [start, length] :
           SplitFile(f.file_size_in_bytes, f.split_offsets, options.target_split_size)) {
        FileScanTask task;
        task.file = f;
        task.spec_id = spec_id;
        task.data_sequence_number = data_seq;
        task.start = start;
        task.length = length;
        task.deletes = deletes;
        task.residual = filter;
        plan.tasks.push_back(std::move(task));
      }
    }
  }
  plan.stats.delete_files_applied = static_cast<int64_t>(applied_deletes.size());
  plan.stats.tasks = static_cast<int64_t>(plan.tasks.size());
  return plan;
}

}  // namespace sqe::iceberg
