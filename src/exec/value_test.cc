#include "exec/value.h"

#include <gtest/gtest.h>

#include <cmath>

#include "columnar/test_columns.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64s;
using columnar::testing::Strings;

TEST(Value, ToSql) {
  EXPECT_EQ(Value::Integer(42).ToSql(), "42");
  EXPECT_EQ(Value::BigInt(-7).ToSql(), "BIGINT '-7'");
  EXPECT_EQ(Value::Varchar("it's").ToSql(), "'it''s'");
  EXPECT_EQ(Value::Date(19723).ToSql(), "DATE '2024-01-01'");
  EXPECT_EQ(Value::Decimal(columnar::Decimal128(150), 5, 2).ToSql(), "DECIMAL '1.50'");
  EXPECT_EQ(Value::Null(columnar::Int32()).ToSql(), "NULL");
  EXPECT_EQ(Value().ToSql(), "NULL");
  EXPECT_EQ(Value::Boolean(true).ToSql(), "true");
  EXPECT_EQ(Value::Double(1.5).ToSql(), "DOUBLE '1.5'");
  EXPECT_EQ(Value(columnar::Timestamp(), int64_t{0}).ToSql(),
            "TIMESTAMP '1970-01-01 00:00:00.000000'");
  EXPECT_EQ(Value(columnar::Binary(), std::string("\x01\xab", 2)).ToSql(), "X'01AB'");
  Value list(columnar::List(columnar::Int32()),
             std::make_shared<const Value::Elements>(
                 Value::Elements{Value::Integer(1), Value::Null(columnar::Int32())}));
  EXPECT_EQ(list.ToSql(), "ARRAY[1, NULL]");
}

TEST(Value, Equals) {
  EXPECT_TRUE(Value::Integer(1).Equals(Value::Integer(1)));
  EXPECT_FALSE(Value::Integer(1).Equals(Value::BigInt(1)));  // types differ
  EXPECT_FALSE(Value::Integer(1).Equals(Value::Integer(2)));
  EXPECT_TRUE(Value::Null(columnar::Int32()).Equals(Value::Null(columnar::Int32())));
  EXPECT_FALSE(Value::Null(columnar::Int32()).Equals(Value::Integer(0)));
  EXPECT_TRUE(Value::Double(std::nan("")).Equals(Value::Double(std::nan(""))));
  EXPECT_TRUE(Value().Equals(Value()));
}

TEST(Value, ToColumnBroadcasts) {
  auto c = Value::Varchar("äb").ToColumn(3);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->length(), 3);
  EXPECT_EQ(c->StringAt(2), "äb");
  SQE_EXPECT_OK(c->ValidateFull());
  auto n = Value::Null(columnar::Date32()).ToColumn(4);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->null_count(), 4);
  EXPECT_TRUE(n->type()->Equals(*columnar::Date32()));
  auto d = Value::Decimal(columnar::Decimal128(-5), 3, 2).ToColumn(2);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->DecimalAt(1), columnar::Decimal128(-5));
  auto b = Value::Boolean(true).ToColumn(9);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->BoolAt(8));
  auto r = Value(columnar::Float32(), 2.5).ToColumn(1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->Value<float>(0), 2.5f);
  Value list(
      columnar::List(columnar::Int64()),
      std::make_shared<const Value::Elements>(Value::Elements{Value::BigInt(1), Value::BigInt(2)}));
  auto l = list.ToColumn(2);
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  SQE_EXPECT_OK(l->ValidateFull());
  EXPECT_EQ(l->ListLength(1), 2);
  EXPECT_EQ(l->ListValues().Value<int64_t>(3), 2);
}

TEST(Value, FromColumnRoundTrips) {
  auto c = Strings({"x", std::nullopt});
  auto v0 = Value::FromColumn(c, 0);
  ASSERT_TRUE(v0.ok());
  EXPECT_TRUE(v0->Equals(Value::Varchar("x")));
  auto v1 = Value::FromColumn(c, 1);
  ASSERT_TRUE(v1.ok());
  EXPECT_TRUE(v1->is_null());
  EXPECT_TRUE(v1->type()->Equals(*columnar::String()));
  auto i = Value::FromColumn(Int64s({5, 6}).Slice(1, 1), 0);
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->int_value(), 6);
  EXPECT_FALSE(Value::FromColumn(c, 2).ok());
  for (const Value& v :
       {Value::Integer(-3), Value::Date(-1), Value::Double(0.25),
        Value::Decimal(columnar::Decimal128(12345), 10, 3), Value::Boolean(false)}) {
    auto col = v.ToColumn(1);
    ASSERT_TRUE(col.ok());
    auto back = Value::FromColumn(*col, 0);
    ASSERT_TRUE(back.ok());
    EXPECT_TRUE(back->Equals(v)) << v.ToSql() << " vs " << back->ToSql();
  }
}

}  // namespace
}  // namespace sqe::exec
