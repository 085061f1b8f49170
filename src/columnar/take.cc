#include "columnar/take.h"

#include <cstring>
#include <limits>

namespace sqe::columnar {
namespace {

constexpr int64_t kMaxOffset = std::numeric_limits<int32_t>::max();

using TrackerPtr = std::shared_ptr<MemoryTracker>;

Result<Column> TakeRows(const Column& column, const uint32_t* rows, int64_t n,
                        const TrackerPtr& tracker);

// The gathered validity bitmap, or nullptr when no selected row is null.
Result<std::shared_ptr<Buffer>> TakeValidity(const Column& column, const uint32_t* rows, int64_t n,
                                             const TrackerPtr& tracker, int64_t* null_count) {
  *null_count = 0;
  if (column.null_count() == 0) return std::shared_ptr<Buffer>();
  SQE_ASSIGN_OR_RETURN(auto bitmap, Buffer::Allocate(BytesForBits(n), tracker));
  uint8_t* bits = bitmap->mutable_data();
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (column.IsValid(rows[i])) {
      SetBit(bits, i);
    } else {
      ++nulls;
    }
  }
  *null_count = nulls;
  if (nulls == 0) return std::shared_ptr<Buffer>();
  return bitmap;
}

template <typename T>
void GatherValues(const Column& column, const uint32_t* rows, int64_t n, uint8_t* out) {
  const T* src = column.Values<T>();
  T* dst = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) dst[i] = src[rows[i]];
}

Result<std::shared_ptr<Buffer>> TakeFixedWidth(const Column& column, const uint32_t* rows,
                                               int64_t n, const TrackerPtr& tracker) {
  const int64_t width = column.type()->byte_width();
  SQE_ASSIGN_OR_RETURN(auto values, Buffer::Allocate(n * width, tracker));
  uint8_t* out = values->mutable_data();
  switch (width) {
    case 1:
      GatherValues<uint8_t>(column, rows, n, out);
      break;
    case 2:
      GatherValues<uint16_t>(column, rows, n, out);
      break;
    case 4:
      GatherValues<uint32_t>(column, rows, n, out);
      break;
    case 8:
      GatherValues<uint64_t>(column, rows, n, out);
      break;
    case 16:
      GatherValues<Decimal128>(column, rows, n, out);
      break;
    default: {
      const uint8_t* src = column.buffers()[1]->data() + column.offset() * width;
      for (int64_t i = 0; i < n; ++i) {
        std::memcpy(out + i * width, src + rows[i] * width, static_cast<size_t>(width));
      }
    }
  }
  return values;
}

Result<std::shared_ptr<Buffer>> TakeBitmapValues(const Column& column, const uint32_t* rows,
                                                 int64_t n, const TrackerPtr& tracker) {
  SQE_ASSIGN_OR_RETURN(auto values, Buffer::Allocate(BytesForBits(n), tracker));
  uint8_t* bits = values->mutable_data();
  for (int64_t i = 0; i < n; ++i) {
    if (column.BoolAt(rows[i])) SetBit(bits, i);
  }
  return values;
}

// New offsets for the selected rows of a var-binary or list column: null rows get empty
// ranges. Returns the offsets and the total element (or byte) count.
Result<std::shared_ptr<Buffer>> TakeOffsets(const Column& column, const uint32_t* rows, int64_t n,
                                            const TrackerPtr& tracker) {
  SQE_ASSIGN_OR_RETURN(auto buffer, Buffer::Allocate((n + 1) * int64_t{sizeof(int32_t)}, tracker));
  int32_t* out = buffer->mutable_data_as<int32_t>();
  const int32_t* offsets = column.Offsets();
  int64_t total = 0;
  out[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t row = rows[i];
    if (column.IsValid(row)) total += offsets[row + 1] - offsets[row];
    if (total > kMaxOffset) {
      return Status::ResourceExhausted("taking " + std::to_string(n) + " rows of a " +
                                       column.type()->ToString() +
                                       " column exceeds 2147483647 elements (int32 offsets)");
    }
    out[i + 1] = static_cast<int32_t>(total);
  }
  return buffer;
}

Result<Column> TakeRows(const Column& column, const uint32_t* rows, int64_t n,
                        const TrackerPtr& tracker) {
  const TypePtr& type = column.type();
  int64_t null_count = 0;
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity,
                       TakeValidity(column, rows, n, tracker, &null_count));
  std::vector<BufferPtr> buffers{validity};
  std::vector<Column> children;
  switch (type->layout()) {
    case Layout::kBitmap: {
      SQE_ASSIGN_OR_RETURN(auto values, TakeBitmapValues(column, rows, n, tracker));
      buffers.push_back(std::move(values));
      break;
    }
    case Layout::kFixedWidth: {
      SQE_ASSIGN_OR_RETURN(auto values, TakeFixedWidth(column, rows, n, tracker));
      buffers.push_back(std::move(values));
      break;
    }
    case Layout::kVarBinary: {
      SQE_ASSIGN_OR_RETURN(auto offsets, TakeOffsets(column, rows, n, tracker));
      const int32_t* out_offsets = offsets->data_as<int32_t>();
      SQE_ASSIGN_OR_RETURN(auto data, Buffer::Allocate(out_offsets[n], tracker));
      uint8_t* dst = data->mutable_data();
      for (int64_t i = 0; i < n; ++i) {
        const int32_t len = out_offsets[i + 1] - out_offsets[i];
        if (len > 0) std::memcpy(dst + out_offsets[i], column.StringAt(rows[i]).data(), len);
      }
      buffers.push_back(std::move(offsets));
      buffers.push_back(std::move(data));
      break;
    }
    case Layout::kList: {
      SQE_ASSIGN_OR_RETURN(auto offsets, TakeOffsets(column, rows, n, tracker));
      // The child rows of every selected (valid) row, in order.
      std::vector<uint32_t> child_rows;
      child_rows.reserve(static_cast<size_t>(offsets->data_as<int32_t>()[n]));
      const int32_t* in_offsets = column.Offsets();
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t row = rows[i];
        if (column.IsNull(row)) continue;
        for (int32_t k = in_offsets[row]; k < in_offsets[row + 1]; ++k) {
          child_rows.push_back(static_cast<uint32_t>(k));
        }
      }
      SQE_ASSIGN_OR_RETURN(Column values,
                           TakeRows(column.ListValues(), child_rows.data(),
                                    static_cast<int64_t>(child_rows.size()), tracker));
      buffers.push_back(std::move(offsets));
      children.push_back(std::move(values));
      break;
    }
    case Layout::kStruct:
      for (int f = 0; f < column.num_children(); ++f) {
        SQE_ASSIGN_OR_RETURN(Column child, TakeRows(column.StructField(f), rows, n, tracker));
        children.push_back(std::move(child));
      }
      break;
  }
  return Column::Make(type, n, std::move(buffers), std::move(children), null_count);
}

Status CheckSelection(const SelectionVector& selection, int64_t length) {
  for (int64_t i = 0; i < selection.size(); ++i) {
    if (selection[i] >= length) {
      return Status::InvalidArgument("selection index " + std::to_string(selection[i]) +
                                     " out of range for " + std::to_string(length) + " rows");
    }
  }
  return Status::OK();
}

}  // namespace

Result<Column> Take(const Column& column, const SelectionVector& selection,
                    std::shared_ptr<MemoryTracker> tracker) {
  if (column.type() == nullptr) return Status::InvalidArgument("cannot take from an empty column");
  SQE_RETURN_NOT_OK(CheckSelection(selection, column.length()));
  return TakeRows(column, selection.data(), selection.size(), tracker);
}

Result<Batch> Take(const Batch& batch, const SelectionVector& selection,
                   std::shared_ptr<MemoryTracker> tracker) {
  SQE_RETURN_NOT_OK(CheckSelection(selection, batch.num_rows()));
  std::vector<Column> columns;
  columns.reserve(batch.columns().size());
  for (const Column& column : batch.columns()) {
    SQE_ASSIGN_OR_RETURN(Column taken,
                         TakeRows(column, selection.data(), selection.size(), tracker));
    columns.push_back(std::move(taken));
  }
  return Batch::Make(batch.schema(), std::move(columns), selection.size());
}

Result<Column> Filter(const Column& column, const Column& mask,
                      std::shared_ptr<MemoryTracker> tracker) {
  if (mask.length() != column.length()) {
    return Status::InvalidArgument("filter mask has " + std::to_string(mask.length()) +
                                   " rows but the column has " + std::to_string(column.length()));
  }
  SQE_ASSIGN_OR_RETURN(SelectionVector selection, SelectionVector::FromMask(mask));
  return Take(column, selection, std::move(tracker));
}

Result<Batch> Filter(const Batch& batch, const Column& mask,
                     std::shared_ptr<MemoryTracker> tracker) {
  if (mask.length() != batch.num_rows()) {
    return Status::InvalidArgument("filter mask has " + std::to_string(mask.length()) +
                                   " rows but the batch has " + std::to_string(batch.num_rows()));
  }
  SQE_ASSIGN_OR_RETURN(SelectionVector selection, SelectionVector::FromMask(mask));
  return Take(batch, selection, std::move(tracker));
}

}  // namespace sqe::columnar
