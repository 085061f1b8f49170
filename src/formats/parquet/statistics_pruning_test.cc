#include "formats/parquet/statistics_pruning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <type_traits>

#include "columnar/data_type.h"
#include "formats/parquet/footer.h"
#include "formats/parquet/pyarrow_peer_test_support.h"
#include "formats/parquet/value_conversion.h"

namespace sqe::parquet {
namespace {

using columnar::Decimal128;
using columnar::TimeUnit;
using K = LogicalType::Kind;

template <typename T>
std::string Plain(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

std::string BigEndian(int64_t v, int width) {
  std::string s(width, '\0');
  EXPECT_TRUE(DecimalToBigEndian(Decimal128(v), width, reinterpret_cast<uint8_t*>(s.data())).ok());
  return s;
}

// A one-column file: column "c" described by `leaf`, one row group of 100 rows.
class OneColumn {
 public:
  explicit OneColumn(SchemaElement leaf) {
    leaf.name = "c";
    if (!leaf.repetition_type) leaf.repetition_type = FieldRepetitionType::kOptional;
    SchemaElement root;
    root.name = "schema";
    root.num_children = 1;
    md_.schema = {root, leaf};
    auto ps = FromParquetSchema(md_.schema);
    EXPECT_TRUE(ps.ok()) << ps.status().ToString();
    schema_ = *ps;
    RowGroup rg;
    rg.num_rows = 100;
    ColumnChunk chunk;
    chunk.meta_data = ColumnMetaData{};
    chunk.meta_data->type = *leaf.type;
    chunk.meta_data->num_values = 100;
    rg.columns.push_back(chunk);
    md_.row_groups.push_back(rg);
  }

  OneColumn& Stats(std::optional<std::string> min, std::optional<std::string> max,
                   std::optional<int64_t> nulls = 0) {
    Statistics s;
    s.min_value = std::move(min);
    s.max_value = std::move(max);
    s.null_count = nulls;
    md_.row_groups[0].columns[0].meta_data->statistics = s;
    return *this;
  }
  OneColumn& Legacy(std::string min, std::string max) {
    Statistics s;
    s.min = std::move(min);
    s.max = std::move(max);
    s.null_count = 0;
    md_.row_groups[0].columns[0].meta_data->statistics = s;
    return *this;
  }
  Statistics& statistics() { return *md_.row_groups[0].columns[0].meta_data->statistics; }
  FileMetaData& metadata() { return md_; }

  bool MayMatch(PredicateOp op, std::vector<Literal> lits) {
    Predicate p{ColumnRef::Name("c"), op, std::move(lits)};
    auto b = BindPredicate(p, schema_);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    if (!b.ok()) return true;
    std::vector<BoundPredicate> conj{*b};
    return RowGroupMayMatch(md_, 0, conj);
  }
  bool MayMatch(PredicateOp op, Literal lit) { return MayMatch(op, std::vector<Literal>{lit}); }

 private:
  FileMetaData md_;
  ParquetSchema schema_;
};

SchemaElement Leaf(PhysicalType t, std::optional<LogicalType> lt = std::nullopt) {
  SchemaElement e;
  e.type = t;
  e.logical_type = lt;
  return e;
}

using Op = PredicateOp;

// For a chunk with values in [10, 20]: which literals each operator keeps.
void ExpectRangeSemantics(OneColumn& c, const std::function<Literal(int64_t)>& lit) {
  EXPECT_FALSE(c.MayMatch(Op::kEq, lit(9)));
  EXPECT_TRUE(c.MayMatch(Op::kEq, lit(10)));
  EXPECT_TRUE(c.MayMatch(Op::kEq, lit(15)));
  EXPECT_TRUE(c.MayMatch(Op::kEq, lit(20)));
  EXPECT_FALSE(c.MayMatch(Op::kEq, lit(21)));
  EXPECT_TRUE(c.MayMatch(Op::kNe, lit(10)));
  EXPECT_FALSE(c.MayMatch(Op::kLt, lit(10)));
  EXPECT_TRUE(c.MayMatch(Op::kLt, lit(11)));
  EXPECT_FALSE(c.MayMatch(Op::kLe, lit(9)));
  EXPECT_TRUE(c.MayMatch(Op::kLe, lit(10)));
  EXPECT_FALSE(c.MayMatch(Op::kGt, lit(20)));
  EXPECT_TRUE(c.MayMatch(Op::kGt, lit(19)));
  EXPECT_FALSE(c.MayMatch(Op::kGe, lit(21)));
  EXPECT_TRUE(c.MayMatch(Op::kGe, lit(20)));
  EXPECT_FALSE(c.MayMatch(Op::kIn, {lit(1), lit(5), lit(25)}));
  EXPECT_TRUE(c.MayMatch(Op::kIn, {lit(1), lit(12), lit(25)}));
  EXPECT_FALSE(c.MayMatch(Op::kIn, std::vector<Literal>{}));
  EXPECT_TRUE(c.MayMatch(Op::kIsNotNull, std::vector<Literal>{}));
  EXPECT_FALSE(c.MayMatch(Op::kIsNull, std::vector<Literal>{}));
}

TEST(StatisticsPruning, SignedIntegers) {
  OneColumn i32(Leaf(PhysicalType::kInt32));
  i32.Stats(Plain(int32_t{10}), Plain(int32_t{20}));
  ExpectRangeSemantics(i32, Literal::Int64);
  OneColumn i64(Leaf(PhysicalType::kInt64));
  i64.Stats(Plain(int64_t{10}), Plain(int64_t{20}));
  ExpectRangeSemantics(i64, Literal::Int64);
  OneColumn i8(Leaf(PhysicalType::kInt32, LogicalType::Integer(8, true)));
  i8.Stats(Plain(int32_t{10}), Plain(int32_t{20}));
  ExpectRangeSemantics(i8, Literal::Int64);
  // Negative bounds order signed.
  OneColumn neg(Leaf(PhysicalType::kInt64));
  neg.Stats(Plain(int64_t{-5}), Plain(int64_t{-1}));
  EXPECT_FALSE(neg.MayMatch(Op::kGt, Literal::Int64(0)));
  EXPECT_TRUE(neg.MayMatch(Op::kLt, Literal::Int64(0)));
  // Literals beyond the physical range.
  EXPECT_FALSE(i32.MayMatch(Op::kEq, Literal::Int64(int64_t{1} << 40)));
  EXPECT_FALSE(i32.MayMatch(Op::kGt, Literal::Int64(int64_t{1} << 40)));
  EXPECT_TRUE(i32.MayMatch(Op::kGt, Literal::Int64(-(int64_t{1} << 40))));
  EXPECT_TRUE(i32.MayMatch(Op::kNe, Literal::Int64(int64_t{1} << 40)));
  // Decimal literals against an integer column compare exactly.
  EXPECT_TRUE(i32.MayMatch(Op::kLt, Literal::Decimal(Decimal128(101), 1)));   // < 10.1
  EXPECT_FALSE(i32.MayMatch(Op::kLt, Literal::Decimal(Decimal128(100), 1)));  // < 10.0
  EXPECT_FALSE(i32.MayMatch(Op::kEq, Literal::Decimal(Decimal128(155), 1)));  // = 15.5
  EXPECT_TRUE(i32.MayMatch(Op::kEq, Literal::Decimal(Decimal128(150), 1)));   // = 15.0
}

TEST(StatisticsPruning, UnsignedIntegersCompareUnsigned) {
  for (auto lt : {LogicalType::Integer(8, false), LogicalType::Integer(32, false)}) {
    OneColumn u(Leaf(PhysicalType::kInt32, lt));
    u.Stats(Plain(int32_t{10}), Plain(int32_t{20}));
    ExpectRangeSemantics(u, Literal::Int64);
  }
  // UINT_32 with values above 2^31: stored bit patterns are negative as int32.
  OneColumn u32(Leaf(PhysicalType::kInt32, LogicalType::Integer(32, false)));
  u32.Stats(Plain(static_cast<uint32_t>(3'000'000'000u)),
            Plain(static_cast<uint32_t>(4'000'000'000u)));
  EXPECT_FALSE(u32.MayMatch(Op::kLt, Literal::Int64(3'000'000'000)));
  EXPECT_TRUE(u32.MayMatch(Op::kEq, Literal::Int64(3'500'000'000)));
  EXPECT_FALSE(u32.MayMatch(Op::kEq, Literal::Int64(-1)));
  EXPECT_TRUE(u32.MayMatch(Op::kGt, Literal::Int64(0)));
  // The legacy signed min/max are not valid for unsigned columns.
  u32.Legacy(Plain(int32_t{10}), Plain(int32_t{20}));
  EXPECT_TRUE(u32.MayMatch(Op::kEq, Literal::Int64(3'500'000'000)));
  // Converted-type UINT_16.
  SchemaElement conv = Leaf(PhysicalType::kInt32);
  conv.converted_type = ConvertedType::kUint16;
  OneColumn u16(conv);
  u16.Stats(Plain(int32_t{10}), Plain(int32_t{20}));
  ExpectRangeSemantics(u16, Literal::Int64);
}

TEST(StatisticsPruning, Floats) {
  OneColumn d(Leaf(PhysicalType::kDouble));
  d.Stats(Plain(10.0), Plain(20.0));
  ExpectRangeSemantics(d, [](int64_t v) { return Literal::Double(static_cast<double>(v)); });
  ExpectRangeSemantics(d, Literal::Int64);
  EXPECT_FALSE(d.MayMatch(Op::kLt, Literal::Double(9.999)));
  EXPECT_TRUE(d.MayMatch(Op::kLt, Literal::Double(10.001)));
  OneColumn f(Leaf(PhysicalType::kFloat));
  f.Stats(Plain(10.0f), Plain(20.0f));
  ExpectRangeSemantics(f, [](int64_t v) { return Literal::Double(static_cast<double>(v)); });
  // A float bound widens exactly: 0.1f < 0.1 (double).
  f.Stats(Plain(0.1f), Plain(0.1f));
  EXPECT_FALSE(f.MayMatch(Op::kEq, Literal::Double(0.1)));
  EXPECT_TRUE(f.MayMatch(Op::kEq, Literal::Double(static_cast<double>(0.1f))));
}

TEST(StatisticsPruning, FloatNaNAndSignedZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  OneColumn d(Leaf(PhysicalType::kDouble));
  // NaN bounds are ignored: nothing prunes on them.
  d.Stats(Plain(nan), Plain(20.0));
  EXPECT_TRUE(d.MayMatch(Op::kLt, Literal::Double(-100)));
  EXPECT_FALSE(d.MayMatch(Op::kGt, Literal::Double(20)));
  d.Stats(Plain(10.0), Plain(nan));
  EXPECT_TRUE(d.MayMatch(Op::kGt, Literal::Double(100)));
  EXPECT_FALSE(d.MayMatch(Op::kLt, Literal::Double(10)));
  // A NaN literal never prunes.
  d.Stats(Plain(10.0), Plain(20.0));
  EXPECT_TRUE(d.MayMatch(Op::kEq, Literal::Double(nan)));
  EXPECT_TRUE(d.MayMatch(Op::kLt, Literal::Double(nan)));
  // min = max = 5 does not exclude NaNs (not in the bounds) for != unless nan_count is 0.
  d.Stats(Plain(5.0), Plain(5.0));
  EXPECT_TRUE(d.MayMatch(Op::kNe, Literal::Double(5)));
  d.statistics().nan_count = 0;
  EXPECT_FALSE(d.MayMatch(Op::kNe, Literal::Double(5)));
  // -0.0 and +0.0: a writer puts -0.0 as min and +0.0 as max; both match = 0.
  d.Stats(Plain(-0.0), Plain(0.0));
  EXPECT_TRUE(d.MayMatch(Op::kEq, Literal::Double(0.0)));
  EXPECT_TRUE(d.MayMatch(Op::kEq, Literal::Double(-0.0)));
  EXPECT_FALSE(d.MayMatch(Op::kLt, Literal::Double(-0.0)));
  EXPECT_FALSE(d.MayMatch(Op::kGt, Literal::Double(0.0)));
  // A +0 min may hide -0 values; they still equal 0.
  d.Stats(Plain(0.0), Plain(1.0));
  EXPECT_TRUE(d.MayMatch(Op::kEq, Literal::Double(-0.0)));
  EXPECT_TRUE(d.MayMatch(Op::kLe, Literal::Double(-0.0)));
}

TEST(StatisticsPruning, Float16) {
  SchemaElement e = Leaf(PhysicalType::kFixedLenByteArray, LogicalType::Of(K::kFloat16));
  e.type_length = 2;
  OneColumn h(e);
  h.Stats(Plain(uint16_t{0x4900}), Plain(uint16_t{0x4d00}));  // 10.0, 20.0
  ExpectRangeSemantics(h, [](int64_t v) { return Literal::Double(static_cast<double>(v)); });
}

TEST(StatisticsPruning, ByteArraysAreUnsignedLexicographic) {
  OneColumn s(Leaf(PhysicalType::kByteArray, LogicalType::Of(K::kString)));
  s.Stats(std::string("b"), std::string("d\xc3\xa9"));
  EXPECT_FALSE(s.MayMatch(Op::kEq, Literal::String("a")));
  EXPECT_TRUE(s.MayMatch(Op::kEq, Literal::String("b")));
  EXPECT_TRUE(s.MayMatch(Op::kEq, Literal::String("c")));
  EXPECT_TRUE(s.MayMatch(Op::kEq, Literal::String("d")));
  EXPECT_TRUE(s.MayMatch(Op::kEq, Literal::String("d\xc3")));
  EXPECT_FALSE(s.MayMatch(Op::kEq, Literal::String("d\xc3\xa9z")));
  EXPECT_FALSE(s.MayMatch(Op::kEq, Literal::String("e")));
  // 0xc3 > 'z' unsigned (it would be negative signed).
  EXPECT_TRUE(s.MayMatch(Op::kGt, Literal::String("dz")));
  EXPECT_FALSE(s.MayMatch(Op::kLt, Literal::String("b")));
  EXPECT_TRUE(s.MayMatch(Op::kLt, Literal::String("b\x01")));
  EXPECT_FALSE(s.MayMatch(Op::kGe, Literal::String("e")));
  EXPECT_FALSE(s.MayMatch(Op::kIn, {Literal::String("a"), Literal::String("z")}));
  // The deprecated min/max of byte arrays (signed order) are ignored.
  s.Legacy("b", "c");
  EXPECT_TRUE(s.MayMatch(Op::kEq, Literal::String("z")));
  // Binary and fixed.
  OneColumn b(Leaf(PhysicalType::kByteArray));
  b.Stats(std::string("\x01\x02", 2), std::string("\x80", 1));
  EXPECT_TRUE(b.MayMatch(Op::kEq, Literal::Bytes("\x7f")));
  EXPECT_FALSE(b.MayMatch(Op::kEq, Literal::Bytes("\x81")));
  EXPECT_FALSE(b.MayMatch(Op::kEq, Literal::Bytes(std::string("\x00", 1))));
  SchemaElement fe = Leaf(PhysicalType::kFixedLenByteArray);
  fe.type_length = 2;
  OneColumn fx(fe);
  fx.Stats(std::string("aa"), std::string("cc"));
  EXPECT_TRUE(fx.MayMatch(Op::kEq, Literal::Bytes("bb")));
  EXPECT_FALSE(fx.MayMatch(Op::kEq, Literal::Bytes("b")));  // wrong width: never equal
  EXPECT_TRUE(fx.MayMatch(Op::kGt, Literal::Bytes("b")));
  EXPECT_FALSE(fx.MayMatch(Op::kGt, Literal::Bytes("cc")));
}

TEST(StatisticsPruning, DecimalsInEveryPhysicalType) {
  // decimal(9,2) int32, decimal(18,2) int64, decimal(20,2) fixed(9), decimal(20,2) binary;
  // values in [10.00, 20.00] = unscaled [1000, 2000].
  auto dec = [](int64_t v) { return Literal::Decimal(Decimal128(v * 100), 2); };
  auto scaled1 = [](int64_t v) { return Literal::Decimal(Decimal128(v * 10), 1); };
  OneColumn i32(Leaf(PhysicalType::kInt32, LogicalType::Decimal(9, 2)));
  i32.Stats(Plain(int32_t{1000}), Plain(int32_t{2000}));
  OneColumn i64(Leaf(PhysicalType::kInt64, LogicalType::Decimal(18, 2)));
  i64.Stats(Plain(int64_t{1000}), Plain(int64_t{2000}));
  SchemaElement fe = Leaf(PhysicalType::kFixedLenByteArray, LogicalType::Decimal(20, 2));
  fe.type_length = 9;
  OneColumn fx(fe);
  fx.Stats(BigEndian(1000, 9), BigEndian(2000, 9));
  OneColumn bin(Leaf(PhysicalType::kByteArray, LogicalType::Decimal(20, 2)));
  bin.Stats(BigEndian(1000, 2), BigEndian(2000, 2));
  for (OneColumn* c : {&i32, &i64, &fx, &bin}) {
    ExpectRangeSemantics(*c, dec);
    ExpectRangeSemantics(*c, scaled1);
    ExpectRangeSemantics(*c, Literal::Int64);
    EXPECT_TRUE(c->MayMatch(Op::kLt, Literal::Decimal(Decimal128(10001), 3)));   // < 10.001
    EXPECT_FALSE(c->MayMatch(Op::kEq, Literal::Decimal(Decimal128(10001), 3)));  // no such value
    EXPECT_FALSE(c->MayMatch(Op::kLe, Literal::Decimal(Decimal128(9999), 3)));
  }
  // Negative big-endian bounds order signed.
  fx.Stats(BigEndian(-500, 9), BigEndian(-100, 9));
  EXPECT_FALSE(fx.MayMatch(Op::kGe, Literal::Int64(0)));
  EXPECT_TRUE(fx.MayMatch(Op::kLt, Literal::Decimal(Decimal128(-200), 2)));
  // Legacy min/max: valid on int-backed decimals, not on byte arrays.
  i32.Legacy(Plain(int32_t{1000}), Plain(int32_t{2000}));
  EXPECT_FALSE(i32.MayMatch(Op::kEq, dec(30)));
  bin.Legacy(BigEndian(1000, 2), BigEndian(2000, 2));
  EXPECT_TRUE(bin.MayMatch(Op::kEq, dec(30)));
}

TEST(StatisticsPruning, DatesTimesAndTimestampsAcrossUnits) {
  OneColumn date(Leaf(PhysicalType::kInt32, LogicalType::Of(K::kDate)));
  date.Stats(Plain(int32_t{10}), Plain(int32_t{20}));
  ExpectRangeSemantics(date, [](int64_t v) { return Literal::Date(static_cast<int32_t>(v)); });

  // Timestamp millis: values [10 ms, 20 ms].
  OneColumn ms(Leaf(PhysicalType::kInt64, LogicalType::Timestamp(true, LogicalTimeUnit::kMillis)));
  ms.Stats(Plain(int64_t{10}), Plain(int64_t{20}));
  ExpectRangeSemantics(ms, [](int64_t v) { return Literal::Timestamp(v * 1000); });
  ExpectRangeSemantics(ms,
                       [](int64_t v) { return Literal::Timestamp(v * 1000000, TimeUnit::kNano); });
  EXPECT_TRUE(ms.MayMatch(Op::kLt, Literal::Timestamp(10001)));
  EXPECT_FALSE(ms.MayMatch(Op::kLt, Literal::Timestamp(10000)));
  EXPECT_FALSE(ms.MayMatch(Op::kEq, Literal::Timestamp(15500)));  // no whole millisecond
  EXPECT_TRUE(ms.MayMatch(Op::kNe, Literal::Timestamp(15500)));

  OneColumn us(Leaf(PhysicalType::kInt64, LogicalType::Timestamp(false, LogicalTimeUnit::kMicros)));
  us.Stats(Plain(int64_t{10}), Plain(int64_t{20}));
  ExpectRangeSemantics(us, [](int64_t v) { return Literal::Timestamp(v); });
  ExpectRangeSemantics(us, [](int64_t v) { return Literal::Timestamp(v * 1000, TimeUnit::kNano); });
  EXPECT_TRUE(us.MayMatch(Op::kGt, Literal::Timestamp(19999, TimeUnit::kNano)));
  EXPECT_FALSE(us.MayMatch(Op::kGt, Literal::Timestamp(20000, TimeUnit::kNano)));

  OneColumn ns(Leaf(PhysicalType::kInt64, LogicalType::Timestamp(true, LogicalTimeUnit::kNanos)));
  ns.Stats(Plain(int64_t{10000}), Plain(int64_t{20000}));
  ExpectRangeSemantics(ns, [](int64_t v) { return Literal::Timestamp(v); });
  // Converted TIMESTAMP_MILLIS.
  SchemaElement conv = Leaf(PhysicalType::kInt64);
  conv.converted_type = ConvertedType::kTimestampMillis;
  OneColumn cms(conv);
  cms.Stats(Plain(int64_t{10}), Plain(int64_t{20}));
  ExpectRangeSemantics(cms, [](int64_t v) { return Literal::Timestamp(v * 1000); });

  OneColumn tms(Leaf(PhysicalType::kInt32, LogicalType::Time(false, LogicalTimeUnit::kMillis)));
  tms.Stats(Plain(int32_t{10}), Plain(int32_t{20}));
  ExpectRangeSemantics(tms, [](int64_t v) { return Literal::Time(v * 1000); });
  OneColumn tns(Leaf(PhysicalType::kInt64, LogicalType::Time(false, LogicalTimeUnit::kNanos)));
  tns.Stats(Plain(int64_t{10}), Plain(int64_t{20}));
  ExpectRangeSemantics(tns, [](int64_t v) { return Literal::Time(v, TimeUnit::kNano); });
}

TEST(StatisticsPruning, Booleans) {
  OneColumn b(Leaf(PhysicalType::kBoolean));
  b.Stats(std::string("\x01", 1), std::string("\x01", 1));
  EXPECT_FALSE(b.MayMatch(Op::kEq, Literal::Bool(false)));
  EXPECT_TRUE(b.MayMatch(Op::kEq, Literal::Bool(true)));
  EXPECT_FALSE(b.MayMatch(Op::kNe, Literal::Bool(true)));
  b.Stats(std::string("\x00", 1), std::string("\x01", 1));
  EXPECT_TRUE(b.MayMatch(Op::kEq, Literal::Bool(false)));
  EXPECT_TRUE(b.MayMatch(Op::kNe, Literal::Bool(true)));
}

TEST(StatisticsPruning, Int96HasNoUsableBounds) {
  OneColumn t(Leaf(PhysicalType::kInt96));
  t.Stats(std::string(12, '\0'), std::string(12, '\0'), 0);
  EXPECT_TRUE(t.MayMatch(Op::kEq, Literal::Timestamp(123, TimeUnit::kNano)));
  EXPECT_TRUE(t.MayMatch(Op::kLt, Literal::Timestamp(-123, TimeUnit::kNano)));
  EXPECT_FALSE(t.MayMatch(Op::kIsNull, std::vector<Literal>{}));
  t.Stats(std::nullopt, std::nullopt, 100);
  EXPECT_FALSE(t.MayMatch(Op::kEq, Literal::Timestamp(123, TimeUnit::kNano)));
}

TEST(StatisticsPruning, NullCountsAndAllNullChunks) {
  OneColumn c(Leaf(PhysicalType::kInt64));
  c.Stats(Plain(int64_t{1}), Plain(int64_t{2}), 3);
  EXPECT_TRUE(c.MayMatch(Op::kIsNull, std::vector<Literal>{}));
  EXPECT_TRUE(c.MayMatch(Op::kIsNotNull, std::vector<Literal>{}));
  // All null: no comparison is true, IS NOT NULL is out, IS NULL stays.
  c.Stats(std::nullopt, std::nullopt, 100);
  for (Op op : {Op::kEq, Op::kNe, Op::kLt, Op::kLe, Op::kGt, Op::kGe}) {
    EXPECT_FALSE(c.MayMatch(op, Literal::Int64(1))) << PredicateOpName(op);
  }
  EXPECT_FALSE(c.MayMatch(Op::kIn, {Literal::Int64(1)}));
  EXPECT_FALSE(c.MayMatch(Op::kIsNotNull, std::vector<Literal>{}));
  EXPECT_TRUE(c.MayMatch(Op::kIsNull, std::vector<Literal>{}));
  // Unknown null count: both null tests may match; min/max still prune.
  c.Stats(Plain(int64_t{1}), Plain(int64_t{2}), std::nullopt);
  EXPECT_TRUE(c.MayMatch(Op::kIsNull, std::vector<Literal>{}));
  EXPECT_TRUE(c.MayMatch(Op::kIsNotNull, std::vector<Literal>{}));
  EXPECT_FALSE(c.MayMatch(Op::kGt, Literal::Int64(2)));
  // != on a constant chunk: out unless there are nulls... nulls do not match != either.
  c.Stats(Plain(int64_t{7}), Plain(int64_t{7}), 50);
  EXPECT_FALSE(c.MayMatch(Op::kNe, Literal::Int64(7)));
  EXPECT_TRUE(c.MayMatch(Op::kNe, Literal::Int64(8)));
}

TEST(StatisticsPruning, MissingOrUntrustedStatisticsMayMatch) {
  OneColumn c(Leaf(PhysicalType::kInt64));
  EXPECT_TRUE(c.MayMatch(Op::kEq, Literal::Int64(1)));  // no statistics at all
  EXPECT_TRUE(c.MayMatch(Op::kIsNull, std::vector<Literal>{}));
  // A required column is never null, statistics or not.
  SchemaElement required = Leaf(PhysicalType::kInt64);
  required.repetition_type = FieldRepetitionType::kRequired;
  OneColumn r(required);
  EXPECT_FALSE(r.MayMatch(Op::kIsNull, std::vector<Literal>{}));
  EXPECT_TRUE(r.MayMatch(Op::kIsNotNull, std::vector<Literal>{}));
  c.Stats(Plain(int64_t{10}), std::nullopt);
  EXPECT_TRUE(c.MayMatch(Op::kGt, Literal::Int64(100)));
  EXPECT_FALSE(c.MayMatch(Op::kLt, Literal::Int64(10)));
  c.Stats(std::string("abc"), std::string("abc"));  // wrong width: ignored
  EXPECT_TRUE(c.MayMatch(Op::kEq, Literal::Int64(1)));
  // Legacy signed min/max for a signed int column are used.
  c.Legacy(Plain(int64_t{10}), Plain(int64_t{20}));
  EXPECT_FALSE(c.MayMatch(Op::kEq, Literal::Int64(30)));
  // A ColumnOrder we do not know: bounds ignored, null counts kept.
  c.Stats(Plain(int64_t{10}), Plain(int64_t{20}), 0);
  c.metadata().column_orders = {ColumnOrder::kUnknown};
  EXPECT_TRUE(c.MayMatch(Op::kEq, Literal::Int64(30)));
  EXPECT_FALSE(c.MayMatch(Op::kIsNull, std::vector<Literal>{}));
  c.metadata().column_orders = {ColumnOrder::kTypeDefined};
  EXPECT_FALSE(c.MayMatch(Op::kEq, Literal::Int64(30)));
  // An empty row group never matches.
  c.metadata().row_groups[0].num_rows = 0;
  EXPECT_FALSE(c.MayMatch(Op::kIsNull, std::vector<Literal>{}));
}

TEST(StatisticsPruning, ConjunctionNeedsEveryPredicate) {
  columnar::Schema s(
      {columnar::Field("a", columnar::Int64()), columnar::Field("b", columnar::String())});
  auto el = ToParquetSchema(s);
  ASSERT_TRUE(el.ok());
  auto schema = FromParquetSchema(*el);
  ASSERT_TRUE(schema.ok());
  FileMetaData md;
  md.schema = *el;
  RowGroup rg;
  rg.num_rows = 10;
  for (auto [min, max] : {std::pair{Plain(int64_t{0}), Plain(int64_t{9})},
                          std::pair{std::string("k"), std::string("m")}}) {
    ColumnChunk c;
    c.meta_data = ColumnMetaData{};
    c.meta_data->num_values = 10;
    Statistics st;
    st.min_value = min;
    st.max_value = max;
    c.meta_data->statistics = st;
    rg.columns.push_back(c);
  }
  md.row_groups.push_back(rg);
  auto conj = [&](std::vector<Predicate> ps) {
    auto b = BindPredicates(ps, *schema);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    return RowGroupMayMatch(md, 0, *b);
  };
  auto a = ColumnRef::Name("a");
  auto b = ColumnRef::Name("b");
  EXPECT_TRUE(conj({Predicate::Compare(a, Op::kGe, Literal::Int64(5)),
                    Predicate::Compare(b, Op::kEq, Literal::String("l"))}));
  EXPECT_FALSE(conj({Predicate::Compare(a, Op::kGe, Literal::Int64(5)),
                     Predicate::Compare(b, Op::kEq, Literal::String("z"))}));
  EXPECT_FALSE(conj({Predicate::Compare(a, Op::kGe, Literal::Int64(50)),
                     Predicate::Compare(b, Op::kEq, Literal::String("l"))}));
  EXPECT_TRUE(conj({}));
}

// Statistics pyarrow writes decode to the values it wrote: for each column, = on the true
// min and max must keep the row group and just outside them must skip it.
const char* kStatsScript = R"PY(
import sys, decimal, datetime
import pyarrow as pa, pyarrow.parquet as pq
n = 200
t = pa.table({
  "i8": pa.array([i - 100 for i in range(n)], pa.int8()),
  "u8": pa.array([i + 50 for i in range(n)], pa.uint8()),
  "u32": pa.array([3000000000 + i for i in range(n)], pa.uint32()),
  "i64": pa.array([i * 1000 - 7 for i in range(n)], pa.int64()),
  "f32": pa.array([float(i) - 0.5 for i in range(n)], pa.float32()),
  "f64": pa.array([float("nan") if i == 3 else i * 0.25 - 10 for i in range(n)], pa.float64()),
  "s": pa.array(["k%03d" % i if i % 5 else None for i in range(n)], pa.string()),
  "bin": pa.array([bytes([200 - i % 150, 1]) for i in range(n)], pa.binary()),
  "d1": pa.array([decimal.Decimal(i - 50) / 100 for i in range(n)], pa.decimal128(7, 2)),
  "d2": pa.array([decimal.Decimal(i * 3) / 10 for i in range(n)], pa.decimal128(25, 1)),
  "d3": pa.array([decimal.Decimal(i * 3) / 10 for i in range(n)], pa.decimal128(15, 1)),
  "f16": pa.array([i / 4 - 5 for i in range(n)], pa.float16()),
  "dt": pa.array([datetime.date(2020, 1, 1) + datetime.timedelta(days=i) for i in range(n)]),
  "tms": pa.array([i * 1000 for i in range(n)], pa.timestamp("ms")),
  "tus": pa.array([i * 1000 for i in range(n)], pa.timestamp("us", tz="UTC")),
  "tns": pa.array([i * 1000 for i in range(n)], pa.timestamp("ns")),
  "b": pa.array([True] * n),
  "nul": pa.array([None] * n, pa.int32()),
})
pq.write_table(t, sys.argv[1], row_group_size=n, store_decimal_as_integer=True)
)PY";

TEST(StatisticsPruning, DecodesPyarrowStatistics) {
  if (!testing::HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  auto file = testing::WriteWithPyarrow(kStatsScript, "stats");
  ASSERT_TRUE(file.has_value());
  auto md = ParseFooter(*file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  auto schema = FromParquetSchema(md->schema);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  // The physical types this test means to cover.
  auto physical = [&](int i) { return md->row_groups[0].columns[i].meta_data->type; };
  EXPECT_EQ(physical(8), PhysicalType::kInt32);               // d1
  EXPECT_EQ(physical(9), PhysicalType::kFixedLenByteArray);   // d2
  EXPECT_EQ(physical(10), PhysicalType::kInt64);              // d3
  EXPECT_EQ(physical(11), PhysicalType::kFixedLenByteArray);  // f16
  auto may = [&](const char* col, Op op, Literal lit) {
    auto b = BindPredicate(Predicate{ColumnRef::Name(col), op, {lit}}, *schema);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    std::vector<BoundPredicate> conj{*b};
    return RowGroupMayMatch(*md, 0, conj);
  };
  // Inside / at / outside each column's true range.
  struct Case {
    const char* col;
    Literal lo, hi, below, above;
  };
  std::vector<Case> cases = {
      {"i8", Literal::Int64(-100), Literal::Int64(99), Literal::Int64(-101), Literal::Int64(100)},
      {"u8", Literal::Int64(50), Literal::Int64(249), Literal::Int64(49), Literal::Int64(250)},
      {"u32", Literal::Int64(3000000000), Literal::Int64(3000000199), Literal::Int64(2999999999),
       Literal::Int64(3000000200)},
      {"i64", Literal::Int64(-7), Literal::Int64(198993), Literal::Int64(-8),
       Literal::Int64(198994)},
      {"f32", Literal::Double(-0.5), Literal::Double(198.5), Literal::Double(-0.6),
       Literal::Double(198.6)},
      {"f64", Literal::Double(-10), Literal::Double(39.75), Literal::Double(-10.01),
       Literal::Double(39.76)},
      {"s", Literal::String("k001"), Literal::String("k199"), Literal::String("k000"),
       Literal::String("k1990")},
      {"bin", Literal::Bytes(std::string("\x33\x01", 2)),
       Literal::Bytes(std::string("\xc8\x01", 2)), Literal::Bytes(std::string("\x33", 1)),
       Literal::Bytes(std::string("\xc8\x02", 2))},
      {"d1", Literal::Decimal(Decimal128(-50), 2), Literal::Decimal(Decimal128(149), 2),
       Literal::Decimal(Decimal128(-51), 2), Literal::Decimal(Decimal128(150), 2)},
      {"d2", Literal::Decimal(Decimal128(0), 1), Literal::Decimal(Decimal128(597), 1),
       Literal::Decimal(Decimal128(-1), 1), Literal::Decimal(Decimal128(598), 1)},
      {"d3", Literal::Decimal(Decimal128(0), 1), Literal::Decimal(Decimal128(597), 1),
       Literal::Decimal(Decimal128(-1), 1), Literal::Decimal(Decimal128(598), 1)},
      {"f16", Literal::Double(-5), Literal::Double(44.75), Literal::Double(-5.25),
       Literal::Double(45)},
      {"dt", Literal::Date(18262), Literal::Date(18262 + 199), Literal::Date(18261),
       Literal::Date(18262 + 200)},
      {"tms", Literal::Timestamp(0), Literal::Timestamp(199000000), Literal::Timestamp(-1),
       Literal::Timestamp(199000001)},
      {"tus", Literal::Timestamp(0), Literal::Timestamp(199000), Literal::Timestamp(-1),
       Literal::Timestamp(199001)},
      {"tns", Literal::Timestamp(0, TimeUnit::kNano), Literal::Timestamp(199000, TimeUnit::kNano),
       Literal::Timestamp(-1, TimeUnit::kNano), Literal::Timestamp(199001, TimeUnit::kNano)},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(may(c.col, Op::kEq, c.lo)) << c.col;
    EXPECT_TRUE(may(c.col, Op::kEq, c.hi)) << c.col;
    EXPECT_TRUE(may(c.col, Op::kLe, c.lo)) << c.col;
    EXPECT_TRUE(may(c.col, Op::kGe, c.hi)) << c.col;
    EXPECT_FALSE(may(c.col, Op::kLt, c.lo)) << c.col;
    EXPECT_FALSE(may(c.col, Op::kGt, c.hi)) << c.col;
    EXPECT_FALSE(may(c.col, Op::kEq, c.below)) << c.col;
    EXPECT_FALSE(may(c.col, Op::kEq, c.above)) << c.col;
  }
  EXPECT_FALSE(may("b", Op::kEq, Literal::Bool(false)));
  EXPECT_TRUE(may("b", Op::kEq, Literal::Bool(true)));
  EXPECT_FALSE(may("nul", Op::kEq, Literal::Int64(0)));
  auto nul = BindPredicate(Predicate::IsNotNull(ColumnRef::Name("nul")), *schema);
  ASSERT_TRUE(nul.ok());
  std::vector<BoundPredicate> conj{*nul};
  EXPECT_FALSE(RowGroupMayMatch(*md, 0, conj));
  auto s_null = BindPredicate(Predicate::IsNull(ColumnRef::Name("s")), *schema);
  auto i_null = BindPredicate(Predicate::IsNull(ColumnRef::Name("i64")), *schema);
  ASSERT_TRUE(s_null.ok() && i_null.ok());
  EXPECT_TRUE(RowGroupMayMatch(*md, 0, std::vector<BoundPredicate>{*s_null}));
  EXPECT_FALSE(RowGroupMayMatch(*md, 0, std::vector<BoundPredicate>{*i_null}));
}

}  // namespace
}  // namespace sqe::parquet

namespace sqe::parquet {
namespace {

// Soundness on random chunks: whenever some value of a chunk satisfies a predicate, the
// chunk's statistics must keep it. Values are drawn from a small domain so that equality,
// boundaries, constant chunks, all-null chunks, NaN and signed zeros all come up.
template <typename T>
bool Satisfies(PredicateOp op, const T& v, const std::vector<T>& lits) {
  switch (op) {
    case PredicateOp::kEq:
      return v == lits[0];
    case PredicateOp::kNe:
      return v != lits[0];
    case PredicateOp::kLt:
      return v < lits[0];
    case PredicateOp::kLe:
      return v <= lits[0];
    case PredicateOp::kGt:
      return v > lits[0];
    case PredicateOp::kGe:
      return v >= lits[0];
    case PredicateOp::kIn:
      for (const T& l : lits) {
        if (v == l) return true;
      }
      return false;
    default:
      return false;
  }
}

template <typename T>
void CheckSoundness(const SchemaElement& leaf, std::function<T(std::mt19937_64&)> draw,
                    std::function<std::string(const T&)> plain,
                    std::function<Literal(const T&)> literal, bool floating) {
  std::mt19937_64 rng(42);
  const PredicateOp ops[] = {PredicateOp::kEq, PredicateOp::kNe,     PredicateOp::kLt,
                             PredicateOp::kLe, PredicateOp::kGt,     PredicateOp::kGe,
                             PredicateOp::kIn, PredicateOp::kIsNull, PredicateOp::kIsNotNull};
  int pruned = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 6);
    std::vector<std::optional<T>> values;
    for (int i = 0; i < n; ++i) {
      if (rng() % 5 == 0) {
        values.push_back(std::nullopt);
      } else {
        values.push_back(draw(rng));
      }
    }
    // Statistics as a correct writer computes them: NaN excluded, -0.0 as min, +0.0 as max.
    std::optional<T> min, max;
    int64_t nulls = 0, nans = 0;
    for (const auto& v : values) {
      if (!v) {
        ++nulls;
        continue;
      }
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(*v)) {
          ++nans;
          continue;
        }
      }
      if (!min || *v < *min) min = *v;
      if (!max || *v > *max) max = *v;
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (min && *min == 0) min = -0.0;
      if (max && *max == 0) max = +0.0;
    }
    OneColumn c(leaf);
    c.metadata().row_groups[0].num_rows = n;
    c.metadata().row_groups[0].columns[0].meta_data->num_values = n;
    c.Stats(min ? std::optional(plain(*min)) : std::nullopt,
            max ? std::optional(plain(*max)) : std::nullopt, nulls);
    if (floating && rng() % 2) c.statistics().nan_count = nans;
    for (PredicateOp op : ops) {
      std::vector<T> lits;
      const int nlits = op == PredicateOp::kIn ? static_cast<int>(rng() % 3)
                        : op == PredicateOp::kIsNull || op == PredicateOp::kIsNotNull ? 0
                                                                                      : 1;
      for (int i = 0; i < nlits; ++i) lits.push_back(draw(rng));
      bool any = false;
      for (const auto& v : values) {
        if (op == PredicateOp::kIsNull) any |= !v.has_value();
        if (op == PredicateOp::kIsNotNull) any |= v.has_value();
        if (v && Satisfies(op, *v, lits)) any = true;
      }
      std::vector<Literal> literals;
      for (const T& l : lits) literals.push_back(literal(l));
      const bool keep = c.MayMatch(op, literals);
      if (any) {
        ASSERT_TRUE(keep) << "iteration " << iter << " op " << PredicateOpName(op);
      }
      pruned += !keep;
    }
  }
  EXPECT_GT(pruned, 1000);  // and it does prune
}

TEST(StatisticsPruningSoundness, Int64) {
  CheckSoundness<int64_t>(
      Leaf(PhysicalType::kInt64),
      [](std::mt19937_64& r) { return static_cast<int64_t>(r() % 9) - 4; },
      [](const int64_t& v) { return Plain(v); }, Literal::Int64, false);
}

TEST(StatisticsPruningSoundness, DoubleWithNaNAndZeros) {
  CheckSoundness<double>(
      Leaf(PhysicalType::kDouble),
      [](std::mt19937_64& r) {
        const double pool[] = {-2.5, -1.0, -0.0, 0.0,
                               0.5,  1.0,  3.0,  std::numeric_limits<double>::quiet_NaN()};
        return pool[r() % 8];
      },
      [](const double& v) { return Plain(v); }, Literal::Double, true);
}

TEST(StatisticsPruningSoundness, Strings) {
  CheckSoundness<std::string>(
      Leaf(PhysicalType::kByteArray, LogicalType::Of(K::kString)),
      [](std::mt19937_64& r) {
        const char* pool[] = {"", "a", "ab", "b", "\xc3\xa9", "\x7f", "ba", "a\xff"};
        return std::string(pool[r() % 8]);
      },
      [](const std::string& v) { return v; }, Literal::String, false);
}

}  // namespace
}  // namespace sqe::parquet
