#pragma once
/// Interleave: assembles one column from rows of several same-typed columns, the merge
/// step of lazily evaluated CASE / COALESCE branches and of greatest / least. Typed loops
/// over raw buffers per layout (fixed width, boolean, var-binary); rows field by field,
/// arrays and maps by interleaving their elements (entries) one level down.

#include <cstdint>
#include <vector>

#include "columnar/column.h"
#include "common/result.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

/// Row i of the result is row row_in_piece[i] of pieces[piece_of_row[i]], or NULL when
/// piece_of_row[i] < 0. Every piece has type `type`.
Result<columnar::Column> Interleave(const columnar::TypePtr& type,
                                    const std::vector<columnar::Column>& pieces,
                                    const int32_t* piece_of_row, const uint32_t* row_in_piece,
                                    int64_t rows, const EvalContext& ctx);

}  // namespace sqe::exec
