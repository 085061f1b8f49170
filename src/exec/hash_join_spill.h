#pragma once
/// JoinPartitionWriter: one side of a spilling hash join (the grace hash join of
/// hash_join.h) routed row by row to one spill file per hash partition. Rows are gathered
/// per partition and written once a partition holds `flush_rows` rows or `flush_bytes`
/// bytes, so the small slices that one input batch leaves in each of many partitions do
/// not become tiny IPC messages. Files are made on a partition's first row only.
///
/// The gathered rows are not charged to a memory tracker: they exist exactly when the
/// budget is spent, and they are bounded (partitions x flush_bytes, plus one batch).
///
/// Thread safety: Append and Finish lock one mutex (the probe threads of a join share a
/// writer); the getters may be called once Finish has returned.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "columnar/schema.h"
#include "common/result.h"
#include "exec/spill_file.h"

namespace sqe::exec {

/// Radix partitioning of join keys: 64 partitions a level, taken from the top bits of the
/// 64-bit key hash (KeyHashTable indexes its slots with the low bits and keeps the top
/// ones for this), six more bits at each level of re-partitioning.
constexpr int kJoinPartitionBits = 6;
constexpr int kJoinPartitions = 1 << kJoinPartitionBits;
/// Levels 0..kJoinMaxLevel use hash bits 40..63.
constexpr int kJoinMaxLevel = 3;

/// The partition of `hash` at re-partitioning `level` (0 = the first split).
inline int JoinPartitionOf(uint64_t hash, int level) {
  return static_cast<int>((hash >> (64 - kJoinPartitionBits * (level + 1))) &
                          (kJoinPartitions - 1));
}

class JoinPartitionWriter {
 public:
  /// Files go to `dir` named "<tag>-<n>.spill"; every byte written is added to `spilled`
  /// (optional) and to the directory's counter.
  JoinPartitionWriter(SpillDirectory* dir, std::string tag, columnar::SchemaPtr schema,
                      std::atomic<int64_t>* spilled, int64_t flush_rows, int64_t flush_bytes);
  ~JoinPartitionWriter();
  JoinPartitionWriter(const JoinPartitionWriter&) = delete;
  JoinPartitionWriter& operator=(const JoinPartitionWriter&) = delete;

  /// Appends row i of `batch` to partition part[i] (in [0, kJoinPartitions)); rows with
  /// part[i] < 0 are left out.
  Status Append(const columnar::Batch& batch, const int32_t* part);
  /// Writes what is gathered and closes every file (idempotent).
  Status Finish();

  /// Rows appended to partition `p`.
  int64_t rows(int p) const { return partitions_[p].rows; }
  /// The in-memory bytes of the rows appended to partition `p` (their gathered slices).
  int64_t bytes(int p) const { return partitions_[p].bytes; }
  /// The file of partition `p`; "" when it got no rows.
  const std::string& path(int p) const { return partitions_[p].path; }

 private:
  struct Partition {
    std::vector<columnar::Batch> gathered;
    int64_t gathered_rows = 0;
    int64_t gathered_bytes = 0;
    int64_t rows = 0;
    int64_t bytes = 0;
    std::string path;
    std::unique_ptr<SpillWriter> writer;
  };
  Status Flush(Partition& partition);

  SpillDirectory* dir_;
  const std::string tag_;
  const columnar::SchemaPtr schema_;
  std::atomic<int64_t>* spilled_;
  const int64_t flush_rows_;
  const int64_t flush_bytes_;
  std::mutex mutex_;
  bool finished_ = false;
  std::array<Partition, kJoinPartitions> partitions_;
};

/// Removes a spill file that has been read back (best effort: its SpillDirectory removes
/// whatever is left when the query ends).
void RemoveSpillFile(const std::string& path);

}  // namespace sqe::exec
