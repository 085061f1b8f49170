#pragma once
/// BinaryBuilder: builds string (UTF-8) and binary columns: int32 offsets plus one data
/// buffer. Strings are not re-validated on append (the caller supplies UTF-8;
/// Column::ValidateFull checks). A column's data is limited to 2^31 - 1 bytes by the
/// int32 offsets; past that Append fails with ResourceExhausted and the caller starts a
/// new column. See column_builder.h for the shared contract.

#include <cstdint>
#include <string_view>

#include "columnar/buffer_builder.h"
#include "columnar/column_builder.h"

namespace sqe::columnar {

class BinaryBuilder final : public ColumnBuilder {
 public:
  /// Precondition: `type` is string or binary.
  explicit BinaryBuilder(TypePtr type = String(), std::shared_ptr<MemoryTracker> tracker = nullptr);

  Status Append(std::string_view value);
  Status AppendNull() override;
  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  /// Makes room for `additional` more data bytes.
  Status ReserveData(int64_t additional) { return data_.Reserve(additional); }
  Result<Column> Finish() override;

  /// Data bytes appended so far.
  int64_t data_length() const { return data_.size(); }

 private:
  Status AppendOffsets(int64_t rows);

  BufferBuilder offsets_;
  BufferBuilder data_;
};

}  // namespace sqe::columnar
