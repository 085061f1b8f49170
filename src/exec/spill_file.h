#pragma once
/// Spill files: where pipeline breakers (Sort, HashAggregate, HashJoin) put what does not
/// fit in the query's memory budget, and how they read it back.
///
/// A spill file holds one Arrow schema and batches, each stored as Arrow IPC messages
/// (columnar/ipc, LZ4-compressed bodies). Each message is preceded by a 16-byte header
/// (metadata length, body length; little-endian int64), so the reader fetches exactly one
/// message at a time; a header with metadata length 0 ends the file. The files are private
/// to the process that writes them and never outlive its query.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "columnar/batch.h"
#include "columnar/ipc/stream_reader.h"
#include "columnar/schema.h"
#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::exec {

/// SpillDirectory: one query's private directory under worker.spill_dir
/// (<spill_dir>/sqe-<pid>-<process token>-<n>), made by Create, removed with everything in
/// it when the object is destroyed (the ExecContext owns it, so a finished, failed or
/// cancelled query leaves nothing behind). Thread-safe.
class SpillDirectory {
 public:
  /// Makes `root` (and its parents) when missing, then the query's directory in it.
  /// IOError naming the path when either cannot be made.
  static Result<std::unique_ptr<SpillDirectory>> Create(const std::string& root);
  ~SpillDirectory();
  SpillDirectory(const SpillDirectory&) = delete;
  SpillDirectory& operator=(const SpillDirectory&) = delete;

  /// The query's directory.
  const std::string& path() const { return path_; }
  /// A fresh file path inside the directory ("<tag>-<n>.spill"); nothing is created.
  std::string NewFilePath(std::string_view tag);

  /// Bytes written to spill files of this directory so far (SpillWriter adds to it when
  /// it was opened with this directory's counter).
  std::atomic<int64_t>& bytes_spilled() { return bytes_spilled_; }

  /// Removes directories under `root` left by processes that no longer run (crash
  /// recovery; called at engine start). Directories of live processes stay. Best effort:
  /// errors are logged, not returned.
  static void RemoveStale(const std::string& root);

 private:
  explicit SpillDirectory(std::string path) : path_(std::move(path)) {}

  const std::string path_;
  std::atomic<int64_t> next_file_{0};
  std::atomic<int64_t> bytes_spilled_{0};
};

/// `exceeded` (a refused memory reservation) as a query that could have spilled reports
/// it: unchanged when spilling is on (`spill_enabled`), else with the note that spilling
/// to disk is off (worker.spill_to_disk), once. Other errors (other codes, a result-rows
/// limit) pass through.
Status SpillOffError(bool spill_enabled, const Status& exceeded);

/// SpillWriter: appends batches to one spill file, in order; memory bounded by one
/// encoded batch. Single-owner, not thread-safe. A writer destroyed before Finish leaves
/// a partial file that its SpillDirectory removes.
class SpillWriter {
 public:
  /// Creates (truncates) the file at `path` and writes the schema message.
  /// `spilled` (optional) is increased by every byte written.
  static Result<std::unique_ptr<SpillWriter>> Open(std::string path, columnar::SchemaPtr schema,
                                                   std::atomic<int64_t>* spilled = nullptr);
  ~SpillWriter();
  SpillWriter(const SpillWriter&) = delete;
  SpillWriter& operator=(const SpillWriter&) = delete;

  /// Appends one batch (of the file's schema; empty batches are skipped).
  Status Append(const columnar::Batch& batch);
  /// Writes the end marker, flushes and closes; the file can then be read. Later Appends
  /// fail.
  Status Finish();

  const std::string& path() const { return path_; }
  int64_t bytes_written() const { return bytes_written_; }
  int64_t rows_written() const { return rows_written_; }

 private:
  SpillWriter(std::string path, int fd, columnar::SchemaPtr schema, std::atomic<int64_t>* spilled)
      : path_(std::move(path)), fd_(fd), schema_(std::move(schema)), spilled_(spilled) {}
  Status WriteMessage(std::string_view metadata, std::string_view body);
  Status Flush();
  Status Close();

  std::string path_;
  int fd_ = -1;
  columnar::SchemaPtr schema_;
  std::atomic<int64_t>* spilled_;
  std::string buffer_;  // bytes not yet written to fd_
  int64_t bytes_written_ = 0;
  int64_t rows_written_ = 0;
};

/// SpillReader: reads a finished spill file back one batch at a time. The decoded
/// buffers are charged to `tracker` (optional). Single-owner, not thread-safe.
class SpillReader {
 public:
  static Result<std::unique_ptr<SpillReader>> Open(
      std::string path, std::shared_ptr<MemoryTracker> tracker = nullptr);
  ~SpillReader();
  SpillReader(const SpillReader&) = delete;
  SpillReader& operator=(const SpillReader&) = delete;

  const columnar::SchemaPtr& schema() const { return decoder_.schema(); }
  /// The next batch; nullopt at the end. Corruption for a truncated or damaged file.
  Result<std::optional<columnar::Batch>> Next();

 private:
  SpillReader(std::string path, int fd, std::shared_ptr<MemoryTracker> tracker);
  /// Reads and decodes one message; false at the end marker.
  Result<bool> ReadMessage();
  Status ReadExactly(void* out, int64_t length);

  std::string path_;
  int fd_ = -1;
  std::shared_ptr<MemoryTracker> tracker_;
  columnar::ipc::StreamDecoder decoder_;
  int64_t offset_ = 0;
  bool done_ = false;
};

}  // namespace sqe::exec
