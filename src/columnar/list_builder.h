#pragma once
/// ListBuilder: builds list<T> columns. Append() opens a row; the row's elements are
/// then appended to value_builder() (any number, nulls allowed); the next Append,
/// AppendNull or Finish closes it. A null row is an empty range behind a cleared
/// validity bit. The element count of a column is limited to 2^31 - 1 (int32 offsets).
/// Owns its value builder. See column_builder.h for the shared contract.

#include <memory>

#include "columnar/buffer_builder.h"
#include "columnar/column_builder.h"

namespace sqe::columnar {

class ListBuilder final : public ColumnBuilder {
 public:
  /// Precondition: `type` is a list and value_builder builds its element type.
  ListBuilder(TypePtr type, std::unique_ptr<ColumnBuilder> value_builder,
              std::shared_ptr<MemoryTracker> tracker = nullptr);

  /// Opens a valid row (its elements follow on value_builder()).
  Status Append();
  Status AppendNull() override;
  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Column> Finish() override;

  ColumnBuilder* value_builder() { return values_.get(); }
  template <typename B>
  B* value_builder_as() {
    return static_cast<B*>(values_.get());
  }

 private:
  Status AppendStarts(int64_t rows, bool valid);

  BufferBuilder offsets_;
  std::unique_ptr<ColumnBuilder> values_;
};

}  // namespace sqe::columnar
