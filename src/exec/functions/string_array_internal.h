#pragma once
/// MapToStringArray: the row-wise driver of kernels that return array(varchar) (split,
/// regexp_extract_all, regexp_split). Private to exec/functions.

#include <string_view>
#include <vector>

#include "columnar/binary_builder.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec::kernel {

/// The piece that stands for a NULL element (compared by address).
inline std::string_view NullPiece() {
  static const char kNull[1] = {0};
  return std::string_view(kNull, 0);
}
inline bool IsNullPiece(std::string_view p) { return p.data() == NullPiece().data(); }

/// Builds an array(varchar) column of `rows` rows: fn(i, &pieces, &is_null) -> Status runs
/// for rows whose arguments are all valid and fills `pieces` (views that must stay valid
/// until fn's next call, e.g. into the argument strings) or sets *is_null; NullPiece() makes a NULL
/// element.
template <typename Fn>
Result<Column> MapToStringArray(const std::vector<Column>& args, int64_t rows,
                                const EvalContext& ctx, Fn&& fn) {
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(BufferPtr validity, IntersectValidity(args, rows, ctx, &nulls));
  SQE_ASSIGN_OR_RETURN(auto own_validity, AllocateBuffer(columnar::BytesForBits(rows), ctx));
  SQE_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer((rows + 1) * 4, ctx));
  int32_t* off = offsets->mutable_data_as<int32_t>();
  columnar::BinaryBuilder elements(columnar::String(), ctx.tracker);
  std::vector<std::string_view> pieces;
  int64_t count = 0;
  nulls = 0;
  off[0] = 0;
  for (int64_t i = 0; i < rows; ++i) {
    bool is_null = !ValidAt(validity, i);
    if (!is_null) {
      pieces.clear();
      SQE_RETURN_NOT_OK(fn(i, &pieces, &is_null));
    }
    if (is_null) {
      ++nulls;
    } else {
      columnar::SetBit(own_validity->mutable_data(), i);
      for (std::string_view p : pieces) {
        SQE_RETURN_NOT_OK(IsNullPiece(p) ? elements.AppendNull() : elements.Append(p));
      }
      count += static_cast<int64_t>(pieces.size());
      if (count > INT32_MAX) {
        return Status::ResourceExhausted("array column larger than 2^31 elements");
      }
    }
    off[i + 1] = static_cast<int32_t>(count);
  }
  SQE_ASSIGN_OR_RETURN(Column child, elements.Finish());
  return Column::Make(columnar::List(columnar::String()), rows,
                      {nulls == 0 ? nullptr : std::move(own_validity), std::move(offsets)},
                      {std::move(child)}, nulls);
}

}  // namespace sqe::exec::kernel
