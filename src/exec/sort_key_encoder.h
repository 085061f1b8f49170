#pragma once
/// SortKey and normalized sort keys: each row's ORDER BY values packed, column at a time,
/// into a byte string whose memcmp order is the SQL order (per key: direction, NULLS
/// FIRST/LAST; numbers by value with NaN above everything as in Trino, -0.0 = 0.0;
/// strings and varbinary by unsigned bytes; decimals, dates, times, timestamps by value;
/// false < true). Sorting then compares rows with one memcmp, without per-type dispatch
/// or virtual calls. Per key: a marker byte (NULL: 0x00 when nulls first, 0x02 when
/// last; valid: 0x01), then the value: integers big-endian with the sign bit flipped,
/// doubles as order-preserving bits, strings with 0x00 escaped as 0x00 0xFF and ended by
/// 0x00 0x00; descending keys invert the value bytes. Arrays order lexicographically
/// (a prefix first) and rows field by field, NULL elements and fields after every
/// value (Trino refuses to order arrays and rows when a NULL element decides; SQE orders
/// them last instead); maps have no order.
///
/// Thread-safe (pure functions); the caller owns the outputs.

#include <cstdint>
#include <vector>

#include "columnar/batch.h"
#include "common/result.h"
#include "exec/row_key_encoder.h"

namespace sqe::exec {

/// One ORDER BY key: a column index of the input, its direction and where NULLs go
/// (Trino's default: NULLS LAST in both directions).
struct SortKey {
  int column;
  bool ascending = true;
  bool nulls_first = false;
  /// The key only groups rows (PARTITION BY): any comparable type is taken, a map (or a
  /// value holding one) as its grouping-key image, equal exactly for equal maps, in no
  /// meaningful order.
  bool group_only = false;
};

/// The normalized keys of rows [0, batch.num_rows()) into *out.
/// NotImplemented for a key whose type has no order (a map, or an array or row holding one)
/// unless the key is group_only.
Status EncodeSortKeys(const columnar::Batch& batch, const std::vector<SortKey>& keys,
                      EncodedRows* out);

/// Orders rows [0, keys.offsets.size() - 1) of `keys` into *order: all of them, or with
/// `limit` >= 0 only the first `limit` (partial sort). Compares 8 key bytes of each row (after the
/// bytes all rows share) as one integer held beside its index (no pointer chase for most
/// comparisons) and falls back to the whole key only on equal prefixes. Ties keep no particular
/// order.
void OrderEncodedRows(const EncodedRows& keys, int64_t limit, std::vector<uint32_t>* order);

/// Row indices of `batch` in key order: all of them, or with `limit` >= 0 only the first
/// `limit` (partial sort).
Result<std::vector<uint32_t>> SortedRowOrder(const columnar::Batch& batch,
                                             const std::vector<SortKey>& keys, int64_t limit = -1);

/// Orders encoded rows a and b: true when row a sorts before row b.
inline bool SortKeyLess(std::string_view a, std::string_view b) { return a < b; }

}  // namespace sqe::exec
