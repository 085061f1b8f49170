#include "io/read_ranges.h"

#include <algorithm>

namespace sqe::io {

std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, int64_t hole_threshold,
                                      int64_t max_merged_length) {
  std::erase_if(ranges, [](const ByteRange& r) { return r.length <= 0; });
  std::sort(ranges.begin(), ranges.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> out;
  for (const ByteRange& r : ranges) {
    if (!out.empty()) {
      ByteRange& last = out.back();
      int64_t merged_end = std::max(last.end(), r.end());
      bool close = r.offset <= last.end() + hole_threshold;
      bool fits = max_merged_length <= 0 || merged_end - last.offset <= max_merged_length;
      if (close && (fits || r.offset < last.end())) {
        last.length = merged_end - last.offset;
        continue;
      }
    }
    out.push_back(r);
  }
  return out;
}

Result<std::vector<columnar::BufferPtr>> ReadRanges(RandomAccessFile& file,
                                                    const std::vector<ByteRange>& ranges,
                                                    const ReadRangesOptions& options) {
  for (const ByteRange& r : ranges) {
    if (r.offset < 0 || r.length < 0) {
      return Status::InvalidArgument("invalid read range at offset " + std::to_string(r.offset) +
                                     " length " + std::to_string(r.length) + " of " + file.path());
    }
  }
  std::vector<ByteRange> merged =
      CoalesceRanges(ranges, options.hole_threshold, options.max_merged_length);
  // Every merged range in one ReadAtMany call: a store with request latency (S3) runs
  // them concurrently.
  std::vector<columnar::BufferPtr> reads;
  std::vector<uint8_t*> outs;
  reads.reserve(merged.size());
  outs.reserve(merged.size());
  for (const ByteRange& m : merged) {
    SQE_ASSIGN_OR_RETURN(auto buffer,
                         columnar::Buffer::AllocateUninitialized(m.length, options.tracker));
    outs.push_back(buffer->mutable_data());
    reads.push_back(std::move(buffer));
  }
  SQE_RETURN_NOT_OK(file.ReadAtMany(merged, outs));
  std::vector<columnar::BufferPtr> out;
  out.reserve(ranges.size());
  for (const ByteRange& r : ranges) {
    if (r.length == 0) {
      SQE_ASSIGN_OR_RETURN(auto empty, columnar::Buffer::Allocate(0));
      out.push_back(std::move(empty));
      continue;
    }
    // The merged range containing r: the last one starting at or before r.offset.
    auto it = std::upper_bound(merged.begin(), merged.end(), r.offset,
                               [](int64_t off, const ByteRange& m) { return off < m.offset; });
    size_t index = static_cast<size_t>(std::distance(merged.begin(), it)) - 1;
    out.push_back(columnar::Buffer::Slice(reads[index], r.offset - merged[index].offset, r.length));
  }
  return out;
}

}  // namespace sqe::io
