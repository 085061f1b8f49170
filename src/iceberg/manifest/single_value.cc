#include "iceberg/manifest/single_value.h"

#include <bit>
#include <cstring>

namespace sqe::iceberg {
namespace {

std::string LittleEndian(uint64_t bits, int bytes) {
  std::string out(static_cast<size_t>(bytes), '\0');
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<char>((bits >> (8 * i)) & 0xFF);
  return out;
}

uint64_t FromLittleEndian(std::string_view bytes) {
  uint64_t bits = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    bits |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[i])) << (8 * i);
  }
  return bits;
}

Status WrongLength(const Type& type, size_t got, std::string_view expected) {
  return Status::Corruption("single-value " + type.ToString() + " has " + std::to_string(got) +
                            " bytes, expected " + std::string(expected));
}

bool IsIntegral(TypeId id) {
  switch (id) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return true;
    default:
      return false;
  }
}

Literal LongLiteral(TypeId id, int64_t v) {
  switch (id) {
    case TypeId::kTime:
      return Literal::Time(v);
    case TypeId::kTimestamp:
      return Literal::Timestamp(v);
    case TypeId::kTimestampTz:
      return Literal::TimestampTz(v);
    case TypeId::kTimestampNs:
      return Literal::TimestampNs(v);
    case TypeId::kTimestampTzNs:
      return Literal::TimestampTzNs(v);
    default:
      return Literal::Long(v);
  }
}

}  // namespace

Result<std::string> DecimalToBigEndian(const columnar::Decimal128& value, int width) {
  std::string be(16, '\0');
  auto high = static_cast<uint64_t>(value.high);
  for (int i = 0; i < 8; ++i) {
    be[i] = static_cast<char>((high >> (56 - 8 * i)) & 0xFF);
    be[8 + i] = static_cast<char>((value.low >> (56 - 8 * i)) & 0xFF);
  }
  // Drop leading bytes that only repeat the sign.
  size_t start = 0;
  while (start < 15) {
    auto b0 = static_cast<uint8_t>(be[start]);
    auto b1 = static_cast<uint8_t>(be[start + 1]);
    if ((b0 == 0x00 && (b1 & 0x80) == 0) || (b0 == 0xFF && (b1 & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  std::string minimal = be.substr(start);
  if (width == 0) return minimal;
  if (static_cast<size_t>(width) < minimal.size()) {
    return Status::InvalidArgument("decimal value needs " + std::to_string(minimal.size()) +
                                   " bytes, more than the " + std::to_string(width) + " allowed");
  }
  char fill = value.IsNegative() ? '\xFF' : '\0';
  return std::string(static_cast<size_t>(width) - minimal.size(), fill) + minimal;
}

Result<columnar::Decimal128> DecimalFromBigEndian(std::string_view bytes) {
  if (bytes.empty() || bytes.size() > 16) {
    return Status::Corruption("decimal of " + std::to_string(bytes.size()) +
                              " bytes (expected 1 to 16)");
  }
  bool negative = (static_cast<uint8_t>(bytes[0]) & 0x80) != 0;
  std::string be(16 - bytes.size(), negative ? '\xFF' : '\0');
  be.append(bytes);
  uint64_t high = 0;
  uint64_t low = 0;
  for (int i = 0; i < 8; ++i) {
    high = (high << 8) | static_cast<uint8_t>(be[i]);
    low = (low << 8) | static_cast<uint8_t>(be[8 + i]);
  }
  return columnar::Decimal128(static_cast<int64_t>(high), low);
}

Result<std::string> EncodeSingleValue(const Literal& value, const Type& type) {
  if (value.is_null()) {
    return Status::InvalidArgument("a null " + type.ToString() + " has no single-value form");
  }
  switch (type.id()) {
    case TypeId::kBoolean:
      if (value.type() != TypeId::kBoolean) break;
      return std::string(1, value.bool_value() ? '\x01' : '\x00');
    case TypeId::kInt:
    case TypeId::kDate:
      if (!IsIntegral(value.type())) break;
      return LittleEndian(static_cast<uint32_t>(static_cast<int32_t>(value.int_value())), 4);
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (!IsIntegral(value.type())) break;
      return LittleEndian(static_cast<uint64_t>(value.int_value()), 8);
    case TypeId::kFloat:
      if (value.type() != TypeId::kFloat && value.type() != TypeId::kDouble) break;
      return LittleEndian(std::bit_cast<uint32_t>(static_cast<float>(value.double_value())), 4);
    case TypeId::kDouble:
      if (value.type() != TypeId::kFloat && value.type() != TypeId::kDouble) break;
      return LittleEndian(std::bit_cast<uint64_t>(value.double_value()), 8);
    case TypeId::kString:
    case TypeId::kBinary:
      if (value.type() != TypeId::kString && value.type() != TypeId::kBinary &&
          value.type() != TypeId::kFixed) {
        break;
      }
      return value.bytes();
    case TypeId::kUuid:
      if (value.type() != TypeId::kUuid && value.type() != TypeId::kFixed) break;
      if (value.bytes().size() != 16) {
        return Status::InvalidArgument("uuid value of " + std::to_string(value.bytes().size()) +
                                       " bytes (expected 16)");
      }
      return value.bytes();
    case TypeId::kFixed:
      if (value.type() != TypeId::kFixed && value.type() != TypeId::kBinary) break;
      if (static_cast<int32_t>(value.bytes().size()) != type.length()) {
        return Status::InvalidArgument("fixed value of " + std::to_string(value.bytes().size()) +
                                       " bytes for " + type.ToString());
      }
      return value.bytes();
    case TypeId::kDecimal:
      if (value.type() != TypeId::kDecimal) break;
      if (value.scale() != type.scale()) {
        return Status::InvalidArgument("decimal value " + value.ToString() + " has scale " +
                                       std::to_string(value.scale()) + ", " + type.ToString() +
                                       " needs " + std::to_string(type.scale()));
      }
      return DecimalToBigEndian(value.decimal_value());
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Status::NotImplemented("single-value bounds of " + type.ToString());
    default:
      return Status::InvalidArgument(type.ToString() + " has no single-value form");
  }
  return Status::InvalidArgument("value " + value.ToString() + " does not fit type " +
                                 type.ToString());
}

Result<Literal> DecodeSingleValue(std::string_view bytes, const Type& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
      if (bytes.size() != 1) return WrongLength(type, bytes.size(), "1");
      return Literal::Boolean(bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate: {
      if (bytes.size() != 4) return WrongLength(type, bytes.size(), "4");
      auto v = static_cast<int32_t>(static_cast<uint32_t>(FromLittleEndian(bytes)));
      return type.id() == TypeId::kDate ? Literal::Date(v) : Literal::Int(v);
    }
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      if (bytes.size() == 4 && type.id() == TypeId::kLong) {  // promoted from int
        return Literal::Long(static_cast<int32_t>(static_cast<uint32_t>(FromLittleEndian(bytes))));
      }
      if (bytes.size() != 8) return WrongLength(type, bytes.size(), "8");
      return LongLiteral(type.id(), static_cast<int64_t>(FromLittleEndian(bytes)));
    }
    case TypeId::kFloat:
      if (bytes.size() != 4) return WrongLength(type, bytes.size(), "4");
      return Literal::Float(std::bit_cast<float>(static_cast<uint32_t>(FromLittleEndian(bytes))));
    case TypeId::kDouble:
      if (bytes.size() == 4) {  // promoted from float
        return Literal::Double(
            std::bit_cast<float>(static_cast<uint32_t>(FromLittleEndian(bytes))));
      }
      if (bytes.size() != 8) return WrongLength(type, bytes.size(), "8");
      return Literal::Double(std::bit_cast<double>(FromLittleEndian(bytes)));
    case TypeId::kString:
      return Literal::String(std::string(bytes));
    case TypeId::kBinary:
      return Literal::Binary(std::string(bytes));
    case TypeId::kUuid:
      if (bytes.size() != 16) return WrongLength(type, bytes.size(), "16");
      return Literal::Uuid(std::string(bytes));
    case TypeId::kFixed:
      if (static_cast<int32_t>(bytes.size()) != type.length()) {
        return WrongLength(type, bytes.size(), std::to_string(type.length()));
      }
      return Literal::Fixed(std::string(bytes));
    case TypeId::kDecimal: {
      SQE_ASSIGN_OR_RETURN(auto unscaled, DecimalFromBigEndian(bytes));
      return Literal::Decimal(unscaled, type.scale());
    }
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Status::NotImplemented("single-value bounds of " + type.ToString());
    default:
      return Status::InvalidArgument(type.ToString() + " has no single-value form");
  }
}

}  // namespace sqe::iceberg
