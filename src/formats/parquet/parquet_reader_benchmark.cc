// Parquet decode benchmark: our reader vs DuckDB's read_parquet, in one run, on the same
// file (TPC-H SF1 lineitem: 6,001,215 rows of bigint, decimal(15,2), date and varchar
// columns, zstd) and the same thread count. Prints rows/s for both and the ratio.
//
//   build/release/src/formats/parquet/parquet_reader_benchmark [--threads=N]
//       [--lineitem=FILE] [--iterations=N] [--python=PYTHON]
//
// The file is generated on first use (DuckDB's tpch extension from tests/peers, ~30 s)
// at $SQE_BENCH_DATA/lineitem_sf1.parquet (default build/bench-data). DuckDB runs in a
// child process (duckdb_decode_benchmark.py) that times its own queries; those times are
// reported as manual times of the DuckDB benchmark. Figures go to docs/performance.md.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/task_scheduler.h"
#include "formats/parquet/file_reader.h"
#include "io/local_file.h"

namespace {

struct BenchConfig {
  std::string lineitem;
  std::string python;
  std::string duckdb_script;
  int threads = 2;
  int iterations = 5;
  int64_t rows = 0;
  double sqe_seconds = 0;     // mean per iteration
  double duckdb_seconds = 0;  // mean per iteration
};

BenchConfig& Config() {
  static BenchConfig config;
  return config;
}

std::string SourceDir() {
  const char* env = std::getenv("SQE_SOURCE_DIR");
  return env != nullptr ? env : SQE_DEFAULT_SOURCE_DIR;
}

int Run(const std::string& command) { return std::system(command.c_str()); }

sqe::Result<int64_t> DecodeOnce(const std::string& path, sqe::TaskScheduler* scheduler,
                                int threads) {
  SQE_ASSIGN_OR_RETURN(auto file, sqe::io::OpenLocalFile(path));
  sqe::parquet::ReaderOptions options;
  options.scheduler = scheduler;
  options.parallelism = threads;
  SQE_ASSIGN_OR_RETURN(auto reader, sqe::parquet::ParquetFileReader::Open(
                                        std::shared_ptr<sqe::io::RandomAccessFile>(std::move(file)),
                                        std::move(options)));
  SQE_ASSIGN_OR_RETURN(auto batches, reader->ReadAll());
  int64_t rows = 0;
  for (const auto& b : batches) rows += b.num_rows();
  return rows;
}

void BM_SqeDecodeLineitem(benchmark::State& state) {
  BenchConfig& c = Config();
  // The caller works too: threads - 1 helpers make `threads` decoding threads.
  std::unique_ptr<sqe::TaskScheduler> scheduler;
  if (c.threads > 1) scheduler = std::make_unique<sqe::TaskScheduler>(c.threads - 1);
  auto warm = DecodeOnce(c.lineitem, scheduler.get(), c.threads);
  if (!warm.ok()) {
    state.SkipWithError(warm.status().ToString().c_str());
    return;
  }
  int64_t rows = 0;
  double total = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    auto n = DecodeOnce(c.lineitem, scheduler.get(), c.threads);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!n.ok()) {
      state.SkipWithError(n.status().ToString().c_str());
      return;
    }
    rows = *n;
  }
  if (rows != c.rows) {
    state.SkipWithError(
        ("decoded " + std::to_string(rows) + " rows, the footer says " + std::to_string(c.rows))
            .c_str());
    return;
  }
  c.sqe_seconds = total / static_cast<double>(state.iterations());
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_DuckDBDecodeLineitem(benchmark::State& state) {
  BenchConfig& c = Config();
  std::string command = c.python + " " + c.duckdb_script + " '" + c.lineitem + "' " +
                        std::to_string(c.threads) + " " + std::to_string(state.max_iterations);
  FILE* pipe = ::popen(command.c_str(), "r");
  std::vector<double> times;
  if (pipe != nullptr) {
    double t;
    while (std::fscanf(pipe, "%lf", &t) == 1) times.push_back(t);
    ::pclose(pipe);
  }
  if (times.size() != static_cast<size_t>(state.max_iterations)) {
    state.SkipWithError(("DuckDB run failed: " + command).c_str());
    return;
  }
  size_t i = 0;
  double total = 0;
  for (auto _ : state) {
    state.SetIterationTime(times[i]);
    total += times[i++];
  }
  c.duckdb_seconds = total / static_cast<double>(times.size());
  state.counters["rows_per_s"] = benchmark::Counter(static_cast<double>(c.rows),
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

int main(int argc, char** argv) {
  BenchConfig& c = Config();
  std::string source = SourceDir();
  c.python = source + "/tests/peers/.venv/bin/python";
  c.duckdb_script = source + "/src/formats/parquet/duckdb_decode_benchmark.py";
  const char* data_dir = std::getenv("SQE_BENCH_DATA");
  c.lineitem = std::string(data_dir != nullptr ? data_dir : source + "/build/bench-data") +
               "/lineitem_sf1.parquet";
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* flag) -> const char* {
      size_t n = std::strlen(flag);
      return arg.compare(0, n, flag) == 0 ? argv[i] + n : nullptr;
    };
    if (const char* v = value("--threads=")) {
      c.threads = std::max(1, std::atoi(v));
    } else if (const char* v = value("--lineitem=")) {
      c.lineitem = v;
    } else if (const char* v = value("--iterations=")) {
      c.iterations = std::max(1, std::atoi(v));
    } else if (const char* v = value("--python=")) {
      c.python = v;
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (!std::filesystem::exists(c.lineitem)) {
    std::filesystem::create_directories(std::filesystem::path(c.lineitem).parent_path());
    std::cerr << "generating " << c.lineitem << " (TPC-H SF1 lineitem via DuckDB)...\n";
    if (Run(c.python + " " + c.duckdb_script + " --generate '" + c.lineitem + "'") != 0) {
      std::cerr << "cannot generate the benchmark file; is tests/peers/.venv installed "
                   "(scripts/install-deps.sh)?\n";
      return 1;
    }
  }
  {
    // Both benchmarks report rows/s of the file's row count, read from its footer.
    auto file = sqe::io::OpenLocalFile(c.lineitem);
    auto reader = file.ok() ? sqe::parquet::ParquetFileReader::Open(
                                  std::shared_ptr<sqe::io::RandomAccessFile>(std::move(*file)), {})
                            : file.status();
    if (!reader.ok()) {
      std::cerr << "cannot open " << c.lineitem << ": " << reader.status().ToString() << "\n";
      return 1;
    }
    c.rows = (*reader)->num_rows();
  }
  benchmark::RegisterBenchmark("parquet_decode/sqe/lineitem_sf1", BM_SqeDecodeLineitem)
      ->Iterations(c.iterations)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("parquet_decode/duckdb/lineitem_sf1", BM_DuckDBDecodeLineitem)
      ->Iterations(c.iterations)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (c.sqe_seconds > 0 && c.duckdb_seconds > 0) {
    double sqe_rate = static_cast<double>(c.rows) / c.sqe_seconds;
    double duck_rate = static_cast<double>(c.rows) / c.duckdb_seconds;
    std::printf(
        "\nlineitem SF1 (%lld rows), %d thread(s): sqe %.2f M rows/s, duckdb %.2f M rows/s, "
        "ratio sqe/duckdb %.2f\n",
        static_cast<long long>(c.rows), c.threads, sqe_rate / 1e6, duck_rate / 1e6,
        sqe_rate / duck_rate);
  }
  return 0;
}
