#include "formats/parquet/predicate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "columnar/data_type.h"

namespace sqe::parquet {
namespace {

using columnar::Decimal128;
using columnar::TimeUnit;

SchemaElement Leaf(std::string name, PhysicalType t, FieldRepetitionType rep,
                   std::optional<int32_t> field_id = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = t;
  e.repetition_type = rep;
  e.field_id = field_id;
  return e;
}

// id int64 (1), name string (2), s struct<a int32 (4)> (3), tags list<int32>, price
// decimal(9,2) int32, f fixed(4), ts timestamp(millis), u uint8.
ParquetSchema TestSchema() {
  std::vector<SchemaElement> el;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 8;
  el.push_back(root);
  el.push_back(Leaf("id", PhysicalType::kInt64, FieldRepetitionType::kRequired, 1));
  SchemaElement name = Leaf("name", PhysicalType::kByteArray, FieldRepetitionType::kOptional, 2);
  name.logical_type = LogicalType::Of(LogicalType::Kind::kString);
  el.push_back(name);
  SchemaElement s;
  s.name = "s";
  s.num_children = 1;
  s.repetition_type = FieldRepetitionType::kOptional;
  s.field_id = 3;
  el.push_back(s);
  el.push_back(Leaf("a", PhysicalType::kInt32, FieldRepetitionType::kOptional, 4));
  SchemaElement tags;
  tags.name = "tags";
  tags.num_children = 1;
  tags.repetition_type = FieldRepetitionType::kOptional;
  tags.logical_type = LogicalType::Of(LogicalType::Kind::kList);
  el.push_back(tags);
  SchemaElement list;
  list.name = "list";
  list.num_children = 1;
  list.repetition_type = FieldRepetitionType::kRepeated;
  el.push_back(list);
  el.push_back(Leaf("element", PhysicalType::kInt32, FieldRepetitionType::kOptional));
  SchemaElement price = Leaf("price", PhysicalType::kInt32, FieldRepetitionType::kOptional);
  price.logical_type = LogicalType::Decimal(9, 2);
  el.push_back(price);
  SchemaElement f = Leaf("f", PhysicalType::kFixedLenByteArray, FieldRepetitionType::kOptional);
  f.type_length = 4;
  el.push_back(f);
  SchemaElement ts = Leaf("ts", PhysicalType::kInt64, FieldRepetitionType::kOptional);
  ts.logical_type = LogicalType::Timestamp(true, LogicalTimeUnit::kMillis);
  el.push_back(ts);
  SchemaElement u = Leaf("u", PhysicalType::kInt32, FieldRepetitionType::kOptional);
  u.logical_type = LogicalType::Integer(8, false);
  el.push_back(u);
  auto ps = FromParquetSchema(el);
  EXPECT_TRUE(ps.ok()) << ps.status().ToString();
  return *ps;
}

template <typename T>
std::string Plain(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

TEST(Predicate, ResolvesByNamePathAndFieldId) {
  ParquetSchema schema = TestSchema();
  auto by_name = BindPredicate(
      Predicate::Compare(ColumnRef::Name("id"), PredicateOp::kEq, Literal::Int64(5)), schema);
  ASSERT_TRUE(by_name.ok()) << by_name.status().ToString();
  EXPECT_EQ(by_name->column, 0);
  EXPECT_EQ(by_name->column_name, "id");
  EXPECT_EQ(by_name->stat_type.encoding, StatEncoding::kInt64);
  ASSERT_EQ(by_name->values.size(), 1u);
  EXPECT_EQ(by_name->values[0].probes, std::vector<std::string>{Plain(int64_t{5})});

  auto by_path = BindPredicate(Predicate::IsNull(ColumnRef::Path({"s", "a"})), schema);
  ASSERT_TRUE(by_path.ok()) << by_path.status().ToString();
  EXPECT_EQ(by_path->column, 2);
  EXPECT_EQ(by_path->column_name, "s.a");

  auto by_id = BindPredicate(Predicate::IsNotNull(ColumnRef::FieldId(4)), schema);
  ASSERT_TRUE(by_id.ok());
  EXPECT_EQ(by_id->column, 2);
  auto by_id2 = BindPredicate(
      Predicate::Compare(ColumnRef::FieldId(2), PredicateOp::kGe, Literal::String("b")), schema);
  ASSERT_TRUE(by_id2.ok());
  EXPECT_EQ(by_id2->column, 1);
  EXPECT_EQ(by_id2->values[0].value.bytes, "b");
}

TEST(Predicate, ResolutionErrorsNameTheColumn) {
  ParquetSchema schema = TestSchema();
  auto missing = BindPredicate(Predicate::IsNull(ColumnRef::Name("nope")), schema);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("'nope'"), std::string::npos);
  EXPECT_NE(missing.status().message().find("s.a"), std::string::npos);
  auto missing_id = BindPredicate(Predicate::IsNull(ColumnRef::FieldId(99)), schema);
  EXPECT_EQ(missing_id.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing_id.status().message().find("field id 99"), std::string::npos);

  auto group = BindPredicate(Predicate::IsNull(ColumnRef::Name("s")), schema);
  EXPECT_EQ(group.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(group.status().message().find("'s'"), std::string::npos);

  auto repeated = BindPredicate(Predicate::Compare(ColumnRef::Path({"tags", "list", "element"}),
                                                   PredicateOp::kEq, Literal::Int64(1)),
                                schema);
  EXPECT_EQ(repeated.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(repeated.status().message().find("list or map"), std::string::npos);

  auto arity = BindPredicate(Predicate{ColumnRef::Name("id"), PredicateOp::kLt, {}}, schema);
  EXPECT_EQ(arity.status().code(), StatusCode::kInvalidArgument);
}

TEST(Predicate, TypeMismatchNamesColumnAndTypes) {
  ParquetSchema schema = TestSchema();
  auto r = BindPredicate(
      Predicate::Compare(ColumnRef::Name("id"), PredicateOp::kEq, Literal::String("x")), schema);
  ASSERT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "parquet predicate on column 'id' (bigint): a varchar literal 'x' cannot be compared "
            "with it");
  struct Case {
    const char* column;
    Literal lit;
  };
  std::vector<Case> bad = {
      {"name", Literal::Int64(1)}, {"price", Literal::Double(1.5)}, {"f", Literal::String("abcd")},
      {"ts", Literal::Date(3)},    {"ts", Literal::Int64(3)},       {"u", Literal::Bool(true)},
  };
  for (const Case& c : bad) {
    auto b = BindPredicate(Predicate::In(ColumnRef::Name(c.column), {c.lit}), schema);
    EXPECT_EQ(b.status().code(), StatusCode::kInvalidArgument)
        << c.column << " " << c.lit.ToString();
    EXPECT_NE(b.status().message().find(c.lit.TypeName()), std::string::npos)
        << b.status().message();
  }
  std::vector<Case> good = {
      {"id", Literal::Int64(1)},     {"id", Literal::Decimal(Decimal128(15), 1)},
      {"price", Literal::Int64(1)},  {"price", Literal::Decimal(Decimal128(15), 1)},
      {"f", Literal::Bytes("abcd")}, {"ts", Literal::Timestamp(3, TimeUnit::kNano)},
      {"u", Literal::Int64(300)},
  };
  for (const Case& c : good) {
    EXPECT_TRUE(BindPredicate(Predicate::In(ColumnRef::Name(c.column), {c.lit}), schema).ok())
        << c.column << " " << c.lit.ToString();
  }
}

TEST(Predicate, LiteralsBecomeColumnValuesAndProbes) {
  ParquetSchema schema = TestSchema();
  auto bind = [&](const char* col, std::vector<Literal> lits) {
    auto b = BindPredicate(Predicate::In(ColumnRef::Name(col), std::move(lits)), schema);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    return *b;
  };
  // Decimal(9,2) on INT32: 1.5 -> 150; 1.234 has no exact value at scale 2.
  auto price =
      bind("price", {Literal::Decimal(Decimal128(15), 1), Literal::Decimal(1234, 3),
                     Literal::Int64(3), Literal::Decimal(Decimal128(int64_t{1} << 40), 0)});
  EXPECT_EQ(price.values[0].probes, std::vector<std::string>{Plain(int32_t{150})});
  EXPECT_FALSE(price.values[1].representable);
  EXPECT_EQ(price.values[2].probes, std::vector<std::string>{Plain(int32_t{300})});
  EXPECT_FALSE(price.values[3].representable);  // beyond precision 9
  // TIMESTAMP(MILLIS): 5 ms as micros / nanos; 1500 us is no whole millisecond.
  auto ts = bind("ts", {Literal::Timestamp(5000), Literal::Timestamp(5000000, TimeUnit::kNano),
                        Literal::Timestamp(1500)});
  EXPECT_EQ(ts.stat_type.scale, 3);
  EXPECT_EQ(ts.values[0].probes, std::vector<std::string>{Plain(int64_t{5})});
  EXPECT_EQ(ts.values[1].probes, std::vector<std::string>{Plain(int64_t{5})});
  EXPECT_FALSE(ts.values[2].representable);
  // UINT_8: 0..255 only; 200 is stored as int32 200.
  auto u = bind("u", {Literal::Int64(200), Literal::Int64(256), Literal::Int64(-1)});
  EXPECT_EQ(u.stat_type.encoding, StatEncoding::kUint32);
  EXPECT_EQ(u.values[0].probes, std::vector<std::string>{Plain(int32_t{200})});
  EXPECT_FALSE(u.values[1].representable);
  EXPECT_FALSE(u.values[2].representable);
  // FIXED(4): other widths can never be equal.
  auto f = bind("f", {Literal::Bytes("abcd"), Literal::Bytes("abc")});
  EXPECT_EQ(f.values[0].probes, std::vector<std::string>{"abcd"});
  EXPECT_FALSE(f.values[1].representable);
  // int64 on an INT32 column (s.a).
  auto a = BindPredicate(Predicate::In(ColumnRef::Path({"s", "a"}),
                                       {Literal::Int64(int64_t{1} << 40), Literal::Int64(-7)}),
                         schema);
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->values[0].representable);
  EXPECT_EQ(a->values[1].probes, std::vector<std::string>{Plain(int32_t{-7})});
}

TEST(Predicate, FloatLiterals) {
  columnar::Schema s(
      {columnar::Field("d", columnar::Float64()), columnar::Field("f", columnar::Float32())});
  auto el = ToParquetSchema(s);
  ASSERT_TRUE(el.ok());
  auto schema = FromParquetSchema(*el);
  ASSERT_TRUE(schema.ok());
  auto d = BindPredicate(
      Predicate::In(ColumnRef::Name("d"), {Literal::Double(0.0), Literal::Double(std::nan("")),
                                           Literal::Int64(3), Literal::Int64(int64_t{1} << 60)}),
      *schema);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->values[0].probes, (std::vector<std::string>{Plain(0.0), Plain(-0.0)}));
  EXPECT_TRUE(d->values[1].probes.empty());
  EXPECT_EQ(d->values[2].probes, std::vector<std::string>{Plain(3.0)});
  EXPECT_FALSE(d->comparable);  // 2^60 has no exact double order position we trust
  auto f = BindPredicate(
      Predicate::In(ColumnRef::Name("f"), {Literal::Double(0.5), Literal::Double(0.1)}), *schema);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->comparable);
  EXPECT_EQ(f->values[0].probes, std::vector<std::string>{Plain(0.5f)});
  EXPECT_TRUE(f->values[1].probes.empty());  // 0.1 is no float
}

TEST(Predicate, ToStringIsReadable) {
  Predicate p = Predicate::In(ColumnRef::Name("x"),
                              {Literal::Int64(1), Literal::String("a"), Literal::Bytes("\x0a"),
                               Literal::Decimal(Decimal128(-5), 2)});
  EXPECT_EQ(p.ToString(), "'x' IN (1, 'a', X'0a', DECIMAL '-0.05')");
  EXPECT_EQ(Predicate::IsNull(ColumnRef::FieldId(3)).ToString(), "with field id 3 IS NULL");
  EXPECT_EQ(Predicate::Compare(ColumnRef::Path({"s", "a"}), PredicateOp::kLe,
                               Literal::Timestamp(7, TimeUnit::kNano))
                .ToString(),
            "'s.a' <= TIMESTAMP(9) 7");
}

}  // namespace
}  // namespace sqe::parquet
