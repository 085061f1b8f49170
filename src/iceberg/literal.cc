#include "iceberg/literal.h"

#include <cstdio>

#include "common/hex.h"

namespace sqe::iceberg {

Result<Literal> Literal::DecimalFromString(std::string_view text) {
  size_t dot = text.find('.');
  int32_t scale = dot == std::string_view::npos ? 0 : static_cast<int32_t>(text.size() - dot - 1);
  SQE_ASSIGN_OR_RETURN(columnar::Decimal128 unscaled,
                       columnar::Decimal128::FromString(text, scale));
  return Decimal(unscaled, scale);
}

Result<Literal> Literal::UuidFromString(std::string_view text) {
  std::string bytes;
  int nibble = -1;
  for (char c : text) {
    if (c == '-') continue;
    const int v = HexDigitValue(c);
    if (v < 0) return Status::InvalidArgument("invalid UUID '" + std::string(text) + "'");
    if (nibble < 0) {
      nibble = v;
    } else {
      bytes.push_back(static_cast<char>(nibble << 4 | v));
      nibble = -1;
    }
  }
  if (bytes.size() != 16 || nibble >= 0) {
    return Status::InvalidArgument("invalid UUID '" + std::string(text) + "': need 32 hex digits");
  }
  return Uuid(std::move(bytes));
}

std::string Literal::ToString() const {
  if (is_null()) return "null";
  switch (type_) {
    case TypeId::kBoolean:
      return bool_value() ? "true" : "false";
    case TypeId::kFloat:
    case TypeId::kDouble: {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%.17g", double_value());
      return buf;
    }
    case TypeId::kDecimal:
      return decimal_value().ToString(scale_);
    case TypeId::kString:
      return "\"" + bytes() + "\"";
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid: {
      return "0x" + HexUpper(bytes());
    }
    default:
      return std::to_string(int_value());
  }
}

}  // namespace sqe::iceberg
