#pragma once
/// MapBuilder: builds map<K, V> columns in Arrow's map layout (a list of non-null
/// struct<key, value> entries). Append() opens a row; its entries follow as one key on
/// key_builder() and one value on item_builder() each. Keys must not be null (Finish
/// fails otherwise); values may be. A null row has no entries. Owns both builders.
/// See column_builder.h for the shared contract.

#include <memory>

#include "columnar/buffer_builder.h"
#include "columnar/column_builder.h"

namespace sqe::columnar {

class MapBuilder final : public ColumnBuilder {
 public:
  /// Precondition: `type` is a map; the builders build its key and value types.
  MapBuilder(TypePtr type, std::unique_ptr<ColumnBuilder> key_builder,
             std::unique_ptr<ColumnBuilder> item_builder,
             std::shared_ptr<MemoryTracker> tracker = nullptr);

  /// Opens a valid row; InvalidArgument when the previous row has unequal numbers of
  /// keys and values.
  Status Append();
  Status AppendNull() override;
  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Column> Finish() override;

  ColumnBuilder* key_builder() { return keys_.get(); }
  ColumnBuilder* item_builder() { return items_.get(); }
  template <typename B>
  B* key_builder_as() {
    return static_cast<B*>(keys_.get());
  }
  template <typename B>
  B* item_builder_as() {
    return static_cast<B*>(items_.get());
  }

 private:
  Status CheckEntriesAligned() const;
  Status AppendStarts(int64_t rows, bool valid);

  BufferBuilder offsets_;
  std::unique_ptr<ColumnBuilder> keys_;
  std::unique_ptr<ColumnBuilder> items_;
};

}  // namespace sqe::columnar
