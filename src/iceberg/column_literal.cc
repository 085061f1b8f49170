#include "iceberg/column_literal.h"

#include <string>

namespace sqe::iceberg {

Result<Literal> LiteralAt(const columnar::Column& c, int64_t row, const Type& type) {
  if (row < 0 || row >= c.length()) {
    return Status::InvalidArgument("row " + std::to_string(row) + " is outside the column's " +
                                   std::to_string(c.length()) + " rows");
  }
  if (c.IsNull(row)) return Literal::Null(type.id());
  switch (type.id()) {
    case TypeId::kBoolean:
      return Literal::Boolean(c.BoolAt(row));
    case TypeId::kInt:
      return Literal::Int(c.Value<int32_t>(row));
    case TypeId::kLong:
      return Literal::Long(c.Value<int64_t>(row));
    case TypeId::kFloat:
      return Literal::Float(c.Value<float>(row));
    case TypeId::kDouble:
      return Literal::Double(c.Value<double>(row));
    case TypeId::kDecimal:
      return Literal::Decimal(c.DecimalAt(row), type.scale());
    case TypeId::kDate:
      return Literal::Date(c.Value<int32_t>(row));
    case TypeId::kTime:
      return Literal::Time(c.Value<int64_t>(row));
    case TypeId::kTimestamp:
      return Literal::Timestamp(c.Value<int64_t>(row));
    case TypeId::kTimestampTz:
      return Literal::TimestampTz(c.Value<int64_t>(row));
    case TypeId::kTimestampNs:
      return Literal::TimestampNs(c.Value<int64_t>(row));
    case TypeId::kTimestampTzNs:
      return Literal::TimestampTzNs(c.Value<int64_t>(row));
    case TypeId::kString:
      return Literal::String(std::string(c.StringAt(row)));
    case TypeId::kBinary:
      return Literal::Binary(std::string(c.BinaryAt(row)));
    case TypeId::kFixed:
      return Literal::Fixed(std::string(c.FixedSizeBinaryAt(row)));
    case TypeId::kUuid:
      return Literal::Uuid(std::string(c.FixedSizeBinaryAt(row)));
    default:
      return Status::NotImplemented("no literal form for values of type " + type.ToString());
  }
}

}  // namespace sqe::iceberg
