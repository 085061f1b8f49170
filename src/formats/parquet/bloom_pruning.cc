#include "formats/parquet/bloom_pruning.h"

#include <algorithm>
#include <string>

namespace sqe::parquet {
namespace {

// A BloomFilterHeader is four small thrift fields; this covers it with room to spare.
constexpr int64_t kHeaderReadSize = 64;

Status ReadRange(io::RandomAccessFile& file, int64_t offset, int64_t length, std::string* out,
                 BloomReadCounters* counters) {
  out->resize(static_cast<size_t>(length));
  SQE_RETURN_NOT_OK(file.ReadAt(offset, length, reinterpret_cast<uint8_t*>(out->data())));
  if (counters != nullptr) {
    counters->bytes_read += length;
    ++counters->read_requests;
  }
  return Status::OK();
}

}  // namespace

bool UsesBloomFilter(const BoundPredicate& p) {
  return p.op == PredicateOp::kEq || p.op == PredicateOp::kIn;
}

bool BloomMayMatch(const BoundPredicate& p, const SplitBlockBloomFilter& filter) {
  if (!UsesBloomFilter(p)) return true;
  for (const BoundValue& v : p.values) {
    if (!v.representable) continue;
    if (v.probes.empty()) return true;
    for (const std::string& probe : v.probes) {
      if (filter.MightContain(XxHash64(probe))) return true;
    }
  }
  return false;
}

Result<std::optional<SplitBlockBloomFilter>> ReadBloomFilter(io::RandomAccessFile& file,
                                                             const ColumnMetaData& column,
                                                             BloomReadCounters* counters) {
  if (!column.bloom_filter_offset) return std::optional<SplitBlockBloomFilter>();
  const int64_t offset = *column.bloom_filter_offset;
  SQE_ASSIGN_OR_RETURN(int64_t size, file.Size());
  if (offset < 0 || offset >= size) {
    return Status::Corruption("parquet bloom filter of column '" +
                              (column.path_in_schema.empty() ? "" : column.path_in_schema.back()) +
                              "' at offset " + std::to_string(offset) + " is outside the " +
                              std::to_string(size) + "-byte file " + file.path());
  }
  // With bloom_filter_length the whole filter is one read; otherwise header, then bitset.
  int64_t first = std::min<int64_t>(size - offset, kHeaderReadSize);
  if (column.bloom_filter_length && *column.bloom_filter_length > 0) {
    first = std::min<int64_t>(size - offset, *column.bloom_filter_length);
  }
  std::string bytes;
  SQE_RETURN_NOT_OK(ReadRange(file, offset, first, &bytes, counters));
  size_t consumed = 0;
  SQE_ASSIGN_OR_RETURN(BloomFilterHeader header,
                       DecodeThrift<BloomFilterHeader>(bytes, offset, &consumed));
  if (header.algorithm != 1 || header.hash != 1 || header.compression != 1) {
    return std::optional<SplitBlockBloomFilter>();  // a filter we cannot probe prunes nothing
  }
  if (header.num_bytes <= 0 || header.num_bytes > SplitBlockBloomFilter::kMaxBytes ||
      static_cast<int64_t>(consumed) + header.num_bytes > size - offset) {
    return Status::Corruption("parquet bloom filter at offset " + std::to_string(offset) + " of " +
                              file.path() + ": bitset of " + std::to_string(header.num_bytes) +
                              " bytes does not fit the file");
  }
  std::string bitset;
  const int64_t have = static_cast<int64_t>(bytes.size() - consumed);
  if (have >= header.num_bytes) {
    bitset = bytes.substr(consumed, static_cast<size_t>(header.num_bytes));
  } else {
    bitset = bytes.substr(consumed);
    std::string rest;
    SQE_RETURN_NOT_OK(ReadRange(file, offset + static_cast<int64_t>(bytes.size()),
                                header.num_bytes - have, &rest, counters));
    bitset += rest;
  }
  SQE_ASSIGN_OR_RETURN(SplitBlockBloomFilter filter,
                       SplitBlockBloomFilter::FromFile(header, std::move(bitset)));
  return std::optional<SplitBlockBloomFilter>(std::move(filter));
}

Result<bool> RowGroupBloomMayMatch(io::RandomAccessFile& file, const RowGroup& row_group,
                                   std::span<const BoundPredicate> conjunction,
                                   BloomReadCounters* counters) {
  for (const BoundPredicate& p : conjunction) {
    if (!UsesBloomFilter(p)) continue;
    if (p.column < 0 || static_cast<size_t>(p.column) >= row_group.columns.size()) continue;
    const ColumnChunk& chunk = row_group.columns[p.column];
    if (!chunk.meta_data || !chunk.meta_data->bloom_filter_offset) continue;
    SQE_ASSIGN_OR_RETURN(auto filter, ReadBloomFilter(file, *chunk.meta_data, counters));
    if (filter && !BloomMayMatch(p, *filter)) return false;
  }
  return true;
}

}  // namespace sqe::parquet
