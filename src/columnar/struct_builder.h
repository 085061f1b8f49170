#pragma once
/// StructBuilder: builds struct columns. Append() marks a valid row; the caller then
/// appends exactly one value (or null) to every field builder. AppendNull() marks a null
/// row and appends a null to every field builder itself, so the fields stay aligned.
/// Owns its field builders. See column_builder.h for the shared contract.

#include <memory>
#include <vector>

#include "columnar/column_builder.h"

namespace sqe::columnar {

class StructBuilder final : public ColumnBuilder {
 public:
  /// Precondition: `type` is a struct and field_builders build its field types, in order.
  StructBuilder(TypePtr type, std::vector<std::unique_ptr<ColumnBuilder>> field_builders,
                std::shared_ptr<MemoryTracker> tracker = nullptr);

  /// Marks the next row valid (its field values follow on the field builders).
  Status Append();
  Status AppendNull() override;
  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  /// InvalidArgument when a field builder's length differs from this builder's.
  Result<Column> Finish() override;

  int num_fields() const { return static_cast<int>(fields_.size()); }
  ColumnBuilder* field_builder(int i) { return fields_[i].get(); }
  template <typename B>
  B* field_builder_as(int i) {
    return static_cast<B*>(fields_[i].get());
  }

 private:
  std::vector<std::unique_ptr<ColumnBuilder>> fields_;
};

}  // namespace sqe::columnar
