// The strict metrics evaluator: which files every row of provably matches, and the cases
// (nulls, NaNs, missing bounds, ranges that straddle) where it must say "maybe not".
#include "iceberg/expr/strict_metrics.h"

#include <gtest/gtest.h>

namespace sqe::iceberg::expr {
namespace {

Schema TestSchema() {
  return *ParseSchemaJson(R"({"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "x", "required": false, "type": "double"},
      {"id": 3, "name": "s", "required": false, "type": "string"},
      {"id": 4, "name": "region", "required": false, "type": "string"}]})");
}

ExprPtr B(const ExprPtr& e) {
  auto bound = Bind(e, TestSchema(), true);
  EXPECT_TRUE(bound.ok()) << bound.status().ToString();
  return *bound;
}

// ids in [10, 20], no nulls; x in [1.5, 2.5] with nan_count; s all null.
FileStats Stats(int64_t x_nans = 0) {
  FileStats s;
  s.record_count = 100;
  s.value_counts = {{1, 100}, {2, 100}, {3, 100}};
  s.null_counts = {{1, 0}, {2, 0}, {3, 100}};
  s.nan_counts = {{2, x_nans}};
  s.lower_bounds = {{1, Literal::Long(10)}, {2, Literal::Double(1.5)}};
  s.upper_bounds = {{1, Literal::Long(20)}, {2, Literal::Double(2.5)}};
  return s;
}

bool Strict(const ExprPtr& e, const FileStats& s, const IdentityPartitionValues* p = nullptr) {
  auto r = StrictMetricsMatch(B(e), s, p);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() && *r;
}

TEST(StrictMetrics, ComparisonsAgainstBounds) {
  FileStats s = Stats();
  EXPECT_TRUE(Strict(Compare(Op::kLt, "id", Literal::Long(21)), s));
  EXPECT_FALSE(Strict(Compare(Op::kLt, "id", Literal::Long(20)), s));
  EXPECT_TRUE(Strict(Compare(Op::kLtEq, "id", Literal::Long(20)), s));
  EXPECT_TRUE(Strict(Compare(Op::kGtEq, "id", Literal::Long(10)), s));
  EXPECT_FALSE(Strict(Compare(Op::kGt, "id", Literal::Long(10)), s));
  EXPECT_FALSE(Strict(Compare(Op::kEq, "id", Literal::Long(10)), s));
  EXPECT_TRUE(Strict(Compare(Op::kNotEq, "id", Literal::Long(9)), s));
  EXPECT_FALSE(Strict(Compare(Op::kNotEq, "id", Literal::Long(15)), s));
  EXPECT_TRUE(Strict(NotIn("id", {Literal::Long(1), Literal::Long(30)}), s));
  EXPECT_FALSE(Strict(NotIn("id", {Literal::Long(1), Literal::Long(12)}), s));
  EXPECT_FALSE(Strict(In("id", {Literal::Long(10), Literal::Long(20)}), s));
  EXPECT_TRUE(Strict(
      And(Compare(Op::kGt, "id", Literal::Long(0)), Compare(Op::kLt, "x", Literal::Double(3.0))),
      s));
  EXPECT_TRUE(Strict(
      Or(Compare(Op::kGt, "id", Literal::Long(100)), Compare(Op::kLt, "id", Literal::Long(100))),
      s));
  EXPECT_TRUE(Strict(NotNull("id"), s));
  EXPECT_TRUE(Strict(IsNull("s"), s));
  EXPECT_FALSE(Strict(NotNull("s"), s));
  EXPECT_FALSE(Strict(Compare(Op::kGt, "s", Literal::String("")), s));  // all null
  EXPECT_FALSE(Strict(Compare(Op::kStartsWith, "s", Literal::String("a")), s));
}

TEST(StrictMetrics, NullsNansAndUnknownsAreMaybeNot) {
  EXPECT_FALSE(Strict(Compare(Op::kLt, "x", Literal::Double(3.0)), Stats(/*x_nans=*/2)));
  FileStats unknown = Stats();
  unknown.nan_counts.clear();
  EXPECT_FALSE(Strict(Compare(Op::kLt, "x", Literal::Double(3.0)), unknown));
  FileStats some_null = Stats();
  some_null.null_counts[1] = 1;
  EXPECT_FALSE(Strict(Compare(Op::kLt, "id", Literal::Long(100)), some_null));
  FileStats no_bounds = Stats();
  no_bounds.upper_bounds.clear();
  EXPECT_FALSE(Strict(Compare(Op::kLt, "id", Literal::Long(100)), no_bounds));
  FileStats single;
  single.record_count = 5;
  single.value_counts = {{1, 5}};
  single.null_counts = {{1, 0}};
  single.lower_bounds = {{1, Literal::Long(7)}};
  single.upper_bounds = {{1, Literal::Long(7)}};
  EXPECT_TRUE(Strict(Compare(Op::kEq, "id", Literal::Long(7)), single));
  EXPECT_TRUE(Strict(In("id", {Literal::Long(3), Literal::Long(7)}), single));
  FileStats empty;
  empty.record_count = 0;
  EXPECT_TRUE(Strict(Compare(Op::kEq, "id", Literal::Long(1)), empty));
}

TEST(StrictMetrics, IdentityPartitionValuesDecideExactly) {
  FileStats s = Stats();  // no metrics at all for region (field 4)
  IdentityPartitionValues eu = {{4, Literal::String("eu")}};
  IdentityPartitionValues none = {{4, std::nullopt}};
  EXPECT_TRUE(Strict(Compare(Op::kEq, "region", Literal::String("eu")), s, &eu));
  EXPECT_FALSE(Strict(Compare(Op::kEq, "region", Literal::String("us")), s, &eu));
  EXPECT_FALSE(Strict(Compare(Op::kEq, "region", Literal::String("eu")), s));
  EXPECT_TRUE(Strict(IsNull("region"), s, &none));
  EXPECT_FALSE(Strict(Compare(Op::kEq, "region", Literal::String("eu")), s, &none));
  EXPECT_TRUE(Strict(And(Compare(Op::kEq, "region", Literal::String("eu")),
                         Compare(Op::kGtEq, "id", Literal::Long(10))),
                     s, &eu));
}

}  // namespace
}  // namespace sqe::iceberg::expr
