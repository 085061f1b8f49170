#pragma once
/// ColumnBuilder: the common interface of the builders that produce Columns row by row,
/// one builder per physical family (fixed_width_builder.h, boolean_builder.h,
/// binary_builder.h, fixed_size_binary_builder.h, list_builder.h, struct_builder.h,
/// map_builder.h). Appends are amortized O(1): buffers grow geometrically, never per
/// row, and every allocation is charged to the builder's MemoryTracker (nullptr =
/// untracked), so an append may fail with ResourceExhausted.
///
/// Single-owner, not thread-safe. Finish() hands the buffers to the new Column and
/// leaves the builder empty and reusable; what it allocated stays charged to the tracker
/// until the Column's buffers are destroyed.

#include <cstdint>
#include <memory>

#include "columnar/bitmap_builder.h"
#include "columnar/column.h"
#include "columnar/data_type.h"
#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::columnar {

class ColumnBuilder {
 public:
  virtual ~ColumnBuilder() = default;
  ColumnBuilder(const ColumnBuilder&) = delete;
  ColumnBuilder& operator=(const ColumnBuilder&) = delete;

  const TypePtr& type() const { return type_; }
  int64_t length() const { return validity_.length(); }
  int64_t null_count() const { return validity_.null_count(); }
  const std::shared_ptr<MemoryTracker>& tracker() const { return tracker_; }

  /// Appends a null row (nested builders append placeholders to their children as
  /// needed, so the children stay aligned).
  virtual Status AppendNull() = 0;
  virtual Status AppendNulls(int64_t n);
  /// Makes room for `additional` more rows (for var-length types: their offsets; the
  /// data grows on demand or through the builder's own ReserveData).
  virtual Status Reserve(int64_t additional) = 0;
  /// The column built so far; the builder is left empty.
  virtual Result<Column> Finish() = 0;

 protected:
  ColumnBuilder(TypePtr type, std::shared_ptr<MemoryTracker> tracker)
      : type_(std::move(type)), tracker_(tracker), validity_(std::move(tracker)) {}

  TypePtr type_;
  std::shared_ptr<MemoryTracker> tracker_;
  ValidityBuilder validity_;
};

/// A builder for any type, children included (for list, struct and map the children's
/// builders are created recursively). InvalidArgument for an unsupported type.
Result<std::unique_ptr<ColumnBuilder>> MakeBuilder(
    TypePtr type, std::shared_ptr<MemoryTracker> tracker = nullptr);

}  // namespace sqe::columnar
