// sqe-datagen: generates benchmark data. `sqe-datagen tpch --sf N` writes the eight TPC-H
// tables as Iceberg tables into the catalog (the embedded warehouse by default, or the
// one --config describes), or with --parquet-dir as plain Parquet files DIR/<table>/.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog_factory.h"
#include "common/logging.h"
#include "config/config_loader.h"
#include "datagen/iceberg_table_sink.h"
#include "datagen/parquet_dir_sink.h"
#include "datagen/tpch_loader.h"
#include "io/s3/s3_options.h"
#include "io/s3/storage_file_systems.h"

namespace {

using sqe::Result;
using sqe::Status;
namespace datagen = sqe::datagen;

struct TpchArgs {
  double sf = 1;
  std::string warehouse;
  std::string config_path;
  std::vector<std::string> sets;
  std::string schema = "tpch";
  std::string parquet_dir;
  uint64_t seed = datagen::kDefaultTpchSeed;
  int threads = 0;
  std::vector<std::string> tables;
  std::vector<std::string> partitions;
  bool replace = false;
  bool quiet = false;
};

/// Prints "\r<table> <percent> <rows> <seconds>" at most ten times a second, on a TTY.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled) {}

  void Update(const datagen::TpchProgress& p) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (p.units_done < p.units_total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double percent = p.units_total > 0 ? 100.0 * p.units_done / p.units_total : 100.0;
    std::fprintf(stderr, "\r%-9s %5.1f%% %12lld rows", std::string(TpchTableName(p.table)).c_str(),
                 percent, static_cast<long long>(p.rows_written));
    std::fflush(stderr);
  }
  void Finish() {
    if (enabled_) std::fprintf(stderr, "\r%50s\r", "");
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_{};
};

Result<std::unique_ptr<datagen::DatasetSink>> MakeSink(const TpchArgs& args) {
  if (!args.parquet_dir.empty()) {
    datagen::ParquetDirSinkOptions options;
    options.directory = args.parquet_dir;
    options.replace = args.replace;
    return datagen::MakeParquetDirSink(std::move(options));
  }
  sqe::config::LoadOptions load;
  if (!args.config_path.empty()) load.config_path = args.config_path;
  load.set_overrides = args.sets;
  load.env = sqe::config::CurrentEnvironment();
  load.server_validation = false;
  SQE_ASSIGN_OR_RETURN(sqe::config::LoadedConfig loaded, sqe::config::LoadConfig(load));
  const sqe::config::Config& config = loaded.config;
  auto file_systems = std::make_shared<sqe::io::s3::StorageFileSystems>(
      sqe::io::s3::S3OptionsFromConfig(config, sqe::config::CurrentEnvironment()));
  std::unique_ptr<sqe::catalog::Catalog> made;
  if (args.config_path.empty()) {
    // The embedded catalog: over --warehouse DIR (as sqe-shell --warehouse opens it), else
    // over ./sqe-data, the embedded backend's default directory.
    const std::string warehouse = args.warehouse.empty() ? "sqe-data" : args.warehouse;
    SQE_ASSIGN_OR_RETURN(
        made, sqe::catalog::MakeEmbeddedCatalog(
                  warehouse, config.catalog.name,
                  static_cast<int>(config.catalog.default_table_format_version), file_systems));
  } else {
    SQE_ASSIGN_OR_RETURN(made, sqe::catalog::MakeCatalog(config, file_systems));
  }
  datagen::IcebergDatasetSinkOptions options;
  options.catalog = std::shared_ptr<sqe::catalog::Catalog>(std::move(made));
  options.file_systems = file_systems;
  options.schema = args.schema;
  options.replace = args.replace;
  options.default_codec = config.catalog.parquet_compression;
  for (const std::string& p : args.partitions) {
    const size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument(
          "--partition wants TABLE=SPEC (e.g. orders=month(o_orderdate)), got '" + p + "'");
    }
    SQE_ASSIGN_OR_RETURN(datagen::TpchTable table, datagen::TpchTableFromName(p.substr(0, eq)));
    SQE_RETURN_NOT_OK(datagen::TpchPartitionSpecJson(table, p.substr(eq + 1)).status());
    options.partitioning[p.substr(0, eq)] = p.substr(eq + 1);
  }
  return datagen::MakeIcebergDatasetSink(std::move(options));
}

int RunTpch(const TpchArgs& args) {
  datagen::TpchLoadOptions load;
  load.generator.scale_factor = args.sf;
  load.generator.seed = args.seed;
  load.threads = args.threads > 0
                     ? args.threads
                     : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  for (const std::string& name : args.tables) {
    Result<datagen::TpchTable> table = datagen::TpchTableFromName(name);
    if (!table.ok()) {
      std::cerr << "sqe-datagen: " << table.status().message() << std::endl;
      return 2;
    }
    load.tables.push_back(*table);
  }
  Result<std::unique_ptr<datagen::DatasetSink>> sink = MakeSink(args);
  if (!sink.ok()) {
    std::cerr << "sqe-datagen: " << sink.status().message() << std::endl;
    return sink.status().code() == sqe::StatusCode::kInvalidArgument ? 2 : 1;
  }
  ProgressLine progress(!args.quiet && isatty(STDERR_FILENO));
  load.progress = [&progress](const datagen::TpchProgress& p) { progress.Update(p); };
  const auto started = std::chrono::steady_clock::now();
  Result<std::vector<datagen::TpchTableReport>> reports = datagen::LoadTpch(load, **sink);
  progress.Finish();
  if (!reports.ok()) {
    std::cerr << "sqe-datagen: " << reports.status().message() << std::endl;
    return 1;
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
  int64_t total = 0;
  for (const datagen::TpchTableReport& r : *reports) {
    std::printf("%-9s %12lld rows %8.2f s\n", std::string(TpchTableName(r.table)).c_str(),
                static_cast<long long>(r.rows), r.seconds);
    total += r.rows;
  }
  std::printf(
      "%-9s %12lld rows %8.2f s (sf %g, %d threads, %s)\n", "total", static_cast<long long>(total),
      elapsed.count(), args.sf, load.threads,
      args.parquet_dir.empty() ? ("schema " + args.schema).c_str() : args.parquet_dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sqe-datagen: generate benchmark data into SQE's catalog or Parquet files"};
  app.set_version_flag("--version", std::string("sqe-datagen ") + SQE_VERSION);
  app.require_subcommand(1);
  TpchArgs args;
  CLI::App* tpch = app.add_subcommand("tpch", "the eight TPC-H tables at a scale factor");
  tpch->add_option("--sf", args.sf, "scale factor (1 = lineitem of about 6M rows)")->required();
  tpch->add_option("--warehouse", args.warehouse,
                   "the embedded catalog's warehouse directory (default ./sqe-data)");
  tpch->add_option("--config", args.config_path, "use the [catalog] and [storage] of FILE");
  tpch->add_option("--set", args.sets, "override a config field: section.field=value");
  tpch->add_option("--schema", args.schema, "the schema (namespace) of the tables")
      ->capture_default_str();
  tpch->add_option("--parquet-dir", args.parquet_dir,
                   "write plain Parquet files DIR/<table>/*.parquet instead of Iceberg tables");
  tpch->add_option("--seed", args.seed, "random seed (the same seed gives the same rows)")
      ->capture_default_str();
  tpch->add_option("--threads", args.threads, "generating threads (default: the cores)");
  tpch->add_option("--tables", args.tables, "only these tables (default: all)")->delimiter(',');
  tpch->add_option("--partition", args.partitions,
                   "partition a table: TABLE=SPEC, e.g. orders=month(o_orderdate) (repeatable)");
  tpch->add_flag("--replace", args.replace, "drop tables (or Parquet files) that exist first");
  tpch->add_flag("--quiet", args.quiet, "no progress line");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (!args.warehouse.empty() && !args.config_path.empty()) {
    std::cerr << "sqe-datagen: give --warehouse or --config, not both" << std::endl;
    return 2;
  }
  if (!args.parquet_dir.empty() && (!args.warehouse.empty() || !args.config_path.empty())) {
    std::cerr << "sqe-datagen: --parquet-dir writes files, not tables: drop --warehouse/--config"
              << std::endl;
    return 2;
  }
  sqe::log::SetLevel(sqe::log::Level::kWarn);
  return RunTpch(args);
}
