#include "exec/hash_join_spill.h"

#include <unistd.h>

#include "columnar/selection_vector.h"
#include "columnar/take.h"
#include "exec/batch_concatenate.h"

namespace sqe::exec {

JoinPartitionWriter::JoinPartitionWriter(SpillDirectory* dir, std::string tag,
                                         columnar::SchemaPtr schema, std::atomic<int64_t>* spilled,
                                         int64_t flush_rows, int64_t flush_bytes)
    : dir_(dir),
      tag_(std::move(tag)),
      schema_(std::move(schema)),
      spilled_(spilled),
      flush_rows_(flush_rows),
      flush_bytes_(flush_bytes) {}

JoinPartitionWriter::~JoinPartitionWriter() = default;

Status JoinPartitionWriter::Append(const columnar::Batch& batch, const int32_t* part) {
  const int64_t n = batch.num_rows();
  if (n == 0) return Status::OK();
  std::array<std::vector<uint32_t>, kJoinPartitions> rows;
  for (int64_t i = 0; i < n; ++i) {
    if (part[i] >= 0) rows[part[i]].push_back(static_cast<uint32_t>(i));
  }
  // Gather outside the lock; only the bookkeeping and the writes are serialized.
  std::array<columnar::Batch, kJoinPartitions> slices;
  for (int p = 0; p < kJoinPartitions; ++p) {
    if (rows[p].empty()) continue;
    if (static_cast<int64_t>(rows[p].size()) == n) {
      slices[p] = batch;
    } else {
      SQE_ASSIGN_OR_RETURN(slices[p],
                           columnar::Take(batch, columnar::SelectionVector(std::move(rows[p]))));
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return Status::Internal("join spill partitions appended to after Finish");
  for (int p = 0; p < kJoinPartitions; ++p) {
    if (slices[p].num_rows() == 0) continue;
    Partition& partition = partitions_[p];
    partition.rows += slices[p].num_rows();
    partition.gathered_rows += slices[p].num_rows();
    const int64_t bytes = BatchBytes(slices[p]);
    partition.bytes += bytes;
    partition.gathered_bytes += bytes;
    partition.gathered.push_back(std::move(slices[p]));
    if (partition.gathered_rows >= flush_rows_ || partition.gathered_bytes >= flush_bytes_) {
      SQE_RETURN_NOT_OK(Flush(partition));
    }
  }
  return Status::OK();
}

Status JoinPartitionWriter::Flush(Partition& partition) {
  if (partition.gathered.empty()) return Status::OK();
  if (partition.writer == nullptr) {
    partition.path = dir_->NewFilePath(tag_);
    SQE_ASSIGN_OR_RETURN(partition.writer, SpillWriter::Open(partition.path, schema_, spilled_));
  }
  if (partition.gathered.size() == 1) {
    SQE_RETURN_NOT_OK(partition.writer->Append(partition.gathered[0]));
  } else {
    SQE_ASSIGN_OR_RETURN(columnar::Batch merged, Concatenate(schema_, partition.gathered, nullptr));
    SQE_RETURN_NOT_OK(partition.writer->Append(merged));
  }
  partition.gathered.clear();
  partition.gathered_rows = 0;
  partition.gathered_bytes = 0;
  return Status::OK();
}

Status JoinPartitionWriter::Finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return Status::OK();
  finished_ = true;
  for (Partition& partition : partitions_) {
    SQE_RETURN_NOT_OK(Flush(partition));
    if (partition.writer == nullptr) continue;
    SQE_RETURN_NOT_OK(partition.writer->Finish());
    dir_->bytes_spilled().fetch_add(partition.writer->bytes_written(), std::memory_order_relaxed);
    partition.writer.reset();
  }
  return Status::OK();
}

void RemoveSpillFile(const std::string& path) {
  if (!path.empty()) ::unlink(path.c_str());
}

}  // namespace sqe::exec
