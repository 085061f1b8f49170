#include "exec/functions/interleave.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "columnar/take.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::Layout;

namespace {

template <typename T>
void CopyFixed(const std::vector<Column>& pieces, const int32_t* piece_of_row,
               const uint32_t* row_in_piece, int64_t rows, T* out) {
  std::vector<const T*> src(pieces.size());
  for (size_t k = 0; k < pieces.size(); ++k) src[k] = pieces[k].Values<T>();
  for (int64_t i = 0; i < rows; ++i) {
    const int32_t p = piece_of_row[i];
    out[i] = p < 0 ? T{} : src[p][row_in_piece[i]];
  }
}

/// The one piece every row with a piece takes it from (-1 when no row has one), or
/// nullopt when the rows take from several pieces.
std::optional<int32_t> OnlyPiece(const int32_t* piece_of_row, int64_t rows) {
  int32_t only = -1;
  for (int64_t i = 0; i < rows; ++i) {
    if (piece_of_row[i] < 0) continue;
    if (only >= 0 && piece_of_row[i] != only) return std::nullopt;
    only = piece_of_row[i];
  }
  return only;
}

}  // namespace

Result<Column> Interleave(const columnar::TypePtr& type, const std::vector<Column>& pieces,
                          const int32_t* piece_of_row, const uint32_t* row_in_piece, int64_t rows,
                          const EvalContext& ctx) {
  // Validity first: null where no piece or the piece's row is null.
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const int32_t p = piece_of_row[i];
    if (p >= 0 && pieces[p].IsValid(row_in_piece[i])) {
      columnar::SetBit(validity->mutable_data(), i);
    } else {
      ++nulls;
    }
  }
  columnar::BufferPtr valid = nulls == 0 ? nullptr : columnar::BufferPtr(validity);
  switch (type->layout()) {
    case Layout::kFixedWidth: {
      const int32_t width = type->byte_width();
      SQE_ASSIGN_OR_RETURN(auto values, kernel::AllocateBuffer(rows * width, ctx));
      uint8_t* out = values->mutable_data();
      switch (width) {
        case 1:
          CopyFixed(pieces, piece_of_row, row_in_piece, rows, reinterpret_cast<int8_t*>(out));
          break;
        case 2:
          CopyFixed(pieces, piece_of_row, row_in_piece, rows, reinterpret_cast<int16_t*>(out));
          break;
        case 4:
          CopyFixed(pieces, piece_of_row, row_in_piece, rows, reinterpret_cast<int32_t*>(out));
          break;
        case 8:
          CopyFixed(pieces, piece_of_row, row_in_piece, rows, reinterpret_cast<int64_t*>(out));
          break;
        case 16:
          CopyFixed(pieces, piece_of_row, row_in_piece, rows,
                    reinterpret_cast<columnar::Decimal128*>(out));
          break;
        default:
          for (int64_t i = 0; i < rows; ++i) {
            const int32_t p = piece_of_row[i];
            if (p < 0) continue;
            std::memcpy(out + i * width, pieces[p].FixedSizeBinaryAt(row_in_piece[i]).data(),
                        width);
          }
      }
      return kernel::MakeFixed(type, rows, valid, nulls, std::move(values));
    }
    case Layout::kBitmap: {
      SQE_ASSIGN_OR_RETURN(auto bits, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
      for (int64_t i = 0; i < rows; ++i) {
        const int32_t p = piece_of_row[i];
        if (p >= 0 && pieces[p].BoolAt(row_in_piece[i])) columnar::SetBit(bits->mutable_data(), i);
      }
      return Column::Make(type, rows, {valid, std::move(bits)}, {}, nulls);
    }
    case Layout::kVarBinary: {
      SQE_ASSIGN_OR_RETURN(auto offsets, kernel::AllocateBuffer((rows + 1) * 4, ctx));
      int32_t* off = offsets->mutable_data_as<int32_t>();
      int64_t total = 0;
      off[0] = 0;
      for (int64_t i = 0; i < rows; ++i) {
        const int32_t p = piece_of_row[i];
        if (p >= 0) total += static_cast<int64_t>(pieces[p].StringAt(row_in_piece[i]).size());
        if (total > INT32_MAX) {
          return Status::ResourceExhausted("string column larger than 2 GiB");
        }
        off[i + 1] = static_cast<int32_t>(total);
      }
      SQE_ASSIGN_OR_RETURN(auto data, kernel::AllocateBuffer(total, ctx));
      uint8_t* d = data->mutable_data();
      for (int64_t i = 0; i < rows; ++i) {
        const int32_t p = piece_of_row[i];
        if (p < 0) continue;
        const std::string_view s = pieces[p].StringAt(row_in_piece[i]);
        if (!s.empty()) std::memcpy(d + off[i], s.data(), s.size());
      }
      return Column::Make(type, rows, {valid, std::move(offsets), std::move(data)}, {}, nulls);
    }
    default:
      break;
  }
  if (type->id() == columnar::TypeId::kStruct && type->num_fields() > 0) {
    // Rows: field by field from the pieces' fields (a struct's fields line up with its rows).
    std::vector<Column> fields;
    std::vector<Column> piece_fields(pieces.size());
    for (int f = 0; f < type->num_fields(); ++f) {
      for (size_t k = 0; k < pieces.size(); ++k) piece_fields[k] = pieces[k].StructField(f);
      SQE_ASSIGN_OR_RETURN(Column field, Interleave(type->field(f).type(), piece_fields,
                                                    piece_of_row, row_in_piece, rows, ctx));
      fields.push_back(std::move(field));
    }
    return Column::Make(type, rows, {valid}, std::move(fields), nulls);
  }
  const std::optional<int32_t> only = OnlyPiece(piece_of_row, rows);
  if (type->layout() == Layout::kList && !only.has_value()) {
    // Arrays and maps: each row's elements (a map's entries) from its piece's child, so
    // the child column interleaves the same way one level down.
    SQE_ASSIGN_OR_RETURN(auto offsets, kernel::AllocateBuffer((rows + 1) * 4, ctx));
    int32_t* off = offsets->mutable_data_as<int32_t>();
    std::vector<Column> children(pieces.size());
    for (size_t k = 0; k < pieces.size(); ++k) children[k] = pieces[k].child(0);
    std::vector<int32_t> element_piece;
    std::vector<uint32_t> element_row;
    off[0] = 0;
    for (int64_t i = 0; i < rows; ++i) {
      const int32_t p = piece_of_row[i];
      if (p >= 0 && pieces[p].IsValid(row_in_piece[i])) {
        const int64_t start = pieces[p].ListStart(row_in_piece[i]);
        const int64_t length = pieces[p].ListLength(row_in_piece[i]);
        if (static_cast<int64_t>(element_row.size()) + length > INT32_MAX) {
          return Status::ResourceExhausted("array result over 2^31 elements");
        }
        for (int64_t e = 0; e < length; ++e) {
          element_piece.push_back(p);
          element_row.push_back(static_cast<uint32_t>(start + e));
        }
      }
      off[i + 1] = static_cast<int32_t>(element_row.size());
    }
    SQE_ASSIGN_OR_RETURN(Column child, Interleave(type->value_field().type(), children,
                                                  element_piece.data(), element_row.data(),
                                                  static_cast<int64_t>(element_row.size()), ctx));
    return Column::Make(type, rows, {valid, std::move(offsets)}, {std::move(child)}, nulls);
  }
  // Other nested types, and arrays and maps from one piece (plus NULL rows): Take.
  if (!only.has_value()) {
    return Status::NotImplemented("CASE / COALESCE over " + type->ToString() +
                                  " values from several branches is not supported yet");
  }
  if (*only < 0) return Column::MakeAllNull(type, rows, ctx.tracker);
  columnar::SelectionVector sel;
  sel.Reserve(rows);
  for (int64_t i = 0; i < rows; ++i) sel.Append(piece_of_row[i] < 0 ? 0 : row_in_piece[i]);
  SQE_ASSIGN_OR_RETURN(Column taken, columnar::Take(pieces[*only], sel, ctx.tracker));
  if (nulls == 0) return taken;
  // Null the rows that had no piece.
  int64_t combined_nulls = 0;
  SQE_ASSIGN_OR_RETURN(auto v2, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  for (int64_t i = 0; i < rows; ++i) {
    if (piece_of_row[i] >= 0 && taken.IsValid(i)) {
      columnar::SetBit(v2->mutable_data(), i);
    } else {
      ++combined_nulls;
    }
  }
  return kernel::WithValidity(taken, std::move(v2), combined_nulls, ctx);
}

}  // namespace sqe::exec
