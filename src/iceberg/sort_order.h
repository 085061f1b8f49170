#pragma once
/// An Iceberg sort order (spec "Sorting", Appendix C "Sort Orders"): the order data is
/// sorted in within files. Order id 0 is reserved for the unsorted order. Value type.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "iceberg/transforms.h"

namespace sqe::iceberg {

enum class SortDirection : uint8_t { kAsc, kDesc };
enum class NullOrder : uint8_t { kNullsFirst, kNullsLast };

/// One sort key: a transform of source column(s), direction and null placement.
struct SortField {
  Transform transform = Transform::Identity();
  int32_t source_id = 0;
  std::vector<int32_t> source_ids;  // only for v3 multi-argument transforms
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;
  std::string extra_json;

  bool operator==(const SortField&) const = default;
};

class SortOrder {
 public:
  static constexpr int32_t kUnsortedOrderId = 0;

  SortOrder() = default;
  SortOrder(int32_t order_id, std::vector<SortField> fields, std::string extra_json = "")
      : order_id_(order_id), fields_(std::move(fields)), extra_json_(std::move(extra_json)) {}
  static SortOrder Unsorted() { return SortOrder(); }

  int32_t order_id() const { return order_id_; }
  const std::vector<SortField>& fields() const { return fields_; }
  const std::string& extra_json() const { return extra_json_; }
  bool is_unsorted() const { return fields_.empty(); }

  bool operator==(const SortOrder&) const = default;

 private:
  int32_t order_id_ = kUnsortedOrderId;
  std::vector<SortField> fields_;
  std::string extra_json_;
};

Result<SortOrder> ParseSortOrderJson(std::string_view json_text);
std::string WriteSortOrderJson(const SortOrder& order);

}  // namespace sqe::iceberg
