#pragma once
/// Level shredding (the Dremel algorithm): turns one top-level Arrow-layout Column into
/// the repetition / definition level streams of each of its leaves, plus the index of
/// every defined value in the leaf's values column. A nullable field adds one definition
/// level; a list or map adds one definition and one repetition level for its repeated
/// group; this matches the 3-level schema ToParquetSchema writes. Stateless; thread-safe.

#include <cstdint>
#include <vector>

#include "columnar/column.h"
#include "columnar/data_type.h"
#include "common/result.h"

namespace sqe::parquet {

/// The shredded form of one leaf.
struct ShreddedLeaf {
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  /// One entry per level entry with def == max: the row of `values` holding the value.
  std::vector<int64_t> value_rows;
  /// The leaf's primitive column (value_rows index it).
  columnar::Column values;
  int16_t max_def = 0;
  int16_t max_rep = 0;
};

/// Shreds `column` (the data of `field`) into its leaves in depth-first order.
Result<std::vector<ShreddedLeaf>> ShredColumn(const columnar::Field& field,
                                              const columnar::Column& column);

}  // namespace sqe::parquet
