#include <gtest/gtest.h>

#include "iceberg/expr/evaluators.h"
#include "iceberg/expr/expression.h"
#include "iceberg/expr/projection.h"

namespace sqe::iceberg::expr {
namespace {

Schema TestSchema() {
  auto s = ParseSchemaJson(R"js({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "data", "required": false, "type": "string"},
    {"id": 3, "name": "ts", "required": false, "type": "timestamp"},
    {"id": 4, "name": "price", "required": false, "type": "decimal(9,2)"},
    {"id": 5, "name": "score", "required": false, "type": "double"},
    {"id": 6, "name": "day", "required": false, "type": "date"}]})js");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return *s;
}

ExprPtr MustBind(const ExprPtr& e) {
  auto b = Bind(e, TestSchema());
  EXPECT_TRUE(b.ok()) << b.status().ToString();
  return b.ok() ? *b : False();
}

TEST(BindTest, ResolvesConvertsAndPushesNotDown) {
  ExprPtr e = MustBind(Not(And(Compare(Op::kGt, "id", Literal::Int(5)),
                               Compare(Op::kStartsWith, "data", Literal::String("a")))));
  EXPECT_EQ(ToString(e), "(id <= 5 or data not_starts_with \"a\")");
  EXPECT_EQ(e->left->field_id, 1);
  EXPECT_EQ(e->left->literals[0].type(), TypeId::kLong);  // int widened to the column's long
  ExprPtr d = MustBind(Compare(Op::kEq, "day", Literal::String("2017-11-16")));
  EXPECT_EQ(d->literals[0], Literal::Date(17486));
  ExprPtr t = MustBind(Compare(Op::kGtEq, "ts", Literal::String("2017-11-16T22:31:08")));
  EXPECT_EQ(t->literals[0], Literal::Timestamp(1510871468000000));
  ExprPtr p = MustBind(Compare(Op::kLt, "price", Literal::Int(10)));
  EXPECT_EQ(p->literals[0].ToString(), "10.00");
  EXPECT_EQ(MustBind(In("id", {}))->op, Op::kFalse);
  EXPECT_EQ(MustBind(Not(True()))->op, Op::kFalse);
}

TEST(BindTest, ErrorsNameTheProblem) {
  auto unknown = Bind(Compare(Op::kEq, "nope", Literal::Int(1)), TestSchema());
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("'nope'"), std::string::npos);
  EXPECT_FALSE(Bind(Compare(Op::kEq, "id", Literal::String("x")), TestSchema()).ok());
  EXPECT_FALSE(Bind(IsNan("data"), TestSchema()).ok());
  EXPECT_FALSE(Bind(Compare(Op::kStartsWith, "id", Literal::String("1")), TestSchema()).ok());
  EXPECT_FALSE(Bind(Compare(Op::kEq, "id", Literal::Null()), TestSchema()).ok());
  EXPECT_FALSE(Bind(Compare(Op::kEq, "day", Literal::String("2017-13-40")), TestSchema()).ok());
  // Case-insensitive binding when asked.
  EXPECT_FALSE(Bind(IsNull("ID"), TestSchema()).ok());
  EXPECT_TRUE(Bind(IsNull("ID"), TestSchema(), /*case_sensitive=*/false).ok());
}

TEST(CompareTest, OrdersEachTypeFamily) {
  EXPECT_LT(*CompareLiterals(Literal::Long(1), Literal::Long(2)), 0);
  EXPECT_GT(*CompareLiterals(Literal::String("b"), Literal::String("ab")), 0);
  // UTF-8 bytes compare unsigned: 'é' (0xC3 0xA9) sorts after 'z'.
  EXPECT_GT(*CompareLiterals(Literal::String("\xC3\xA9"), Literal::String("z")), 0);
  auto a = Literal::DecimalFromString("10.5");
  auto b = Literal::DecimalFromString("10.50");
  EXPECT_EQ(*CompareLiterals(*a, *b), 0);
  EXPECT_FALSE(CompareLiterals(Literal::Long(1), Literal::String("1")).ok());
}

FileStats Stats() {
  FileStats s;
  s.record_count = 100;
  s.value_counts = {{1, 100}, {2, 100}, {5, 100}};
  s.null_counts = {{1, 0}, {2, 10}, {5, 0}};
  s.nan_counts = {{5, 0}};
  s.lower_bounds = {
      {1, Literal::Long(10)}, {2, Literal::String("apple")}, {5, Literal::Double(0.5)}};
  s.upper_bounds = {
      {1, Literal::Long(20)}, {2, Literal::String("melon")}, {5, Literal::Double(9.5)}};
  return s;
}

bool Might(const ExprPtr& e, const FileStats& s = Stats()) {
  auto r = MetricsMightMatch(MustBind(e), s);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() && *r;
}

TEST(MetricsTest, BoundsCountsAndNulls) {
  EXPECT_FALSE(Might(Compare(Op::kLt, "id", Literal::Long(10))));
  EXPECT_TRUE(Might(Compare(Op::kLtEq, "id", Literal::Long(10))));
  EXPECT_FALSE(Might(Compare(Op::kGt, "id", Literal::Long(20))));
  EXPECT_TRUE(Might(Compare(Op::kGtEq, "id", Literal::Long(20))));
  EXPECT_FALSE(Might(Compare(Op::kEq, "id", Literal::Long(21))));
  EXPECT_TRUE(Might(Compare(Op::kEq, "id", Literal::Long(15))));
  EXPECT_TRUE(Might(Compare(Op::kNotEq, "id", Literal::Long(15))));
  EXPECT_FALSE(Might(In("id", {Literal::Long(1), Literal::Long(30)})));
  EXPECT_TRUE(Might(In("id", {Literal::Long(1), Literal::Long(12)})));
  EXPECT_FALSE(Might(IsNull("id")));  // null count 0
  EXPECT_TRUE(Might(IsNull("data")));
  EXPECT_FALSE(Might(IsNan("score")));  // nan count 0
  EXPECT_FALSE(Might(Compare(Op::kStartsWith, "data", Literal::String("zz"))));
  EXPECT_FALSE(Might(Compare(Op::kStartsWith, "data", Literal::String("aa"))));
  EXPECT_TRUE(Might(Compare(Op::kStartsWith, "data", Literal::String("b"))));
  EXPECT_TRUE(Might(Compare(Op::kStartsWith, "data", Literal::String("mel"))));
  // and / or combine; unknown metrics never prune.
  EXPECT_FALSE(Might(
      And(Compare(Op::kGt, "id", Literal::Long(12)), Compare(Op::kLt, "id", Literal::Long(5)))));
  EXPECT_TRUE(Might(Or(Compare(Op::kGt, "id", Literal::Long(99)), IsNull("data"))));
  EXPECT_TRUE(Might(Compare(Op::kEq, "ts", Literal::Timestamp(5))));
  FileStats empty;
  empty.record_count = 0;
  EXPECT_FALSE(Might(True(), empty));
  FileStats all_null = Stats();
  all_null.null_counts[2] = 100;
  EXPECT_FALSE(Might(NotNull("data"), all_null));
  EXPECT_FALSE(Might(Compare(Op::kEq, "data", Literal::String("kiwi")), all_null));
}

PartitionSpec DaySpec() {
  auto spec = ParsePartitionSpecJson(R"({"spec-id": 0, "fields": [
    {"source-id": 3, "field-id": 1000, "name": "ts_day", "transform": "day"},
    {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]"},
    {"source-id": 2, "field-id": 1002, "name": "data_trunc", "transform": "truncate[3]"},
    {"source-id": 6, "field-id": 1003, "name": "day", "transform": "identity"}]})");
  EXPECT_TRUE(spec.ok()) << spec.status().ToString();
  return *spec;
}

ExprPtr Project(const ExprPtr& e) {
  auto p = ProjectInclusive(MustBind(e), DaySpec(), TestSchema());
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : False();
}

TEST(ProjectionTest, ThroughEachTransform) {
  int64_t day_micros = int64_t{86400000000};
  // ts < day 10 at 00:00 -> ts_day <= 9 (the instant before midnight is on day 9).
  EXPECT_EQ(ToString(Project(Compare(Op::kLt, "ts", Literal::Timestamp(10 * day_micros)))),
            "ts_day <= 9");
  EXPECT_EQ(ToString(Project(Compare(Op::kGt, "ts", Literal::Timestamp(10 * day_micros)))),
            "ts_day >= 10");
  EXPECT_EQ(ToString(Project(Compare(Op::kEq, "ts", Literal::Timestamp(-1)))), "ts_day == -1");
  // bucket carries equality only.
  ExprPtr eq = Project(Compare(Op::kEq, "id", Literal::Long(34)));
  EXPECT_EQ(eq->op, Op::kEq);
  EXPECT_EQ(eq->field_id, 1001);
  EXPECT_EQ(Project(Compare(Op::kGt, "id", Literal::Long(34)))->op, Op::kTrue);
  EXPECT_EQ(ToString(Project(Compare(Op::kStartsWith, "data", Literal::String("icebe")))),
            "data_trunc == \"ice\"");
  EXPECT_EQ(ToString(Project(Compare(Op::kStartsWith, "data", Literal::String("ic")))),
            "data_trunc starts_with \"ic\"");
  EXPECT_EQ(ToString(Project(Compare(Op::kEq, "day", Literal::Date(3)))), "day == 3");
  EXPECT_EQ(Project(Compare(Op::kNotEq, "ts", Literal::Timestamp(1)))->op, Op::kTrue);
  EXPECT_EQ(Project(Compare(Op::kEq, "score", Literal::Double(1)))->op, Op::kTrue);
}

TEST(ProjectionTest, PartitionTuplesAndSummariesPrune) {
  int64_t day_micros = int64_t{86400000000};
  ExprPtr filter = And(Compare(Op::kGtEq, "ts", Literal::Timestamp(10 * day_micros)),
                       Compare(Op::kLt, "ts", Literal::Timestamp(12 * day_micros)));
  ExprPtr projected = Project(filter);
  auto on_day = [&](int32_t day) {
    Literal v = Literal::Int(day);
    auto r = Evaluate(projected, [&](int32_t id) { return id == 1000 ? &v : nullptr; });
    EXPECT_TRUE(r.ok());
    return *r;
  };
  EXPECT_FALSE(on_day(9));
  EXPECT_TRUE(on_day(10));
  EXPECT_TRUE(on_day(11));
  EXPECT_FALSE(on_day(12));

  std::map<int32_t, PartitionSummary> summaries;
  summaries[1000] = PartitionSummary{false, std::nullopt, Literal::Int(0), Literal::Int(9)};
  EXPECT_FALSE(*SummariesMightMatch(projected, summaries));
  summaries[1000].upper = Literal::Int(10);
  EXPECT_TRUE(*SummariesMightMatch(projected, summaries));
  // A manifest whose files all have a null day cannot match a range.
  summaries[1000] = PartitionSummary{true, std::nullopt, std::nullopt, std::nullopt};
  EXPECT_FALSE(*SummariesMightMatch(projected, summaries));
  EXPECT_TRUE(*SummariesMightMatch(Project(IsNull("ts")), summaries));
}

TEST(EvaluateTest, SqlNullSemantics) {
  ExprPtr e = MustBind(Or(Compare(Op::kEq, "id", Literal::Long(1)), IsNull("data")));
  Literal one = Literal::Long(1), two = Literal::Long(2), text = Literal::String("x");
  auto row = [&](const Literal* id, const Literal* data) {
    return [=](int32_t f) { return f == 1 ? id : (f == 2 ? data : nullptr); };
  };
  EXPECT_TRUE(*Evaluate(e, row(&one, &text)));
  EXPECT_FALSE(*Evaluate(e, row(&two, &text)));
  EXPECT_TRUE(*Evaluate(e, row(&two, nullptr)));
  ExprPtr ne = MustBind(Compare(Op::kNotEq, "data", Literal::String("y")));
  EXPECT_FALSE(*Evaluate(ne, row(&one, nullptr)));  // null != 'y' is not true
}

}  // namespace
}  // namespace sqe::iceberg::expr
