// Arrow IPC encode micro-benchmark: EncodeBatch (the RecordBatch message a Flight DoGet
// sends) of 1M lineitem-like rows in 64K-row batches (bigint, decimal(15,2), date and a
// short varchar) on one thread, with body compression none / lz4 (LZ4_FRAME) / zstd (level 1), and
// with strings dictionary-encoded. Reports rows/s, input MB/s (the columns' Arrow buffer
// bytes) and the compressed size as a share of the uncompressed body.
//
//   build/release/src/columnar/ipc/ipc_encode_benchmark [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include "columnar/benchmark_columns.h"
#include "columnar/ipc/stream_writer.h"

namespace sqe::columnar::ipc {
namespace {

namespace bm = columnar::benchmarking;

constexpr int64_t kRows = 1 << 20;

const std::vector<Batch>& Batches() {
  static const auto* batches = new std::vector<Batch>(
      bm::CutIntoBatches({bm::RandomInt64Column(kRows, int64_t{1} << 32, 21),
                          bm::RandomDecimalColumn(kRows, 90000, 10495000, 22),
                          bm::RandomDateColumn(kRows, 23), bm::RandomStringColumn(kRows, 4, 24)},
                         65536));
  return *batches;
}

int64_t BodyBytes(const WriteOptions& options) {
  int64_t bytes = 0;
  for (const auto& batch : Batches()) {
    for (const auto& m : bm::OrDie(EncodeBatch(batch, options))) {
      bytes += static_cast<int64_t>(m.body.size());
    }
  }
  return bytes;
}

void BM_EncodeBatch(benchmark::State& state) {
  WriteOptions options;
  options.compression = static_cast<Compression>(state.range(0));
  options.dictionary_encode_strings = state.range(1) != 0;
  const int64_t plain = BodyBytes(WriteOptions{});
  int64_t body = 0;
  for (auto _ : state) {
    body = 0;
    for (const auto& batch : Batches()) {
      for (const auto& m : bm::OrDie(EncodeBatch(batch, options))) {
        body += static_cast<int64_t>(m.body.size());
      }
    }
  }
  state.SetLabel(std::string(CompressionName(options.compression)) +
                 (options.dictionary_encode_strings ? "+dict" : ""));
  state.counters["body_ratio"] = static_cast<double>(body) / static_cast<double>(plain);
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(kRows), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(plain) / 1e6,
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_EncodeBatch)
    ->ArgNames({"codec", "dict"})
    ->Args({static_cast<int>(Compression::kNone), 0})
    ->Args({static_cast<int>(Compression::kLz4Frame), 0})
    ->Args({static_cast<int>(Compression::kZstd), 0})
    ->Args({static_cast<int>(Compression::kNone), 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sqe::columnar::ipc

BENCHMARK_MAIN();
