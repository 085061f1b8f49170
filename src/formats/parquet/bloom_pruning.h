#pragma once
/// Row-group pruning on split-block Bloom filters (BloomFilter.md) for = and IN: a row
/// group is out when the filter of the predicate's column chunk rules out every literal.
/// The probes are the literals' PLAIN encodings computed at bind time (BoundValue::probes);
/// a literal without probes (NaN, BYTE_ARRAY decimals, floats with no exact float32) keeps
/// the row group. ReadBloomFilter loads a chunk's filter through io::RandomAccessFile.

#include <cstdint>
#include <optional>
#include <span>

#include "common/result.h"
#include "formats/parquet/bloom_filter.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/predicate.h"
#include "io/file.h"

namespace sqe::parquet {

/// Whether `predicate` can use a Bloom filter at all (= or IN).
bool UsesBloomFilter(const BoundPredicate& predicate);

/// Whether a chunk whose filter is `filter` may hold a value the predicate accepts.
/// Always true for predicates other than = and IN.
bool BloomMayMatch(const BoundPredicate& predicate, const SplitBlockBloomFilter& filter);

/// I/O done while loading filters, for the reader's statistics.
struct BloomReadCounters {
  int64_t bytes_read = 0;
  int64_t read_requests = 0;
};

/// The chunk's filter (header at bloom_filter_offset, then the bitset), or nullopt when the
/// chunk has none or it uses an algorithm we do not know. IOError from the file,
/// Corruption for a malformed header or a bitset that does not fit the file.
Result<std::optional<SplitBlockBloomFilter>> ReadBloomFilter(io::RandomAccessFile& file,
                                                             const ColumnMetaData& column,
                                                             BloomReadCounters* counters = nullptr);

/// Checks every = / IN predicate of the conjunction against its chunk's filter in row
/// group `row_group`; false when one rules the row group out.
Result<bool> RowGroupBloomMayMatch(io::RandomAccessFile& file, const RowGroup& row_group,
                                   std::span<const BoundPredicate> conjunction,
                                   BloomReadCounters* counters = nullptr);

}  // namespace sqe::parquet
