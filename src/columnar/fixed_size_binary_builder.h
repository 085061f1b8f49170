#pragma once
/// FixedSizeBinaryBuilder: builds fixed(n) and uuid columns: n bytes per row in one
/// values buffer (uuid: the 16 bytes in RFC 4122 network order). A null row stores n
/// zero bytes. See column_builder.h for the shared contract.

#include <cstdint>
#include <string_view>

#include "columnar/buffer_builder.h"
#include "columnar/column_builder.h"

namespace sqe::columnar {

class FixedSizeBinaryBuilder final : public ColumnBuilder {
 public:
  /// Precondition: `type` is fixed(n) or uuid.
  explicit FixedSizeBinaryBuilder(TypePtr type, std::shared_ptr<MemoryTracker> tracker = nullptr);

  /// InvalidArgument unless value has exactly byte_width() bytes.
  Status Append(std::string_view value);
  Status AppendNull() override;
  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Column> Finish() override;

  int32_t byte_width() const { return width_; }

 private:
  int32_t width_;
  BufferBuilder values_;
};

}  // namespace sqe::columnar
