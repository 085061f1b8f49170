#pragma once
/// The offsets bookkeeping ListBuilder and MapBuilder share: one int32 start per row,
/// plus the final end written at Finish. Private to src/columnar.

#include <cstdint>
#include <limits>
#include <memory>

#include "columnar/bitmap_builder.h"
#include "columnar/buffer_builder.h"
#include "columnar/data_type.h"

namespace sqe::columnar {

inline Status CheckListChildLength(const DataType& type, int64_t child_length) {
  if (child_length > std::numeric_limits<int32_t>::max()) {
    return Status::ResourceExhausted(type.ToString() +
                                     " column would hold more than 2147483647 elements (int32 "
                                     "offsets); split the rows over several columns");
  }
  return Status::OK();
}

/// Appends `rows` rows starting at `child_length` (valid or null). All-or-nothing.
inline Status AppendListStarts(const DataType& type, int64_t child_length, int64_t rows, bool valid,
                               BufferBuilder* offsets, ValidityBuilder* validity) {
  SQE_RETURN_NOT_OK(CheckListChildLength(type, child_length));
  SQE_RETURN_NOT_OK(offsets->Reserve(rows * int64_t{sizeof(int32_t)}));
  SQE_RETURN_NOT_OK(valid ? validity->AppendValidN(rows) : validity->AppendNullN(rows));
  for (int64_t i = 0; i < rows; ++i) offsets->UnsafeAppendValue(static_cast<int32_t>(child_length));
  return Status::OK();
}

/// Writes the final end offset and hands over the offsets buffer.
inline Result<std::shared_ptr<Buffer>> FinishListOffsets(const DataType& type, int64_t child_length,
                                                         BufferBuilder* offsets) {
  SQE_RETURN_NOT_OK(CheckListChildLength(type, child_length));
  SQE_RETURN_NOT_OK(offsets->AppendValue(static_cast<int32_t>(child_length)));
  return offsets->Finish();
}

}  // namespace sqe::columnar
