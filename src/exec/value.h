#pragma once
/// Value: one typed SQL scalar (a literal, a folded constant, a session parameter). The
/// physical representation follows the columnar type (data_type.h): booleans as bool,
/// every integer / date32 (days) / time64 / timestamp (ticks of the type's unit) as
/// int64_t, real and double as double, decimals as their unscaled Decimal128, varchar /
/// varbinary / fixed / uuid as their bytes. Nested values (array, row, map) hold their
/// elements as Values. A null Value still has a type. An immutable value type.

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "columnar/column.h"
#include "columnar/data_type.h"
#include "columnar/decimal128.h"
#include "common/result.h"

namespace sqe::exec {

class Value {
 public:
  using Elements = std::vector<Value>;
  using Storage = std::variant<std::monostate, bool, int64_t, double, columnar::Decimal128,
                               std::string, std::shared_ptr<const Elements>>;

  Value() = default;  // a null of no type (binder placeholder for NULL literals)
  Value(columnar::TypePtr type, Storage storage) : type_(std::move(type)), storage_(std::move(storage)) {}

  static Value Null(columnar::TypePtr type) { return Value(std::move(type), std::monostate()); }
  static Value Boolean(bool v) { return Value(columnar::Boolean(), v); }
  static Value Integer(int32_t v) { return Value(columnar::Int32(), static_cast<int64_t>(v)); }
  static Value BigInt(int64_t v) { return Value(columnar::Int64(), v); }
  static Value Double(double v) { return Value(columnar::Float64(), v); }
  static Value Varchar(std::string v) { return Value(columnar::String(), std::move(v)); }
  static Value Decimal(columnar::Decimal128 unscaled, int32_t precision, int32_t scale) {
    return Value(columnar::Decimal(precision, scale), unscaled);
  }
  static Value Date(int32_t days) { return Value(columnar::Date32(), static_cast<int64_t>(days)); }

  const columnar::TypePtr& type() const { return type_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(storage_); }
  const Storage& storage() const { return storage_; }

  bool bool_value() const { return std::get<bool>(storage_); }
  int64_t int_value() const { return std::get<int64_t>(storage_); }
  double double_value() const { return std::get<double>(storage_); }
  const columnar::Decimal128& decimal_value() const {
    return std::get<columnar::Decimal128>(storage_);
  }
  const std::string& string_value() const { return std::get<std::string>(storage_); }
  const Elements& elements() const { return *std::get<std::shared_ptr<const Elements>>(storage_); }

  /// SQL text of the value as a literal of its type (EXPLAIN, error messages):
  /// 42, 'abc', DATE '2024-01-01', DECIMAL '1.50', NULL.
  std::string ToSql() const;
  /// Same type and value (nulls equal each other): for plan comparison, not SQL equality.
  bool Equals(const Value& other) const;

  /// A column of `rows` copies of this value.
  Result<columnar::Column> ToColumn(int64_t rows,
                                    std::shared_ptr<MemoryTracker> tracker = nullptr) const;
  /// Row `row` of `column` as a Value of the column's type.
  static Result<Value> FromColumn(const columnar::Column& column, int64_t row);

 private:
  columnar::TypePtr type_;
  Storage storage_;
};

}  // namespace sqe::exec
