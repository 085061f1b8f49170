#include "exec/batch_concatenate.h"

#include <cstdint>
#include <limits>
#include <string>

#include "columnar/bitmap_builder.h"
#include "columnar/buffer_builder.h"

namespace sqe::exec {

using columnar::Column;
using columnar::Layout;

namespace {

/// The bytes of the rows a column holds, not of the buffers it shares: a slice of a big
/// batch (a row group cut into batches) counts only its own rows, so a sink holding all
/// the slices counts the data once, not once per slice.
int64_t ColumnBytes(const Column& column) {
  const int64_t length = column.length();
  int64_t bytes = column.validity() != nullptr ? (length + 7) / 8 : 0;
  switch (column.type()->layout()) {
    case Layout::kBitmap:
      return bytes + (length + 7) / 8;
    case Layout::kFixedWidth:
      return bytes + length * column.type()->byte_width();
    case Layout::kVarBinary: {
      if (length == 0) return bytes;
      const int32_t* o = column.Offsets();
      return bytes + 4 * (length + 1) + (o[length] - o[0]);
    }
    case Layout::kList: {
      if (length == 0) return bytes;
      const int32_t* o = column.Offsets();
      return bytes + 4 * (length + 1) + ColumnBytes(column.ListValues().Slice(o[0], o[length] - o[0]));
    }
    case Layout::kStruct:
      for (int i = 0; i < column.num_children(); ++i) bytes += ColumnBytes(column.StructField(i));
      return bytes;
  }
  return bytes;
}

Status OffsetOverflow(const Column& column) {
  return Status::ResourceExhausted("a column of type " + column.type()->ToString() +
                                   " would hold more than 2^31 - 1 bytes or elements");
}

/// Appends rows [0, length) of var-length offsets, rebased so they continue at `base`.
Status AppendOffsets(const Column& part, int64_t base, columnar::BufferBuilder* offsets) {
  const int32_t* o = part.Offsets();
  const int64_t length = part.length();
  SQE_RETURN_NOT_OK(offsets->Reserve(length * 4));
  const int64_t shift = base - o[0];
  if (base + (o[length] - o[0]) > std::numeric_limits<int32_t>::max()) return OffsetOverflow(part);
  for (int64_t i = 1; i <= length; ++i) {
    offsets->UnsafeAppendValue(static_cast<int32_t>(o[i] + shift));
  }
  return Status::OK();
}

}  // namespace

int64_t BatchBytes(const columnar::Batch& batch) {
  int64_t bytes = 0;
  for (const Column& c : batch.columns()) bytes += ColumnBytes(c);
  return bytes;
}

Result<Column> Concatenate(const std::vector<Column>& parts,
                           const std::shared_ptr<MemoryTracker>& tracker) {
  const columnar::TypePtr& type = parts[0].type();
  int64_t length = 0, nulls = 0;
  for (const Column& p : parts) {
    length += p.length();
    nulls += p.null_count();
  }
  std::vector<columnar::BufferPtr> buffers;
  // Validity.
  if (nulls > 0) {
    columnar::BitmapBuilder validity(tracker);
    SQE_RETURN_NOT_OK(validity.Reserve(length));
    for (const Column& p : parts) {
      if (p.validity() == nullptr) {
        SQE_RETURN_NOT_OK(validity.AppendN(p.length(), true));
      } else {
        SQE_RETURN_NOT_OK(validity.AppendBits(p.validity()->data(), p.offset(), p.length()));
      }
    }
    SQE_ASSIGN_OR_RETURN(auto buffer, validity.Finish());
    buffers.push_back(std::move(buffer));
  } else {
    buffers.push_back(nullptr);
  }
  std::vector<Column> children;
  switch (type->layout()) {
    case Layout::kBitmap: {
      columnar::BitmapBuilder values(tracker);
      SQE_RETURN_NOT_OK(values.Reserve(length));
      for (const Column& p : parts) {
        SQE_RETURN_NOT_OK(values.AppendBits(p.buffers()[1]->data(), p.offset(), p.length()));
      }
      SQE_ASSIGN_OR_RETURN(auto buffer, values.Finish());
      buffers.push_back(std::move(buffer));
      break;
    }
    case Layout::kFixedWidth: {
      const int64_t width = type->byte_width();
      columnar::BufferBuilder values(tracker);
      SQE_RETURN_NOT_OK(values.Reserve(length * width));
      for (const Column& p : parts) {
        values.UnsafeAppend(p.buffers()[1]->data() + p.offset() * width, p.length() * width);
      }
      SQE_ASSIGN_OR_RETURN(auto buffer, values.Finish());
      buffers.push_back(std::move(buffer));
      break;
    }
    case Layout::kVarBinary: {
      columnar::BufferBuilder offsets(tracker), data(tracker);
      SQE_RETURN_NOT_OK(offsets.Reserve((length + 1) * 4));
      offsets.UnsafeAppendValue(int32_t{0});
      for (const Column& p : parts) {
        SQE_RETURN_NOT_OK(AppendOffsets(p, data.size(), &offsets));
        const int32_t* o = p.Offsets();
        SQE_RETURN_NOT_OK(data.Append(p.buffers()[2]->data() + o[0], o[p.length()] - o[0]));
      }
      SQE_ASSIGN_OR_RETURN(auto offsets_buffer, offsets.Finish());
      SQE_ASSIGN_OR_RETURN(auto data_buffer, data.Finish());
      buffers.push_back(std::move(offsets_buffer));
      buffers.push_back(std::move(data_buffer));
      break;
    }
    case Layout::kList: {
      columnar::BufferBuilder offsets(tracker);
      SQE_RETURN_NOT_OK(offsets.Reserve((length + 1) * 4));
      offsets.UnsafeAppendValue(int32_t{0});
      std::vector<Column> child_parts;
      int64_t elements = 0;
      for (const Column& p : parts) {
        SQE_RETURN_NOT_OK(AppendOffsets(p, elements, &offsets));
        const int32_t* o = p.Offsets();
        child_parts.push_back(p.child(0).Slice(o[0], o[p.length()] - o[0]));
        elements += o[p.length()] - o[0];
      }
      SQE_ASSIGN_OR_RETURN(auto offsets_buffer, offsets.Finish());
      buffers.push_back(std::move(offsets_buffer));
      SQE_ASSIGN_OR_RETURN(Column child, Concatenate(child_parts, tracker));
      children.push_back(std::move(child));
      break;
    }
    case Layout::kStruct: {
      for (int f = 0; f < type->num_fields(); ++f) {
        std::vector<Column> field_parts;
        for (const Column& p : parts) field_parts.push_back(p.StructField(f));
        SQE_ASSIGN_OR_RETURN(Column child, Concatenate(field_parts, tracker));
        children.push_back(std::move(child));
      }
      break;
    }
  }
  return Column::Make(type, length, std::move(buffers), std::move(children), nulls);
}

Result<columnar::Batch> Concatenate(const columnar::SchemaPtr& schema,
                                    const std::vector<columnar::Batch>& batches,
                                    const std::shared_ptr<MemoryTracker>& tracker) {
  std::vector<Column> columns;
  int64_t rows = 0;
  for (const auto& b : batches) rows += b.num_rows();
  for (int c = 0; c < schema->num_fields(); ++c) {
    if (batches.size() == 1) {
      columns.push_back(batches[0].column(c));
      continue;
    }
    std::vector<Column> parts;
    for (const auto& b : batches) parts.push_back(b.column(c));
    if (parts.empty()) {
      SQE_ASSIGN_OR_RETURN(Column empty, Column::MakeAllNull(schema->field(c).type(), 0, tracker));
      columns.push_back(std::move(empty));
      continue;
    }
    SQE_ASSIGN_OR_RETURN(Column column, Concatenate(parts, tracker));
    columns.push_back(std::move(column));
  }
  return columnar::Batch::Make(schema, std::move(columns), rows);
}

}  // namespace sqe::exec
