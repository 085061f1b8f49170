#pragma once
/// LoadTpch: generates TPC-H tables with a TpchGenerator and streams them into a
/// DatasetSink on several threads. A table is cut into chunks of `chunk_units` units;
/// worker w generates chunks w, w + T, w + 2T, ... (T threads) and writes each through its
/// own SinkWriter, so memory stays bounded by a chunk and a writer's open row group per
/// thread, at any scale factor, and a given thread count always produces the same files.
/// Tables load one after another; each is committed once all its rows are written.

#include <cstdint>
#include <functional>
#include <vector>

#include "common/result.h"
#include "datagen/table_sink.h"
#include "datagen/tpch_generator.h"

namespace sqe::datagen {

/// What the loader reports while it works (from any of its threads, one call at a time).
struct TpchProgress {
  TpchTable table;
  int64_t units_done = 0;
  int64_t units_total = 0;
  int64_t rows_written = 0;
};

struct TpchLoadOptions {
  TpchOptions generator;
  /// Generating (and writing) threads, >= 1.
  int threads = 1;
  /// The tables to load (default: all eight).
  std::vector<TpchTable> tables;
  /// Units a chunk (lineitem: orders, about 4 lines each).
  int64_t chunk_units = 32768;
  std::function<void(const TpchProgress&)> progress;
};

/// One loaded table.
struct TpchTableReport {
  TpchTable table;
  int64_t rows = 0;
  double seconds = 0;
};

/// Loads the tables; stops at the first error (the failed table's files are removed;
/// tables committed before stay).
Result<std::vector<TpchTableReport>> LoadTpch(const TpchLoadOptions& options, DatasetSink& sink);

}  // namespace sqe::datagen
