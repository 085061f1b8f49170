// CAST(row AS ROW(...)): each field cast on its own column, the row's validity kept, and
// rows whose field failed reported (CAST) or nulled (TRY_CAST).

#include "exec/functions/cast_row.h"

#include <cstring>
#include <string>
#include <vector>

#include "columnar/bit_util.h"
#include "exec/functions/cast.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/row_functions.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;

bool CanCastRow(const TypePtr& from, const TypePtr& to,
                bool (*can_cast)(const TypePtr&, const TypePtr&)) {
  if (from->id() != TypeId::kStruct || to->id() != TypeId::kStruct) return false;
  if (from->num_fields() != to->num_fields()) return false;
  for (int f = 0; f < to->num_fields(); ++f) {
    if (IsUnknownRowField(from->field(f))) continue;  // an untyped NULL casts to anything
    if (!can_cast(from->field(f).type(), to->field(f).type())) return false;
  }
  return true;
}

Result<Column> CastRow(const Column& input, const TypePtr& to, bool try_cast,
                       const EvalContext& ctx) {
  if (!CanCastRow(input.type(), to, &CanCast)) {
    return Status::NotImplemented("Cannot cast " + input.type()->ToString() + " to " +
                                  to->ToString());
  }
  const int64_t rows = input.length();
  std::vector<uint8_t> failed(static_cast<size_t>(rows), 0);
  bool any_failed = false;
  std::vector<Column> fields;
  for (int f = 0; f < to->num_fields(); ++f) {
    // The field's values line up with the row's (struct children share its offset);
    // values under a NULL row may be anything, so only valid rows count as failures.
    const Column source = input.StructField(f);
    const TypePtr& target = to->field(f).type();
    if (IsUnknownRowField(input.type()->field(f))) {
      SQE_ASSIGN_OR_RETURN(Column nulls, Column::MakeAllNull(target, rows, ctx.tracker));
      fields.push_back(std::move(nulls));
      continue;
    }
    SQE_ASSIGN_OR_RETURN(Column cast, CastColumn(source, target, true, ctx));
    for (int64_t i = 0; i < rows; ++i) {
      if (input.IsNull(i) || source.IsNull(i) || !cast.IsNull(i)) continue;
      if (!try_cast) {
        // Cast the one value again without try to get its own message.
        Result<Column> alone = CastColumn(source.Slice(i, 1), target, false, ctx);
        return alone.ok() ? Status::InvalidArgument("Cannot cast " + input.type()->ToString() +
                                                    " to " + to->ToString())
                          : alone.status();
      }
      failed[i] = 1;
      any_failed = true;
    }
    fields.push_back(std::move(cast));
  }
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(columnar::BufferPtr validity,
                       kernel::IntersectValidity({&input}, rows, ctx, &nulls));
  if (any_failed) {
    SQE_ASSIGN_OR_RETURN(auto bits, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
    if (validity != nullptr) {
      std::memcpy(bits->mutable_data(), validity->data(), columnar::BytesForBits(rows));
    } else {
      columnar::SetBitsTo(bits->mutable_data(), 0, rows, true);
    }
    for (int64_t i = 0; i < rows; ++i) {
      if (failed[i] && columnar::GetBit(bits->data(), i)) {
        columnar::ClearBit(bits->mutable_data(), i);
        ++nulls;
      }
    }
    validity = std::move(bits);
  }
  return Column::Make(to, rows, {nulls == 0 ? nullptr : std::move(validity)}, std::move(fields),
                      nulls, 0);
}

}  // namespace sqe::exec
