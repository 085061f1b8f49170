#pragma once
/// Record assembly (the Dremel algorithm in reverse): turns the level streams and dense
/// values of a field's leaves (column_chunk_reader.h) into one Arrow-layout Column for
/// the field's whole type tree: structs, lists (the 3-level form and every legacy form
/// schema_mapping accepts, which map onto the same level structure), maps, and nulls at
/// every level (a null list, an empty list and a list of one null element differ only in
/// their definition levels). Each node's levels follow from the columnar Field tree the
/// schema mapping built: a nullable field adds one definition level, a list or map adds
/// one definition and one repetition level for its repeated group.
///
/// Inconsistent levels (leaves disagreeing on the slot count, repetition inside an absent
/// list, fewer values than defined slots) are Corruption; the assembly never reads past
/// a buffer. Stateless; thread-safe.

#include <cstdint>
#include <memory>
#include <span>

#include "columnar/column.h"
#include "columnar/data_type.h"
#include "common/memory_tracker.h"
#include "common/result.h"
#include "formats/parquet/column_chunk_reader.h"
#include "formats/parquet/schema_mapping.h"

namespace sqe::parquet {

/// The number of leaf (non-nested) columns under `type` (1 for a primitive type).
int CountLeaves(const columnar::DataType& type);

/// Assembles top-level `field` from its leaves, given in file (depth-first) order with
/// their descriptors; both spans hold CountLeaves(*field.type()) entries. `num_rows` is
/// the row count every leaf must agree on. Leaf values are shared, not copied, where the
/// layout allows (no nulls; string data).
Result<columnar::Column> AssembleColumn(const columnar::Field& field,
                                        std::span<const ColumnDescriptor* const> descriptors,
                                        std::span<const LeafData> leaves, int64_t num_rows,
                                        std::shared_ptr<MemoryTracker> tracker = nullptr);

}  // namespace sqe::parquet
