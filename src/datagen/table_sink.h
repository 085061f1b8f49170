#pragma once
/// Where generated tables go. A DatasetSink makes one TableSink per table; every
/// generating thread opens its own SinkWriter from it (so writes never contend), closes
/// it when done, and once all writers closed the loader calls Commit, which makes the
/// table's rows visible at once (an Iceberg snapshot) or just returns (plain files).
/// A SinkWriter destroyed without Close, or a TableSink destroyed without Commit,
/// removes what it wrote.

#include <memory>

#include "columnar/batch.h"
#include "common/result.h"
#include "datagen/tpch_schema.h"

namespace sqe::datagen {

/// One thread's writer. Single-owner.
class SinkWriter {
 public:
  virtual ~SinkWriter() = default;
  /// Rows with the table's TpchSchema.
  virtual Status Write(const columnar::Batch& batch) = 0;
  virtual Status Close() = 0;
};

/// One table being loaded. OpenWriter is thread-safe; Commit is called once, after every
/// writer closed successfully.
class TableSink {
 public:
  virtual ~TableSink() = default;
  virtual Result<std::unique_ptr<SinkWriter>> OpenWriter() = 0;
  virtual Status Commit() = 0;
};

class DatasetSink {
 public:
  virtual ~DatasetSink() = default;
  /// Prepares `table` (creates it; with replace semantics, drops the old one first).
  virtual Result<std::unique_ptr<TableSink>> BeginTable(TpchTable table) = 0;
};

}  // namespace sqe::datagen
