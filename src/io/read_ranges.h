#pragma once
/// Read coalescing ([storage] coalesce_threshold): nearby byte ranges are merged into one
/// request when the hole between them is at most the threshold, so a Parquet reader
/// fetching many column chunks issues few large reads (few S3 GETs) instead of many
/// small ones; each requested range is then served as a zero-copy slice.

#include <cstdint>
#include <memory>
#include <vector>

#include "columnar/buffer.h"
#include "io/file.h"

namespace sqe::io {

/// Merges ranges whose gap is <= `hole_threshold` bytes, never producing a merged range
/// longer than `max_merged_length` (0: no cap) unless a single input range is longer.
/// Input order does not matter; zero-length ranges are dropped; output is sorted.
std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, int64_t hole_threshold,
                                      int64_t max_merged_length = 0);

struct ReadRangesOptions {
  int64_t hole_threshold = 1 << 20;        // [storage] coalesce_threshold
  int64_t max_merged_length = 64ll << 20;  // bound on a single request
  std::shared_ptr<MemoryTracker> tracker;
};

/// Reads every range of `ranges` with as few ReadAt calls as coalescing allows and
/// returns one buffer per input range, in input order (slices of the merged reads).
Result<std::vector<columnar::BufferPtr>> ReadRanges(RandomAccessFile& file,
                                                    const std::vector<ByteRange>& ranges,
                                                    const ReadRangesOptions& options = {});

}  // namespace sqe::io
