#pragma once
/// ResultCursor: the result of a statement started with Session::Start, pulled one batch
/// at a time by a protocol layer (Flight SQL DoGet streams each batch as it arrives).
///
/// Thread safety: Next() is called by one consumer thread; Cancel() from any thread.
/// Destroying a cursor stops its query and waits for its thread.

#include <cstdint>
#include <optional>
#include <string>

#include "columnar/batch.h"
#include "columnar/schema.h"
#include "common/result.h"

namespace sqe::engine {

class ResultCursor {
 public:
  virtual ~ResultCursor() = default;

  /// The result columns (empty for statements without rows).
  virtual const columnar::SchemaPtr& schema() const = 0;
  /// The next batch, waiting until the query produced it; nullopt at the end. A failed
  /// query returns its error (Cancelled after Cancel(), DeadlineExceeded on timeout).
  virtual Result<std::optional<columnar::Batch>> Next() = 0;
  /// Stops the query; a waiting Next() returns Cancelled.
  virtual void Cancel() = 0;

  /// "SELECT", "INSERT", ... (QueryResult::statement_type).
  virtual const std::string& statement_type() const = 0;
  /// Rows written by an update, -1 for queries.
  virtual int64_t update_count() const = 0;
  /// The most memory the query's tracker held so far, in bytes (0 for statements that ran
  /// before the cursor existed). Any thread.
  virtual int64_t peak_memory_bytes() const { return 0; }
  /// Bytes the query wrote to its spill files so far (0 when it did not spill). Any thread.
  virtual int64_t spilled_bytes() const { return 0; }
  /// CPU time the query's pipeline threads spent so far, in nanoseconds (0 for statements
  /// that ran before the cursor existed). Any thread.
  virtual int64_t cpu_nanos() const { return 0; }
};

}  // namespace sqe::engine
