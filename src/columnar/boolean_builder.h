#pragma once
/// BooleanBuilder: builds boolean columns (bit-packed values, LSB first). See
/// column_builder.h for the shared contract.

#include "columnar/bitmap_builder.h"
#include "columnar/column_builder.h"

namespace sqe::columnar {

class BooleanBuilder final : public ColumnBuilder {
 public:
  explicit BooleanBuilder(std::shared_ptr<MemoryTracker> tracker = nullptr);

  Status Append(bool value) {
    SQE_RETURN_NOT_OK(values_.Reserve(1));
    SQE_RETURN_NOT_OK(validity_.AppendValid());
    return values_.Append(value);  // cannot fail after Reserve
  }
  Status AppendNull() override;
  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Column> Finish() override;

 private:
  BitmapBuilder values_;
};

}  // namespace sqe::columnar
