#pragma once
/// Literal: one typed Iceberg value, the input and output of partition transforms.
/// Representations follow the spec's physical forms: date = days from 1970-01-01,
/// time = microseconds from midnight, timestamp(tz) = microseconds from the epoch,
/// timestamp(tz)_ns = nanoseconds from the epoch, decimal = unscaled 128-bit integer plus
/// scale, uuid = 16 bytes big-endian, string = UTF-8 bytes. A value type; thread-safe.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "columnar/decimal128.h"
#include "common/result.h"
#include "iceberg/types.h"

namespace sqe::iceberg {

class Literal {
 public:
  /// A null of the given type (kUnknown when the type does not matter).
  static Literal Null(TypeId type = TypeId::kUnknown) { return Literal(type, std::monostate()); }
  static Literal Boolean(bool v) { return Literal(TypeId::kBoolean, v); }
  static Literal Int(int32_t v) { return Literal(TypeId::kInt, static_cast<int64_t>(v)); }
  static Literal Long(int64_t v) { return Literal(TypeId::kLong, v); }
  static Literal Float(float v) { return Literal(TypeId::kFloat, static_cast<double>(v)); }
  static Literal Double(double v) { return Literal(TypeId::kDouble, v); }
  static Literal Date(int32_t days) { return Literal(TypeId::kDate, static_cast<int64_t>(days)); }
  static Literal Time(int64_t micros) { return Literal(TypeId::kTime, micros); }
  static Literal Timestamp(int64_t micros) { return Literal(TypeId::kTimestamp, micros); }
  static Literal TimestampTz(int64_t micros) { return Literal(TypeId::kTimestampTz, micros); }
  static Literal TimestampNs(int64_t nanos) { return Literal(TypeId::kTimestampNs, nanos); }
  static Literal TimestampTzNs(int64_t nanos) { return Literal(TypeId::kTimestampTzNs, nanos); }
  static Literal String(std::string v) { return Literal(TypeId::kString, std::move(v)); }
  static Literal Binary(std::string bytes) { return Literal(TypeId::kBinary, std::move(bytes)); }
  static Literal Fixed(std::string bytes) { return Literal(TypeId::kFixed, std::move(bytes)); }
  /// `bytes` must be 16 bytes, most significant first.
  static Literal Uuid(std::string bytes) { return Literal(TypeId::kUuid, std::move(bytes)); }
  static Literal Decimal(columnar::Decimal128 unscaled, int32_t scale) {
    Literal l(TypeId::kDecimal, unscaled);
    l.scale_ = scale;
    return l;
  }
  /// "14.20" -> unscaled 1420, scale 2 (the scale is the number of fraction digits).
  static Result<Literal> DecimalFromString(std::string_view text);
  /// "f79c3e09-677c-4bbd-a479-3f349cb785e7" -> 16 bytes.
  static Result<Literal> UuidFromString(std::string_view text);

  TypeId type() const { return type_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }

  bool bool_value() const { return std::get<bool>(value_); }
  /// int, long, date, time and every timestamp kind.
  int64_t int_value() const { return std::get<int64_t>(value_); }
  /// float (widened) and double.
  double double_value() const { return std::get<double>(value_); }
  /// string, binary, fixed and uuid bytes.
  const std::string& bytes() const { return std::get<std::string>(value_); }
  const columnar::Decimal128& decimal_value() const {
    return std::get<columnar::Decimal128>(value_);
  }
  int32_t scale() const { return scale_; }

  /// Readable form for messages and tests: "34", "10.50", "\"ice\"", "null".
  std::string ToString() const;

  friend bool operator==(const Literal& a, const Literal& b) {
    return a.type_ == b.type_ && a.value_ == b.value_ && a.scale_ == b.scale_;
  }

 private:
  using Value =
      std::variant<std::monostate, bool, int64_t, double, std::string, columnar::Decimal128>;
  Literal(TypeId type, Value value) : type_(type), value_(std::move(value)) {}

  TypeId type_;
  Value value_;
  int32_t scale_ = 0;
};

}  // namespace sqe::iceberg
