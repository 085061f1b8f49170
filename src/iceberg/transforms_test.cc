// Transforms against the spec: every Appendix B hash value, the truncate examples of
// "Truncate Transform Details", temporal transforms around and before the epoch.
#include "iceberg/transforms.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "columnar/civil_time.h"
#include "iceberg/murmur3.h"

namespace sqe::iceberg {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

int64_t Days(int y, int m, int d) { return columnar::DaysFromCivil(y, m, d); }
int64_t Micros(int y, int mo, int d, int h, int mi, int s, int64_t us = 0) {
  return Days(y, mo, d) * kMicrosPerDay + ((h * 60 + mi) * 60 + s) * kMicrosPerSecond + us;
}

int32_t Hash(const Literal& v) {
  Result<int32_t> h = HashValue(v);
  EXPECT_TRUE(h.ok()) << h.status().ToString();
  return h.ok() ? *h : 0;
}

Literal Apply(const Transform& t, const Literal& v) {
  Result<Literal> r = t.Apply(v);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : Literal::Null();
}

TEST(Murmur3, KnownVectors) {
  EXPECT_EQ(Murmur3X86_32(""), 0u);
  EXPECT_EQ(Murmur3X86_32("", 1), 0x514E28B7u);
  EXPECT_EQ(Murmur3X86_32(std::string("\xff\xff\xff\xff", 4)), 0x76293B50u);
  EXPECT_EQ(Murmur3X86_32(std::string("\x21\x43\x65\x87", 4)), 0xF55B516Bu);
  EXPECT_EQ(Murmur3X86_32(std::string("\x21\x43\x65", 3)), 0x7E4A8634u);
  EXPECT_EQ(Murmur3X86_32(std::string("\x21\x43", 2)), 0xA0F7B07Au);
  EXPECT_EQ(Murmur3X86_32(std::string("\x21", 1)), 0x72661CF4u);
}

// Appendix B, first table (the types valid for bucketing).
TEST(HashValue, AppendixBBucketTypes) {
  EXPECT_EQ(Hash(Literal::Int(34)), 2017239379);
  EXPECT_EQ(Hash(Literal::Long(34)), 2017239379);
  EXPECT_EQ(Hash(*Literal::DecimalFromString("14.20")), -500754589);
  EXPECT_EQ(Hash(Literal::Date(static_cast<int32_t>(Days(2017, 11, 16)))), -653330422);
  EXPECT_EQ(Hash(Literal::Time(((22 * 60 + 31) * 60 + 8) * kMicrosPerSecond)), -662762989);
  EXPECT_EQ(Hash(Literal::Timestamp(Micros(2017, 11, 16, 22, 31, 8))), -2047944441);
  EXPECT_EQ(Hash(Literal::Timestamp(Micros(2017, 11, 16, 22, 31, 8, 1))), -1207196810);
  // 2017-11-16T14:31:08-08:00 is 22:31:08 UTC.
  EXPECT_EQ(Hash(Literal::TimestampTz(Micros(2017, 11, 16, 22, 31, 8))), -2047944441);
  EXPECT_EQ(Hash(Literal::TimestampTz(Micros(2017, 11, 16, 22, 31, 8, 1))), -1207196810);
  // Nanosecond timestamps hash as their microseconds (note 3).
  EXPECT_EQ(Hash(Literal::TimestampNs(Micros(2017, 11, 16, 22, 31, 8) * 1000)), -2047944441);
  EXPECT_EQ(Hash(Literal::TimestampNs(Micros(2017, 11, 16, 22, 31, 8, 1) * 1000 + 1)), -1207196810);
  EXPECT_EQ(Hash(Literal::TimestampTzNs(Micros(2017, 11, 16, 22, 31, 8) * 1000)), -2047944441);
  EXPECT_EQ(Hash(Literal::TimestampTzNs(Micros(2017, 11, 16, 22, 31, 8, 1) * 1000 + 1)),
            -1207196810);
  EXPECT_EQ(Hash(Literal::String("iceberg")), 1210000089);
  EXPECT_EQ(Hash(*Literal::UuidFromString("f79c3e09-677c-4bbd-a479-3f349cb785e7")), 1488055340);
  EXPECT_EQ(Hash(Literal::Fixed(std::string("\x00\x01\x02\x03", 4))), -188683207);
  EXPECT_EQ(Hash(Literal::Binary(std::string("\x00\x01\x02\x03", 4))), -188683207);
}

// Appendix B, second table (hashes defined but not valid bucket sources).
TEST(HashValue, AppendixBOtherTypes) {
  EXPECT_EQ(Hash(Literal::Boolean(true)), 1392991556);
  EXPECT_EQ(Hash(Literal::Float(1.0f)), -142385009);
  EXPECT_EQ(Hash(Literal::Float(0.0f)), 1669671676);
  EXPECT_EQ(Hash(Literal::Float(-0.0f)), 1669671676);
  EXPECT_EQ(Hash(Literal::Double(1.0)), -142385009);
  EXPECT_EQ(Hash(Literal::Double(0.0)), 1669671676);
  EXPECT_EQ(Hash(Literal::Double(-0.0)), 1669671676);
  // Every NaN is canonical.
  EXPECT_EQ(Hash(Literal::Double(std::nan("1"))), Hash(Literal::Double(-std::nan("2"))));
  EXPECT_FALSE(HashValue(Literal::Null(TypeId::kInt)).ok());
}

TEST(HashValue, DecimalUsesMinimalBytesAndIgnoresScale) {
  // 14.20 and 1.420 have the same unscaled value.
  EXPECT_EQ(Hash(Literal::Decimal(1420, 2)), Hash(Literal::Decimal(1420, 3)));
  // Negative and sign-boundary values hash their two's-complement minimal bytes: 127 is
  // one byte 7F, 128 is 00 80, -128 is one byte 80.
  EXPECT_EQ(Hash(Literal::Decimal(127, 0)), static_cast<int32_t>(Murmur3X86_32("\x7f")));
  EXPECT_EQ(Hash(Literal::Decimal(128, 0)),
            static_cast<int32_t>(Murmur3X86_32(std::string("\x00\x80", 2))));
  EXPECT_EQ(Hash(Literal::Decimal(-128, 0)), static_cast<int32_t>(Murmur3X86_32("\x80")));
  EXPECT_EQ(Hash(Literal::Decimal(-129, 0)), static_cast<int32_t>(Murmur3X86_32("\xff\x7f")));
  EXPECT_EQ(Hash(Literal::Decimal(0, 0)),
            static_cast<int32_t>(Murmur3X86_32(std::string("\x00", 1))));
}

TEST(Transform, ParseAndPrint) {
  for (const char* text :
       {"identity", "bucket[16]", "truncate[10]", "year", "month", "day", "hour", "void"}) {
    Result<Transform> t = Transform::Parse(text);
    ASSERT_TRUE(t.ok()) << text;
    EXPECT_EQ(t->ToString(), text);
  }
  EXPECT_EQ(Transform::Parse(" Bucket[ 4 ] ")->kind(), TransformKind::kBucket);
  EXPECT_EQ(Transform::Parse("bucket[4]")->param(), 4);
  EXPECT_FALSE(Transform::Parse("bucket[0]").ok());
  EXPECT_FALSE(Transform::Parse("bucket[-3]").ok());
  EXPECT_FALSE(Transform::Parse("truncate[x]").ok());
  EXPECT_FALSE(Transform::Parse("bucket[99999999999]").ok());
  Result<Transform> unknown = Transform::Parse("zorder");
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->kind(), TransformKind::kUnknown);
  EXPECT_EQ(unknown->ToString(), "zorder");
  EXPECT_EQ(unknown->Apply(Literal::Int(1)).status().code(), StatusCode::kNotImplemented);
}

TEST(Transform, Bucket) {
  Transform b16 = Transform::Bucket(16);
  // (2017239379 & INT_MAX) % 16 = 3
  EXPECT_EQ(Apply(b16, Literal::Int(34)), Literal::Int(2017239379 % 16));
  // Negative hashes drop the sign bit first.
  int32_t h = -653330422;
  EXPECT_EQ(Apply(b16, Literal::Date(static_cast<int32_t>(Days(2017, 11, 16)))),
            Literal::Int((h & std::numeric_limits<int32_t>::max()) % 16));
  EXPECT_EQ(Apply(b16, Literal::Int(34)), Apply(b16, Literal::Long(34)));
  EXPECT_TRUE(Apply(b16, Literal::Null(TypeId::kLong)).is_null());
  EXPECT_FALSE(b16.Apply(Literal::Double(1.0)).ok());
  EXPECT_FALSE(b16.Apply(Literal::Boolean(true)).ok());
}

TEST(Transform, TruncateSpecExamples) {
  Transform t10 = Transform::Truncate(10);
  EXPECT_EQ(Apply(t10, Literal::Int(1)), Literal::Int(0));
  EXPECT_EQ(Apply(t10, Literal::Int(-1)), Literal::Int(-10));
  EXPECT_EQ(Apply(t10, Literal::Long(1)), Literal::Long(0));
  EXPECT_EQ(Apply(t10, Literal::Long(-1)), Literal::Long(-10));
  EXPECT_EQ(Apply(t10, Literal::Long(-10)), Literal::Long(-10));
  EXPECT_EQ(Apply(t10, Literal::Long(std::numeric_limits<int64_t>::max())),
            Literal::Long(std::numeric_limits<int64_t>::max() / 10 * 10));
  Literal d = Apply(Transform::Truncate(50), *Literal::DecimalFromString("10.65"));
  EXPECT_EQ(d.ToString(), "10.50");
  EXPECT_EQ(d.scale(), 2);
  EXPECT_EQ(Apply(Transform::Truncate(50), *Literal::DecimalFromString("-10.65")).ToString(),
            "-11.00");
  EXPECT_EQ(Apply(Transform::Truncate(3), Literal::String("iceberg")), Literal::String("ice"));
  EXPECT_EQ(Apply(Transform::Truncate(3), Literal::Binary("\x01\x02\x03\x04\x05")),
            Literal::Binary("\x01\x02\x03"));
  EXPECT_EQ(Apply(Transform::Truncate(10), Literal::String("ice")), Literal::String("ice"));
}

TEST(Transform, TruncateStringCountsCodePoints) {
  // "ä" is 2 bytes, "€" 3 bytes, U+1F600 4 bytes: three code points, nine bytes.
  std::string s = "\xC3\xA4\xE2\x82\xAC\xF0\x9F\x98\x80z";
  EXPECT_EQ(Apply(Transform::Truncate(2), Literal::String(s)),
            Literal::String("\xC3\xA4\xE2\x82\xAC"));
  EXPECT_EQ(Apply(Transform::Truncate(3), Literal::String(s)),
            Literal::String("\xC3\xA4\xE2\x82\xAC\xF0\x9F\x98\x80"));
  EXPECT_EQ(Apply(Transform::Truncate(4), Literal::String(s)), Literal::String(s));
}

TEST(Transform, Temporal) {
  Literal ts = Literal::Timestamp(Micros(2017, 11, 16, 22, 31, 8));
  EXPECT_EQ(Apply(Transform::Year(), ts), Literal::Int(47));
  EXPECT_EQ(Apply(Transform::Month(), ts), Literal::Int(47 * 12 + 10));
  EXPECT_EQ(Apply(Transform::Day(), ts), Literal::Date(static_cast<int32_t>(Days(2017, 11, 16))));
  EXPECT_EQ(Apply(Transform::Hour(), ts),
            Literal::Int(static_cast<int32_t>(Micros(2017, 11, 16, 22, 0, 0) / 3600000000LL)));
  Literal date = Literal::Date(static_cast<int32_t>(Days(2017, 11, 16)));
  EXPECT_EQ(Apply(Transform::Year(), date), Literal::Int(47));
  EXPECT_EQ(Apply(Transform::Month(), date), Literal::Int(574));
  EXPECT_EQ(Apply(Transform::Day(), date), date);
  EXPECT_FALSE(Transform::Hour().Apply(date).ok());
  // Nanoseconds give the same partitions as microseconds.
  Literal ns = Literal::TimestampTzNs(Micros(2017, 11, 16, 22, 31, 8) * 1000 + 999);
  EXPECT_EQ(Apply(Transform::Hour(), ns), Apply(Transform::Hour(), ts));
  EXPECT_EQ(Apply(Transform::Day(), ns), Apply(Transform::Day(), ts));
}

TEST(Transform, TemporalBeforeEpochFloors) {
  // One microsecond before the epoch is in 1969-12-31 23:00.
  Literal ts = Literal::Timestamp(-1);
  EXPECT_EQ(Apply(Transform::Year(), ts), Literal::Int(-1));
  EXPECT_EQ(Apply(Transform::Month(), ts), Literal::Int(-1));
  EXPECT_EQ(Apply(Transform::Day(), ts), Literal::Date(-1));
  EXPECT_EQ(Apply(Transform::Hour(), ts), Literal::Int(-1));
  Literal ns = Literal::TimestampNs(-1);
  EXPECT_EQ(Apply(Transform::Hour(), ns), Literal::Int(-1));
  EXPECT_EQ(Apply(Transform::Day(), ns), Literal::Date(-1));
  // 1969-01-01T00:00:00 exactly is year -1, month -12, day -365.
  Literal start_1969 = Literal::TimestampTz(Micros(1969, 1, 1, 0, 0, 0));
  EXPECT_EQ(Apply(Transform::Year(), start_1969), Literal::Int(-1));
  EXPECT_EQ(Apply(Transform::Month(), start_1969), Literal::Int(-12));
  EXPECT_EQ(Apply(Transform::Day(), start_1969), Literal::Date(-365));
  EXPECT_EQ(Apply(Transform::Month(), Literal::Date(-1)), Literal::Int(-1));
  EXPECT_EQ(Apply(Transform::Year(), Literal::Date(static_cast<int32_t>(Days(1900, 6, 1)))),
            Literal::Int(-70));
  EXPECT_EQ(Apply(Transform::Hour(), Literal::Timestamp(-3600000000LL)), Literal::Int(-1));
  EXPECT_EQ(Apply(Transform::Hour(), Literal::Timestamp(-3600000001LL)), Literal::Int(-2));
}

TEST(Transform, ResultTypes) {
  TypePtr ts = Type::Primitive(TypeId::kTimestamp);
  EXPECT_EQ(Transform::Day().ResultType(ts).value()->id(), TypeId::kDate);
  EXPECT_EQ(Transform::Hour().ResultType(ts).value()->id(), TypeId::kInt);
  EXPECT_EQ(Transform::Bucket(4).ResultType(Type::Primitive(TypeId::kString)).value()->id(),
            TypeId::kInt);
  TypePtr dec = Type::Decimal(9, 2);
  EXPECT_TRUE(Transform::Truncate(5).ResultType(dec).value()->Equals(*dec));
  EXPECT_TRUE(Transform::Identity().ResultType(dec).value()->Equals(*dec));
  EXPECT_FALSE(Transform::Identity().ResultType(Type::Geometry("")).ok());
  EXPECT_FALSE(Transform::Truncate(5).ResultType(Type::Primitive(TypeId::kDouble)).ok());
  EXPECT_FALSE(Transform::Bucket(5).ResultType(Type::Primitive(TypeId::kFloat)).ok());
  EXPECT_TRUE(Transform::Void().ResultType(Type::Primitive(TypeId::kFloat)).ok());
  EXPECT_TRUE(Apply(Transform::Void(), Literal::Int(5)).is_null());
  EXPECT_EQ(Apply(Transform::Identity(), Literal::String("x")), Literal::String("x"));
}

}  // namespace
}  // namespace sqe::iceberg
