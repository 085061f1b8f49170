#include "exec/parquet_scan.h"

#include <set>
#include <string_view>

#include "common/task_scheduler.h"

namespace sqe::exec {
namespace {

constexpr std::string_view kFileScheme = "file://";

bool HasWildcard(std::string_view s) { return s.find_first_of("*?") != std::string_view::npos; }

std::vector<std::string_view> SplitSegments(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t slash = s.find('/', start);
    if (slash == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, slash - start));
    start = slash + 1;
  }
}

// `*` any run of characters, `?` one character, within one segment.
bool SegmentMatches(std::string_view pattern, std::string_view s) {
  size_t p = 0, i = 0;
  size_t star = std::string_view::npos, mark = 0;
  while (i < s.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == s[i])) {
      ++p;
      ++i;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = i;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool SegmentsMatch(const std::vector<std::string_view>& pattern, size_t pi,
                   const std::vector<std::string_view>& path, size_t si) {
  if (pi == pattern.size()) return si == path.size();
  if (pattern[pi] == "**") {
    for (size_t k = si; k <= path.size(); ++k) {
      if (SegmentsMatch(pattern, pi + 1, path, k)) return true;
    }
    return false;
  }
  if (si == path.size()) return false;
  return SegmentMatches(pattern[pi], path[si]) && SegmentsMatch(pattern, pi + 1, path, si + 1);
}

std::string_view WithoutFileScheme(std::string_view path) {
  if (path.starts_with(kFileScheme)) path.remove_prefix(kFileScheme.size());
  return path;
}

Status CheckGlob(const std::string& pattern) {
  if (pattern.find("***") != std::string::npos) {
    return Status::InvalidArgument("read_parquet: bad glob '" + pattern +
                                   "': '***' is not a wildcard (use '*' or '**')");
  }
  for (std::string_view segment : SplitSegments(pattern)) {
    if (segment.find("**") != std::string_view::npos && segment != "**") {
      return Status::InvalidArgument("read_parquet: bad glob '" + pattern + "': '**' must be a " +
                                     "whole path segment ('a/**/b.parquet'), not part of '" +
                                     std::string(segment) + "'");
    }
  }
  const size_t scheme = pattern.find("://");
  if (scheme != std::string::npos && pattern.compare(0, scheme, "file") != 0) {
    const size_t bucket_end = pattern.find('/', scheme + 3);
    const std::string_view bucket = std::string_view(pattern).substr(
        scheme + 3, bucket_end == std::string::npos ? std::string::npos : bucket_end - scheme - 3);
    if (HasWildcard(bucket)) {
      return Status::InvalidArgument("read_parquet: bad glob '" + pattern +
                                     "': the bucket name cannot contain wildcards");
    }
  }
  return Status::OK();
}

std::string SchemaText(const columnar::Schema& schema) {
  std::string out = "(";
  for (int i = 0; i < schema.num_fields(); ++i) {
    out += (i ? ", " : "") + schema.field(i).ToString();
  }
  return out + ")";
}

// Same column names and types (nullability and field ids may differ between writers).
bool SameColumns(const columnar::Schema& a, const columnar::Schema& b) {
  if (a.num_fields() != b.num_fields()) return false;
  for (int i = 0; i < a.num_fields(); ++i) {
    if (a.field(i).name() != b.field(i).name()) return false;
    if (!a.field(i).type()->Equals(*b.field(i).type())) return false;
  }
  return true;
}

}  // namespace

/// Per-thread state: the row group this thread is returning in slices.
class ParquetScan::State : public OperatorState {
 public:
  explicit State(ParquetScan* scan) : scan_(scan) {}
  // A thread stopped early (LIMIT reached) still leaves its reads in the counters.
  ~State() override {
    std::lock_guard<std::mutex> lock(scan_->mutex_);
    scan_->RefreshExtra();
  }

  columnar::Batch current;
  int64_t offset = 0;

 private:
  ParquetScan* scan_;
};

bool ParquetScan::GlobMatches(std::string_view pattern, std::string_view path) {
  return SegmentsMatch(SplitSegments(WithoutFileScheme(pattern)), 0,
                       SplitSegments(WithoutFileScheme(path)), 0);
}

Result<std::vector<io::FileInfo>> ParquetScan::ExpandPaths(const std::vector<std::string>& patterns,
                                                           io::FileSystem& fs) {
  if (patterns.empty()) return Status::InvalidArgument("read_parquet: no paths given");
  std::vector<io::FileInfo> out;
  std::set<std::string> seen;
  for (const std::string& pattern : patterns) {
    if (pattern.empty()) return Status::InvalidArgument("read_parquet: empty path");
    if (!HasWildcard(pattern)) {
      auto file = fs.OpenForRead(pattern);
      if (!file.ok()) {
        if (file.status().code() == StatusCode::kNotFound) {
          return Status::NotFound("read_parquet: file '" + pattern + "' not found");
        }
        return file.status().WithContext("read_parquet: file '" + pattern + "'");
      }
      SQE_ASSIGN_OR_RETURN(int64_t size, (*file)->Size());
      if (seen.insert(pattern).second) out.push_back({pattern, size});
      continue;
    }
    SQE_RETURN_NOT_OK(CheckGlob(pattern));
    // List from the directory the first wildcard is in.
    const size_t wild = pattern.find_first_of("*?");
    const size_t slash = pattern.rfind('/', wild);
    const std::string prefix = slash == std::string::npos ? "" : pattern.substr(0, slash + 1);
    auto listed = fs.List(prefix);
    if (!listed.ok()) {
      return listed.status().WithContext("read_parquet: listing '" + prefix + "' for '" + pattern +
                                         "'");
    }
    size_t matched = 0;
    for (io::FileInfo& f : *listed) {
      if (!GlobMatches(pattern, f.path)) continue;
      ++matched;
      if (seen.insert(f.path).second) out.push_back(std::move(f));
    }
    if (matched == 0) return Status::NotFound("read_parquet: no files match '" + pattern + "'");
  }
  return out;
}

Result<ParquetScanSource> ParquetScan::Describe(const std::vector<std::string>& patterns,
                                                io::FileSystem& fs) {
  ParquetScanSource source;
  SQE_ASSIGN_OR_RETURN(source.files, ExpandPaths(patterns, fs));
  const io::FileInfo& first = source.files.front();
  SQE_ASSIGN_OR_RETURN(auto file, fs.OpenForReadWithSize(first.path, first.size));
  auto reader = parquet::ParquetFileReader::Open(std::move(file));
  if (!reader.ok()) return reader.status().WithContext("read_parquet");
  // Columns are nullable whatever the first file says: a later file may hold nulls.
  std::vector<columnar::Field> fields;
  for (const columnar::Field& f : (*reader)->file_schema().schema->fields()) {
    fields.push_back(f.WithNullable(true));
  }
  source.schema = columnar::Schema::Make(std::move(fields));
  return source;
}

Result<columnar::SchemaPtr> ParquetScan::OutputSchema(const ParquetScanSource& source,
                                                      const std::vector<std::string>& columns) {
  if (!source.schema) return Status::InvalidArgument("read_parquet: the source has no schema");
  if (columns.empty()) return source.schema;
  std::vector<columnar::Field> fields;
  for (const std::string& name : columns) {
    const int index = source.schema->FieldIndex(name);
    if (index < 0) {
      return Status::InvalidArgument("read_parquet: no column '" + name +
                                     "' (columns: " + SchemaText(*source.schema) + ")");
    }
    fields.push_back(source.schema->field(index));
  }
  return columnar::Schema::Make(std::move(fields));
}

ParquetScan::ParquetScan(ParquetScanSpec spec, columnar::SchemaPtr output_schema)
    : PhysicalOperator("ParquetScan", std::move(output_schema)), spec_(std::move(spec)) {
  fs_ = spec_.fs.get();
}

ParquetScan::~ParquetScan() = default;

Status ParquetScan::Prepare(ExecContext& ctx) {
  if (prepared_.load(std::memory_order_acquire)) return prepare_status_;
  std::lock_guard<std::mutex> lock(mutex_);
  if (prepared_.load(std::memory_order_relaxed)) return prepare_status_;
  prepare_status_ = PrepareLocked(ctx);
  prepared_.store(true, std::memory_order_release);
  return prepare_status_;
}

Status ParquetScan::PrepareLocked(ExecContext& ctx) {
  if (fs_ == nullptr) fs_ = ctx.fs;
  if (fs_ == nullptr) return Status::InvalidArgument("read_parquet: no file system");
  const std::vector<io::FileInfo>& files = spec_.source.files;
  if (files.empty()) return Status::OK();
  if (!spec_.source.schema)
    return Status::InvalidArgument("read_parquet: the source has no schema");
  parquet::ReaderOptions options;
  options.columns = spec_.columns;
  options.predicate = spec_.predicate;
  options.tracker = MakeTracker(ctx);
  readers_.resize(files.size());
  std::vector<std::vector<int>> selected(files.size());
  SQE_RETURN_NOT_OK(ParallelFor(
      ctx.scheduler, static_cast<int64_t>(files.size()), std::max(1, ctx.threads),
      [&](int64_t i) -> Status {
        const io::FileInfo& info = files[static_cast<size_t>(i)];
        SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
        auto file = fs_->OpenForReadWithSize(info.path, info.size);
        if (!file.ok()) {
          if (file.status().code() == StatusCode::kNotFound) {
            return Status::NotFound("read_parquet: file '" + info.path + "' not found");
          }
          return file.status().WithContext("read_parquet: file '" + info.path + "'");
        }
        std::shared_ptr<io::RandomAccessFile> shared = std::move(*file);
        // The schema check comes before the projection and predicate are resolved, so a
        // differing file is reported as such rather than as an unknown column.
        SQE_ASSIGN_OR_RETURN(auto probe, parquet::ParquetFileReader::Open(shared));
        if (!SameColumns(*probe->file_schema().schema, *spec_.source.schema)) {
          return Status::InvalidArgument(
              "read_parquet: file '" + info.path + "' has columns " +
              SchemaText(*probe->file_schema().schema) + " but '" + files.front().path + "' has " +
              SchemaText(*spec_.source.schema) + "; all files must have the same columns");
        }
        probe.reset();
        SQE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetFileReader::Open(shared, options));
        SQE_ASSIGN_OR_RETURN(selected[static_cast<size_t>(i)], reader->SelectRowGroups());
        readers_[static_cast<size_t>(i)] = std::move(reader);
        return Status::OK();
      }));
  for (size_t f = 0; f < files.size(); ++f) {
    row_groups_total_ += readers_[f]->num_row_groups();
    row_groups_pruned_by_stats_ +=
        readers_[f]->num_row_groups() - static_cast<int64_t>(selected[f].size());
    for (int g : selected[f]) morsels_.push_back({static_cast<int>(f), g});
  }
  num_morsels_.store(static_cast<int64_t>(morsels_.size()));
  RefreshExtra();
  return Status::OK();
}

std::string ParquetScan::Details() const {
  std::string out = "paths=[";
  for (size_t i = 0; i < spec_.patterns.size(); ++i) {
    out += (i ? ", " : "") + std::string("'") + spec_.patterns[i] + "'";
  }
  out += "] files=" + std::to_string(spec_.source.files.size()) + " columns=[";
  for (int i = 0; i < schema_->num_fields(); ++i) {
    out += (i ? ", " : "") + schema_->field(i).name();
  }
  out += "]";
  if (!spec_.predicate.empty()) {
    out += " filter=[";
    for (size_t i = 0; i < spec_.predicate.size(); ++i) {
      out += (i ? " AND " : "") + spec_.predicate[i].ToString();
    }
    out += "]";
  }
  return out;
}

Result<std::unique_ptr<OperatorState>> ParquetScan::MakeSourceState(ExecContext& ctx) {
  SQE_RETURN_NOT_OK(Prepare(ctx));
  return std::unique_ptr<OperatorState>(new State(this));
}

int64_t ParquetScan::SourceParallelism() const {
  if (!prepared_.load(std::memory_order_acquire)) return 0;
  return std::max<int64_t>(1, num_morsels_.load());
}

Result<std::optional<columnar::Batch>> ParquetScan::GetData(ExecContext& ctx,
                                                            OperatorState& state) {
  SQE_RETURN_NOT_OK(Prepare(ctx));
  State& s = static_cast<State&>(state);
  const int64_t batch_size = ctx.batch_size > 0 ? ctx.batch_size : 8192;
  while (true) {
    SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
    if (s.offset < s.current.num_rows()) {
      columnar::Batch slice = s.current.Slice(s.offset, batch_size);
      s.offset += slice.num_rows();
      SQE_ASSIGN_OR_RETURN(columnar::Batch out,
                           columnar::Batch::Make(schema_, slice.columns(), slice.num_rows()));
      return std::optional<columnar::Batch>(std::move(out));
    }
    s.current = columnar::Batch();
    s.offset = 0;
    const size_t i = next_morsel_.fetch_add(1, std::memory_order_relaxed);
    if (i >= morsels_.size()) {
      std::lock_guard<std::mutex> lock(mutex_);
      RefreshExtra();
      return std::optional<columnar::Batch>();
    }
    const Morsel m = morsels_[i];
    parquet::ParquetFileReader& reader = *readers_[static_cast<size_t>(m.file)];
    std::vector<std::optional<parquet::OffsetIndex>> offset_indexes;
    SQE_ASSIGN_OR_RETURN(std::optional<parquet::RowRanges> ranges,
                         reader.PredicateRowRanges(m.row_group, &offset_indexes));
    if (ranges && ranges->empty()) {
      row_groups_pruned_by_pages_.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    const parquet::RowRanges* r = ranges ? &*ranges : nullptr;
    Result<columnar::Batch> batch =
        offset_indexes.size() == reader.projected_leaves().size() && r != nullptr
            ? reader.ReadRowGroup(m.row_group, r, offset_indexes)
            : reader.ReadRowGroup(m.row_group, r);
    if (!batch.ok()) return batch.status().WithContext("read_parquet");
    row_groups_read_.fetch_add(1, std::memory_order_relaxed);
    s.current = std::move(*batch);
  }
}

void ParquetScan::RefreshExtra() {
  // Called with mutex_ held.
  parquet::ReaderStats total;
  for (const auto& reader : readers_) {
    if (!reader) continue;
    const parquet::ReaderStats r = reader->stats();
    total.pages_read += r.pages_read;
    total.pages_skipped += r.pages_skipped;
    total.bytes_read += r.bytes_read;
    total.read_requests += r.read_requests;
  }
  stats_.bytes_read.store(total.bytes_read, std::memory_order_relaxed);
  const int64_t skipped = row_groups_pruned_by_stats_ + row_groups_pruned_by_pages_.load();
  stats_.extra = "row_groups=" + std::to_string(row_groups_total_) +
                 " pages_read=" + std::to_string(total.pages_read) +
                 " pages_skipped=" + std::to_string(total.pages_skipped) +
                 " read_requests=" + std::to_string(total.read_requests);
  stats_.files_read.store(static_cast<int64_t>(spec_.source.files.size()),
                          std::memory_order_relaxed);
  stats_.row_groups_read.store(row_groups_read_.load(), std::memory_order_relaxed);
  stats_.row_groups_pruned.store(skipped, std::memory_order_relaxed);
}

}  // namespace sqe::exec
