#include "iceberg/manifest/single_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/hex.h"

namespace sqe::iceberg {
namespace {

std::string Encode(const Literal& value, const TypePtr& type) {
  auto bytes = EncodeSingleValue(value, *type);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return "";
  auto back = DecodeSingleValue(*bytes, *type);
  EXPECT_TRUE(back.ok()) << back.status().ToString();
  if (back.ok()) EXPECT_EQ(back->ToString(), value.ToString()) << type->ToString();
  return HexLower(*bytes);
}

TEST(SingleValueTest, PrimitivesMatchAppendixD) {
  EXPECT_EQ(Encode(Literal::Boolean(true), Type::Primitive(TypeId::kBoolean)), "01");
  EXPECT_EQ(Encode(Literal::Boolean(false), Type::Primitive(TypeId::kBoolean)), "00");
  EXPECT_EQ(Encode(Literal::Int(1), Type::Primitive(TypeId::kInt)), "01000000");
  EXPECT_EQ(Encode(Literal::Int(-2), Type::Primitive(TypeId::kInt)), "feffffff");
  EXPECT_EQ(Encode(Literal::Date(19000), Type::Primitive(TypeId::kDate)), "384a0000");
  EXPECT_EQ(Encode(Literal::Long(1), Type::Primitive(TypeId::kLong)), "0100000000000000");
  EXPECT_EQ(Encode(Literal::Time(2), Type::Primitive(TypeId::kTime)), "0200000000000000");
  EXPECT_EQ(Encode(Literal::TimestampTz(-1), Type::Primitive(TypeId::kTimestampTz)),
            "ffffffffffffffff");
  EXPECT_EQ(Encode(Literal::TimestampNs(256), Type::Primitive(TypeId::kTimestampNs)),
            "0001000000000000");
  EXPECT_EQ(Encode(Literal::Float(1.0f), Type::Primitive(TypeId::kFloat)), "0000803f");
  EXPECT_EQ(Encode(Literal::Double(1.0), Type::Primitive(TypeId::kDouble)), "000000000000f03f");
  EXPECT_EQ(Encode(Literal::String("ice"), Type::Primitive(TypeId::kString)), "696365");
  EXPECT_EQ(Encode(Literal::Binary(std::string("\x00\xff", 2)), Type::Primitive(TypeId::kBinary)),
            "00ff");
  EXPECT_EQ(Encode(Literal::Fixed("abc"), Type::Fixed(3)), "616263");
  auto uuid = Literal::UuidFromString("f79c3e09-677c-4bbd-a479-3f349cb785e7");
  ASSERT_TRUE(uuid.ok());
  EXPECT_EQ(Encode(*uuid, Type::Primitive(TypeId::kUuid)), "f79c3e09677c4bbda4793f349cb785e7");
}

TEST(SingleValueTest, DecimalsAreMinimalBigEndianTwosComplement) {
  auto type = Type::Decimal(9, 2);
  EXPECT_EQ(Encode(Literal::Decimal(1420, 2), type), "058c");
  EXPECT_EQ(Encode(Literal::Decimal(0, 2), type), "00");
  EXPECT_EQ(Encode(Literal::Decimal(-1, 2), type), "ff");
  EXPECT_EQ(Encode(Literal::Decimal(127, 2), type), "7f");
  EXPECT_EQ(Encode(Literal::Decimal(128, 2), type), "0080");
  EXPECT_EQ(Encode(Literal::Decimal(-128, 2), type), "80");
  EXPECT_EQ(Encode(Literal::Decimal(-129, 2), type), "ff7f");
  auto wide = Type::Decimal(38, 0);
  columnar::Decimal128 big(int64_t{1} << 40, 0);
  EXPECT_EQ(Encode(Literal::Decimal(big, 0), wide), "01" + std::string(26, '0'));  // 2^104
  // A scale that does not match the type is refused.
  EXPECT_EQ(EncodeSingleValue(Literal::Decimal(1, 3), *type).status().code(),
            StatusCode::kInvalidArgument);
  auto fixed = DecimalToBigEndian(columnar::Decimal128(-2), 4);
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(HexLower(*fixed), "fffffffe");
}

TEST(SingleValueTest, PromotedWidthsDecode) {
  auto as_long =
      DecodeSingleValue(std::string("\xff\xff\xff\xff", 4), *Type::Primitive(TypeId::kLong));
  ASSERT_TRUE(as_long.ok());
  EXPECT_EQ(as_long->int_value(), -1);
  auto as_double =
      DecodeSingleValue(std::string("\x00\x00\x80\x3f", 4), *Type::Primitive(TypeId::kDouble));
  ASSERT_TRUE(as_double.ok());
  EXPECT_EQ(as_double->double_value(), 1.0);
}

TEST(SingleValueTest, WrongLengthsAreCorruption) {
  EXPECT_EQ(DecodeSingleValue("abc", *Type::Primitive(TypeId::kInt)).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(DecodeSingleValue("", *Type::Primitive(TypeId::kBoolean)).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(DecodeSingleValue("abc", *Type::Primitive(TypeId::kUuid)).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(DecodeSingleValue(std::string(17, 'a'), *Type::Decimal(38, 0)).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(DecodeSingleValue("ab", *Type::Fixed(3)).status().code(), StatusCode::kCorruption);
}

TEST(SingleValueTest, RefusesValuesThatDoNotFit) {
  EXPECT_FALSE(EncodeSingleValue(Literal::Null(), *Type::Primitive(TypeId::kInt)).ok());
  EXPECT_FALSE(EncodeSingleValue(Literal::String("x"), *Type::Primitive(TypeId::kInt)).ok());
  EXPECT_FALSE(EncodeSingleValue(Literal::Uuid("short"), *Type::Primitive(TypeId::kUuid)).ok());
  EXPECT_FALSE(EncodeSingleValue(Literal::Int(1), *Type::Primitive(TypeId::kVariant)).ok());
}

}  // namespace
}  // namespace sqe::iceberg
