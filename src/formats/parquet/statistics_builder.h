#pragma once
/// Min/max/null/NaN accumulation for the writer, over values in their PLAIN byte form
/// (little-endian numbers, big-endian decimals on FIXED_LEN_BYTE_ARRAY, raw bytes for
/// byte arrays), in the column's TYPE_ORDER: signed integers and int-backed decimals,
/// signed big-endian decimals, IEEE numeric order with NaN excluded, unsigned
/// lexicographic bytes. Also converts the bounds to Iceberg's single-value binary form.
/// Single-owner value types.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "columnar/column.h"
#include "formats/parquet/schema_mapping.h"

namespace sqe::parquet {

enum class ValueOrder : uint8_t { kBoolean, kInt32, kInt64, kFloat, kDouble, kBytes, kSignedBE };

/// The order of a leaf written from columnar type `type` as `physical`.
ValueOrder ValueOrderOf(const columnar::DataType& type, PhysicalType physical);

/// <0, 0, >0 for two raw values of `order` (neither a NaN).
int CompareRaw(ValueOrder order, std::string_view a, std::string_view b);
bool IsNaNRaw(ValueOrder order, std::string_view v);

/// Appends the PLAIN bytes (without a BYTE_ARRAY length prefix) of row `row` of leaf
/// column `values` written as `physical` (FIXED_LEN_BYTE_ARRAY of `type_length`).
void AppendRawValue(const columnar::Column& values, int64_t row, PhysicalType physical,
                    int32_t type_length, std::string* out);

/// Running min/max (NaN excluded) and null / NaN counts.
class StatisticsBuilder {
 public:
  explicit StatisticsBuilder(ValueOrder order) : order_(order) {}
  void Update(std::string_view raw);
  void AddNulls(int64_t n) { null_count_ += n; }
  void Merge(const StatisticsBuilder& other);

  bool has_min_max() const { return has_min_max_; }
  /// Bounds with the spec's zero rule: a -0.0/+0.0 min is written as -0.0, max as +0.0.
  std::string min() const;
  std::string max() const;
  int64_t null_count() const { return null_count_; }
  int64_t nan_count() const { return nan_count_; }
  int64_t non_null_count() const { return non_null_; }
  ValueOrder order() const { return order_; }

 private:
  ValueOrder order_;
  bool has_min_max_ = false;
  std::string min_, max_;
  int64_t null_count_ = 0;
  int64_t nan_count_ = 0;
  int64_t non_null_ = 0;
};

/// Iceberg bound (spec.md Appendix D) of a raw value of columnar type `type`; `upper`
/// selects the truncation direction for strings and binary (16 code points / bytes).
/// nullopt when no bound can be given (an upper bound that cannot be rounded up).
std::optional<std::string> IcebergBound(const columnar::DataType& type, PhysicalType physical,
                                        std::string_view raw, bool upper);

}  // namespace sqe::parquet
