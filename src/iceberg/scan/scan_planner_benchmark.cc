// Plans a table of 10,000 data files in 100 manifests (issue P4's planning target: under
// 200 ms on 2 cores): manifests and the manifest list are real Avro files on local disk,
// written once, then PlanScan runs with and without a filter on a TaskScheduler.
//   build/release/src/iceberg/scan/scan_planner_benchmark --benchmark_min_time=1s
#include <benchmark/benchmark.h>

#include <filesystem>

#include "common/task_scheduler.h"
#include "iceberg/manifest/manifest_writer.h"
#include "iceberg/manifest/single_value.h"
#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/scan/scan_planner.h"
#include "io/file_system.h"

namespace sqe::iceberg {
namespace {

constexpr int kManifests = 100;
constexpr int kFilesPerManifest = 100;

struct Table {
  std::filesystem::path dir;
  TableMetadata metadata;
};

Table& BuildTable() {
  static Table* table = [] {
    auto* t = new Table();
    t->dir = std::filesystem::temp_directory_path() / "sqe_scan_planner_benchmark";
    std::filesystem::remove_all(t->dir);
    std::filesystem::create_directories(t->dir / "metadata");
    auto fs = io::MakeLocalFileSystem();
    Schema schema = *ParseSchemaJson(R"({"type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "id", "required": true, "type": "long"},
        {"id": 2, "name": "day", "required": false, "type": "date"}]})");
    PartitionSpec spec = *ParsePartitionSpecJson(
        R"({"spec-id": 0, "fields": [{"source-id": 2, "field-id": 1000, "name": "day", "transform": "identity"}]})");
    std::vector<ManifestFile> manifests;
    for (int m = 0; m < kManifests; ++m) {
      ManifestWriterOptions o;
      o.spec = spec;
      o.schema = schema;
      o.snapshot_id = 1;
      std::string path = (t->dir / "metadata" / ("m" + std::to_string(m) + ".avro")).string();
      auto opened = fs->OpenForWrite(path, true);
      std::shared_ptr<io::OutputStream> out(std::move(*opened));
      auto made = ManifestWriter::Open(out, o);
      auto writer = std::move(*made);
      for (int f = 0; f < kFilesPerManifest; ++f) {
        int64_t first = (static_cast<int64_t>(m) * kFilesPerManifest + f) * 1000;
        DataFile file;
        file.file_path = (t->dir / "data" / ("f" + std::to_string(first) + ".parquet")).string();
        file.partition = {Literal::Date(m)};
        file.record_count = 1000;
        file.file_size_in_bytes = 1 << 20;
        file.value_counts = {{1, 1000}, {2, 1000}};
        file.null_value_counts = {{1, 0}, {2, 0}};
        file.lower_bounds = {
            {1, *EncodeSingleValue(Literal::Long(first), *schema.FindFieldById(1)->type)}};
        file.upper_bounds = {
            {1, *EncodeSingleValue(Literal::Long(first + 999), *schema.FindFieldById(1)->type)}};
        file.split_offsets = {4};
        (void)writer->AddFile(std::move(file));
      }
      ManifestFile mf = *writer->Close();
      mf.manifest_path = path;
      mf.added_snapshot_id = 1;
      manifests.push_back(mf);
    }
    std::string list = (t->dir / "metadata" / "snap-1.avro").string();
    {
      ManifestListWriterOptions lo;
      lo.snapshot_id = 1;
      lo.sequence_number = 1;
      auto opened = fs->OpenForWrite(list, true);
      std::shared_ptr<io::OutputStream> out(std::move(*opened));
      auto made = ManifestListWriter::Open(out, lo);
      auto writer = std::move(*made);
      for (const ManifestFile& m : manifests) (void)writer->Add(m);
      (void)writer->Close();
    }
    TableMetadata& md = t->metadata;
    md.format_version = 2;
    md.table_uuid = "d20c32b0-0000-4000-8000-000000000000";
    md.location = t->dir.string();
    md.last_sequence_number = 1;
    md.last_column_id = 2;
    md.schemas = {schema};
    md.partition_specs = {spec};
    md.last_partition_id = 1000;
    md.sort_orders = {SortOrder::Unsorted()};
    Snapshot s;
    s.snapshot_id = 1;
    s.sequence_number = 1;
    s.manifest_list = list;
    s.summary = {{"operation", "append"}};
    md.snapshots = {s};
    md.current_snapshot_id = 1;
    md.refs["main"] = SnapshotRef{1};
    return t;
  }();
  return *table;
}

void Plan(benchmark::State& state, expr::ExprPtr filter, int64_t expected_files) {
  Table& table = BuildTable();
  auto fs = io::MakeLocalFileSystem();
  FileManifestSource source(*fs);
  TaskScheduler scheduler(2);
  ScanOptions options;
  options.filter = std::move(filter);
  options.scheduler = &scheduler;
  options.parallelism = 3;
  for (auto _ : state) {
    auto plan = PlanScan(table.metadata, source, options);
    if (!plan.ok() || static_cast<int64_t>(plan->tasks.size()) != expected_files) {
      state.SkipWithError(plan.ok() ? "unexpected task count" : plan.status().ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(plan->tasks.data());
  }
  state.counters["data_files"] = kManifests * kFilesPerManifest;
}

void BM_PlanAllFiles(benchmark::State& state) {
  Plan(state, nullptr, kManifests * kFilesPerManifest);
}
void BM_PlanWithPartitionFilter(benchmark::State& state) {
  // One day: 99 manifests skipped by their summaries, 100 files kept.
  Plan(state, expr::Compare(expr::Op::kEq, "day", Literal::Date(42)), kFilesPerManifest);
}
void BM_PlanWithMetricsFilter(benchmark::State& state) {
  // Every manifest read, every file but one pruned by its id bounds.
  Plan(state, expr::Compare(expr::Op::kEq, "id", Literal::Long(5'000'500)), 1);
}

BENCHMARK(BM_PlanAllFiles)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PlanWithPartitionFilter)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PlanWithMetricsFilter)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace sqe::iceberg

BENCHMARK_MAIN();
