#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/test_columns.h"
#include "common/hex.h"
#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/aggregate_merge.h"
#include "exec/functions/aggregate_ordered.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/registry.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::TypePtr;
using namespace columnar::testing;  // NOLINT

const FunctionRegistry& Registry() {
  static FunctionRegistry* registry = [] {
    auto* r = new FunctionRegistry();
    RegisterAggregateFunctions(*r);
    return r;
  }();
  return *registry;
}

Column Decimals(const std::vector<std::optional<int64_t>>& unscaled, int precision, int scale) {
  columnar::Decimal128Builder builder(columnar::Decimal(precision, scale));
  for (const auto& v : unscaled) {
    DieIfError(v ? builder.Append(columnar::Decimal128(*v)) : builder.AppendNull());
  }
  return ValueOrDie(builder.Finish());
}

/// Runs `fn` over `args` with every row in the group groups[i] (all 0 when empty), split
/// into two accumulators merged at the end (so Merge is exercised too).
Result<Column> RunFunction(const AggregateFunction* fn, const std::vector<Column>& args,
                           std::vector<uint32_t> groups = {}, int64_t num_groups = 1,
                           int64_t rows = -1) {
  if (rows < 0) rows = args.empty() ? 0 : args[0].length();
  if (groups.empty()) groups.assign(static_cast<size_t>(rows), 0);
  auto tracker = MemoryTracker::Create(MemoryScope::kOperator, "test");
  SQE_ASSIGN_OR_RETURN(auto left, fn->make_accumulator(tracker));
  SQE_ASSIGN_OR_RETURN(auto right, fn->make_accumulator(tracker));
  SQE_RETURN_NOT_OK(left->Resize(num_groups));
  SQE_RETURN_NOT_OK(right->Resize(num_groups));
  const int64_t half = rows / 2;
  std::vector<Column> first, second;
  for (const Column& c : args) {
    first.push_back(c.Slice(0, half));
    second.push_back(c.Slice(half, rows - half));
  }
  SQE_RETURN_NOT_OK(left->Update(first, groups.data(), half));
  SQE_RETURN_NOT_OK(right->Update(second, groups.data() + half, rows - half));
  std::vector<uint32_t> identity(static_cast<size_t>(num_groups));
  for (uint32_t g = 0; g < identity.size(); ++g) identity[g] = g;
  SQE_RETURN_NOT_OK(left->Merge(*right, identity.data()));
  if (rows > 0) EXPECT_GT(tracker->current(), 0);
  return left->Finalize();
}

/// RunFunction() of the overload of `name` that takes `args`' types.
Result<Column> Aggregate(const std::string& name, const std::vector<Column>& args,
                         std::vector<uint32_t> groups = {}, int64_t num_groups = 1,
                         bool distinct = false, int64_t rows = -1) {
  std::vector<TypePtr> types;
  for (const Column& c : args) types.push_back(c.type());
  SQE_ASSIGN_OR_RETURN(const AggregateFunction* fn,
                       Registry().ResolveAggregate(name, types, distinct));
  return RunFunction(fn, args, std::move(groups), num_groups, rows);
}

std::string AggJson(const std::string& name, const std::vector<Column>& args,
                    std::vector<uint32_t> groups = {}, int64_t num_groups = 1,
                    bool distinct = false) {
  Result<Column> r = Aggregate(name, args, std::move(groups), num_groups, distinct);
  if (!r.ok()) return "error: " + r.status().ToString();
  return Json(*r);
}

TEST(AggregateFunctionsTest, CountStarCountAndCountIf) {
  Column x = Int64s({1, std::nullopt, 3, 4, std::nullopt});
  EXPECT_EQ(AggJson("count", {x}), "[3]");
  EXPECT_EQ(AggJson("count", {x}, {0, 1, 1, 0, 1}, 3), "[2,1,0]");
  Result<Column> star = Aggregate("count", {}, {0, 0, 1, 1, 1}, 3, false, 5);
  SQE_ASSERT_OK(star);
  EXPECT_EQ(Json(*star), "[2,3,0]");
  EXPECT_EQ(AggJson("count_if", {Bools({true, false, std::nullopt, true})}), "[2]");
}

TEST(AggregateFunctionsTest, EmptyInputCountIsZeroOthersNull) {
  Column empty = Int64s({});
  EXPECT_EQ(AggJson("count", {empty}), "[0]");
  for (const char* fn : {"sum", "avg", "min", "max", "arbitrary", "stddev", "var_pop"}) {
    EXPECT_EQ(AggJson(fn, {empty}), "[null]") << fn;
  }
  EXPECT_EQ(AggJson("approx_distinct", {empty}), "[0]");
  EXPECT_EQ(AggJson("bool_and", {Bools({})}), "[null]");
}

TEST(AggregateFunctionsTest, SumTypesNullsAndOverflow) {
  EXPECT_EQ(AggJson("sum", {Int32s({1, 2, std::nullopt, 4})}), "[7]");
  EXPECT_EQ(AggJson("sum", {Int64s({std::nullopt, std::nullopt})}), "[null]");
  EXPECT_EQ(AggJson("sum", {Float64s({1.5, 2.25})}), "[3.75]");
  Result<Column> overflow = Aggregate("sum", {Int64s({INT64_MAX, 1})});
  ASSERT_FALSE(overflow.ok());
  EXPECT_NE(overflow.status().message().find("overflow"), std::string::npos);
  // Overflow only across the two merged halves.
  Result<Column> merged = Aggregate("sum", {Int64s({INT64_MAX, 0, 1, 0})});
  EXPECT_FALSE(merged.ok());
  // decimal(5,2) -> decimal(38,2).
  SQE_ASSIGN_OR_FAIL(const AggregateFunction* fn,
                     Registry().ResolveAggregate("sum", {columnar::Decimal(5, 2)}, false));
  EXPECT_EQ(fn->return_type->ToString(), "decimal(38,2)");
  EXPECT_EQ(AggJson("sum", {Decimals({12345, -45, std::nullopt}, 5, 2)}), "[\"123.00\"]");
}

TEST(AggregateFunctionsTest, DecimalSumPastThirtyEightDigitsFails) {
  const int64_t big = 999999999999999999;  // 18 nines
  // 10^20 copies would be needed for real overflow; use decimal(38,0) values near the top.
  columnar::Decimal128Builder builder(columnar::Decimal(38, 0));
  columnar::Decimal128 near_max = columnar::Decimal128::PowerOfTen(38);
  near_max = columnar::Decimal128(near_max.high, near_max.low - 1);  // 10^38 - 1
  DieIfError(builder.Append(near_max));
  DieIfError(builder.Append(columnar::Decimal128(big)));
  Column c = ValueOrDie(builder.Finish());
  Result<Column> r = Aggregate("sum", {c});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("overflow"), std::string::npos);
}

TEST(AggregateFunctionsTest, AvgTypesAndDecimalHalfUpRounding) {
  EXPECT_EQ(AggJson("avg", {Int64s({1, 2, std::nullopt})}), "[1.5]");
  EXPECT_EQ(AggJson("avg", {Float64s({1.0, 2.0, 6.0})}), "[3]");
  // decimal(4,1): avg(0.1, 0.2) = 0.15 -> 0.2 (half up); avg(-0.1, -0.2) -> -0.2.
  EXPECT_EQ(AggJson("avg", {Decimals({1, 2}, 4, 1)}), "[\"0.2\"]");
  EXPECT_EQ(AggJson("avg", {Decimals({-1, -2}, 4, 1)}), "[\"-0.2\"]");
  // 1.0, 1.0, 1.1 -> 1.0333 -> 1.0; 0.1, 0.1, 0.2, 0.2 -> 0.15 -> 0.2.
  EXPECT_EQ(AggJson("avg", {Decimals({10, 10, 11}, 4, 1)}), "[\"1.0\"]");
  EXPECT_EQ(AggJson("avg", {Decimals({1, 1, 2, 2, std::nullopt}, 4, 1)}), "[\"0.2\"]");
  SQE_ASSIGN_OR_FAIL(const AggregateFunction* fn,
                     Registry().ResolveAggregate("avg", {columnar::Decimal(10, 3)}, false));
  EXPECT_EQ(fn->return_type->ToString(), "decimal(10,3)");
}

TEST(AggregateFunctionsTest, MinMaxOverEveryOrderableType) {
  EXPECT_EQ(AggJson("min", {Int64s({5, std::nullopt, -3, 9})}), "[-3]");
  EXPECT_EQ(AggJson("max", {Int64s({5, std::nullopt, -3, 9})}), "[9]");
  EXPECT_EQ(AggJson("max", {Float64s({1.0, NAN, 3.0})}), "[\"NaN\"]");
  EXPECT_EQ(AggJson("min", {Float64s({1.0, NAN, -3.0})}), "[-3]");
  EXPECT_EQ(AggJson("min", {Strings({"pear", "apple", std::nullopt, "zoo"})}), "[\"apple\"]");
  EXPECT_EQ(AggJson("max", {Strings({"pear", "apple", "\xC3\xA9", "zoo"})}), "[\"\xC3\xA9\"]");
  EXPECT_EQ(AggJson("max", {Bools({false, true, std::nullopt})}), "[true]");
  EXPECT_EQ(AggJson("min", {Bools({false, true})}), "[false]");
  EXPECT_EQ(AggJson("min", {Decimals({-500, 12, std::nullopt}, 10, 2)}), "[\"-5.00\"]");
  Column dates = BuildFixed<columnar::Date32Builder, int32_t>(columnar::Date32(),
                                                              {19000, 18000, std::nullopt});
  EXPECT_EQ(AggJson("max", {dates}), "[\"2022-01-08\"]");
  Column ts =
      BuildFixed<columnar::TimestampBuilder, int64_t>(columnar::Timestamp(), {5, -7, std::nullopt});
  EXPECT_EQ(Json(ValueOrDie(Aggregate("min", {ts}))), Json(ts.Slice(1, 1)));
  EXPECT_EQ(AggJson("max", {Strings({"b", "a", "c", "a"})}, {0, 0, 1, 1}, 3), "[\"b\",\"c\",null]");
  EXPECT_EQ(AggJson("arbitrary", {Int64s({std::nullopt, 7, 8})}), "[7]");
  EXPECT_EQ(AggJson("any_value", {Strings({std::nullopt, "x"})}), "[\"x\"]");
}

TEST(AggregateFunctionsTest, MaxByMinBy) {
  Column x = Strings({"a", "b", "c", std::nullopt});
  Column y = Int64s({3, 9, std::nullopt, 1});
  EXPECT_EQ(AggJson("max_by", {x, y}), "[\"b\"]");
  EXPECT_EQ(AggJson("min_by", {x, y}), "[null]");  // the row with y = 1 has x NULL
  EXPECT_EQ(AggJson("max_by", {Int64s({10, 20, 30}), Strings({"m", "z", "a"})}), "[20]");
}

TEST(AggregateFunctionsTest, VarianceFamily) {
  Column x = Float64s({2, 4, 4, 4, 5, 5, 7, 9, std::nullopt});
  EXPECT_EQ(AggJson("var_pop", {x}), "[4]");
  EXPECT_EQ(AggJson("stddev_pop", {x}), "[2]");
  SQE_ASSIGN_OR_FAIL(Column samp, Aggregate("var_samp", {x}));
  EXPECT_NEAR(samp.Value<double>(0), 32.0 / 7.0, 1e-12);
  SQE_ASSIGN_OR_FAIL(Column sd, Aggregate("stddev", {x}));
  EXPECT_NEAR(sd.Value<double>(0), std::sqrt(32.0 / 7.0), 1e-12);
  EXPECT_EQ(AggJson("variance", {Float64s({3})}), "[null]");
  EXPECT_EQ(AggJson("var_pop", {Float64s({3})}), "[0]");
  // Large offset: Welford keeps precision where sum of squares would not.
  std::vector<std::optional<double>> shifted;
  for (double v : {4.0, 7.0, 13.0, 16.0}) shifted.push_back(1e9 + v);
  SQE_ASSIGN_OR_FAIL(Column big, Aggregate("var_samp", {Float64s(shifted)}));
  EXPECT_NEAR(big.Value<double>(0), 30.0, 1e-6);
  // Integers resolve to the double overload (the binder casts).
  SQE_ASSIGN_OR_FAIL(const AggregateFunction* fn,
                     Registry().ResolveAggregate("stddev", {columnar::Int64()}, false));
  EXPECT_EQ(fn->arg_types[0]->ToString(), "double");
}

TEST(AggregateFunctionsTest, BoolAndOrEvery) {
  Column b = Bools({true, std::nullopt, false, true});
  EXPECT_EQ(AggJson("bool_and", {b}), "[false]");
  EXPECT_EQ(AggJson("every", {b}, {0, 0, 1, 0}, 2), "[true,false]");
  EXPECT_EQ(AggJson("bool_or", {b}, {0, 0, 1, 1}, 2), "[true,true]");
  EXPECT_EQ(AggJson("bool_or", {Bools({false, std::nullopt})}), "[false]");
}

TEST(AggregateFunctionsTest, DistinctAggregates) {
  Column x = Int64s({1, 2, 2, std::nullopt, 3, 3, 3});
  EXPECT_EQ(AggJson("count", {x}, {}, 1, true), "[3]");
  EXPECT_EQ(AggJson("sum", {x}, {}, 1, true), "[6]");
  EXPECT_EQ(AggJson("avg", {x}, {}, 1, true), "[2]");
  // Per group: group 0 sees {1, 2}, group 1 sees {2, 3}.
  EXPECT_EQ(AggJson("count", {x}, {0, 0, 0, 0, 1, 1, 1}, 2, true), "[2,1]");
  Column s = Strings({"a", "b", "a", "a", std::nullopt, "b"});
  EXPECT_EQ(AggJson("count", {s}, {0, 1, 0, 1, 1, 0}, 2, true), "[2,2]");
  EXPECT_EQ(AggJson("count", {Int64s({})}, {}, 1, true), "[0]");
  // array_agg collects NULLs, so DISTINCT keeps one; count ignores them.
  Column with_nulls = Int64s({2, std::nullopt, 2, std::nullopt});
  EXPECT_EQ(AggJson("array_agg", {with_nulls}, {}, 1, true), "[[2,null]]");
  EXPECT_EQ(AggJson("count", {with_nulls}, {}, 1, true), "[1]");
}

TEST(AggregateFunctionsTest, ApproxDistinctWithinError) {
  for (int64_t n : {0, 10, 200, 1000, 100000}) {
    std::vector<std::optional<int64_t>> values;
    for (int64_t i = 0; i < n; ++i) values.push_back(i % (n / 2 + 1) * 7919);  // repeats
    const int64_t exact = n == 0 ? 0 : std::min<int64_t>(n, n / 2 + 1);
    SQE_ASSIGN_OR_FAIL(Column r, Aggregate("approx_distinct", {Int64s(values)}));
    const double estimate = static_cast<double>(r.Value<int64_t>(0));
    if (exact <= 256) {
      EXPECT_EQ(estimate, exact) << n;
    } else {
      EXPECT_NEAR(estimate, exact, exact * 0.023 * 3) << n;
    }
  }
  std::vector<std::optional<std::string>> strings;
  for (int i = 0; i < 5000; ++i) strings.push_back("key-" + std::to_string(i % 3000));
  SQE_ASSIGN_OR_FAIL(Column r, Aggregate("approx_distinct", {Strings(strings)}));
  EXPECT_NEAR(static_cast<double>(r.Value<int64_t>(0)), 3000, 3000 * 0.07);
}

TEST(AggregateFunctionsTest, MergeSkipsGroupsMappedToSkip) {
  SQE_ASSIGN_OR_FAIL(const AggregateFunction* fn,
                     Registry().ResolveAggregate("sum", {columnar::Int64()}, false));
  SQE_ASSIGN_OR_FAIL(auto a, fn->make_accumulator(nullptr));
  SQE_ASSIGN_OR_FAIL(auto b, fn->make_accumulator(nullptr));
  SQE_ASSERT_OK(a->Resize(1));
  SQE_ASSERT_OK(b->Resize(2));
  std::vector<uint32_t> groups = {0, 1};
  SQE_ASSERT_OK(b->Update({Int64s({5, 7})}, groups.data(), 2));
  std::vector<uint32_t> map = {kSkipGroup, 0};
  SQE_ASSERT_OK(a->Merge(*b, map.data()));
  SQE_ASSIGN_OR_FAIL(Column r, a->Finalize());
  EXPECT_EQ(Json(r), "[7]");
}

TEST(AggregateFunctionsTest, MemoryLimitIsResourceExhausted) {
  SQE_ASSIGN_OR_FAIL(const AggregateFunction* fn,
                     Registry().ResolveAggregate("count", {columnar::Int64()}, false));
  auto tracker = MemoryTracker::Create(MemoryScope::kQuery, "q", 1024);
  SQE_ASSIGN_OR_FAIL(auto acc, fn->make_accumulator(tracker));
  Status st = acc->Resize(1 << 20);
  EXPECT_EQ(st.code(), StatusCode::kResourceExhausted);
}

TEST(AggregateFunctionsTest, PairStatisticsMatchReference) {
  Column y = Float64s({1, 2, 3, 4, 5, std::nullopt});
  Column x = Float64s({2, 4, 5, 4, 5, 9});
  auto one = [&](const std::string& name) {
    Result<Column> r = Aggregate(name, {y, x});
    return r.ok() ? r->Value<double>(0) : NAN;
  };
  EXPECT_NEAR(one("corr"), 0.7745966692414833, 1e-12);
  EXPECT_NEAR(one("covar_pop"), 1.2, 1e-12);
  EXPECT_NEAR(one("covar_samp"), 1.5, 1e-12);
  EXPECT_NEAR(one("regr_slope"), 1.0, 1e-12);
  EXPECT_NEAR(one("regr_intercept"), -1.0, 1e-12);
  EXPECT_NEAR(one("regr_r2"), 0.6, 1e-12);
  EXPECT_NEAR(one("regr_sxx"), 6.0, 1e-12);
  EXPECT_NEAR(one("regr_avgx"), 4.0, 1e-12);
  EXPECT_EQ(AggJson("regr_count", {y, x}), "[5]");
  // Constant x: Trino gives NULL for corr and the slope, not NaN; one pair: no covar_samp.
  Column c = Float64s({3, 3, 3});
  EXPECT_EQ(AggJson("corr", {Float64s({1, 2, 3}), c}), "[null]");
  EXPECT_EQ(AggJson("regr_slope", {Float64s({1, 2, 3}), c}), "[null]");
  EXPECT_EQ(AggJson("covar_samp", {Float64s({1}), Float64s({2})}), "[null]");
  EXPECT_EQ(AggJson("covar_pop", {Float64s({}), Float64s({})}), "[null]");
  EXPECT_EQ(AggJson("regr_count", {Float64s({}), Float64s({})}), "[0]");
  // Two groups.
  EXPECT_EQ(AggJson("covar_pop", {Float64s({1, 3, 5, 5}), Float64s({1, 3, 2, 2})}, {0, 0, 1, 1}, 2),
            "[1,0]");
}

TEST(AggregateFunctionsTest, MomentsGeometricMeanAndBitwise) {
  SQE_ASSIGN_OR_FAIL(Column k, Aggregate("kurtosis", {Float64s({1, 2, 3, 4, 5})}));
  EXPECT_NEAR(k.Value<double>(0), -1.2, 1e-9);
  SQE_ASSIGN_OR_FAIL(Column s, Aggregate("skewness", {Float64s({1, 2, 3, 4, 5, 10})}));
  EXPECT_NEAR(s.Value<double>(0), 1.0513280892320203, 1e-9);
  EXPECT_EQ(AggJson("skewness", {Float64s({1, 2})}), "[null]");
  EXPECT_EQ(AggJson("kurtosis", {Float64s({1, 2, 3})}), "[null]");
  SQE_ASSIGN_OR_FAIL(Column g, Aggregate("geometric_mean", {Float64s({2, 4, 5, 4, 5})}));
  EXPECT_NEAR(g.Value<double>(0), 3.807307877431757, 1e-12);
  EXPECT_EQ(AggJson("bitwise_and_agg", {Int64s({7, 13, std::nullopt})}), "[5]");
  EXPECT_EQ(AggJson("bitwise_or_agg", {Int64s({1, 4, std::nullopt, 8})}), "[13]");
  EXPECT_EQ(AggJson("bitwise_xor_agg", {Int64s({3, 5})}), "[6]");
  EXPECT_EQ(AggJson("bitwise_and_agg", {Int64s({std::nullopt})}), "[null]");
}

TEST(AggregateFunctionsTest, ArrayAggListaggMapAggHistogram) {
  Column x = Int64s({1, std::nullopt, 3, 4});
  EXPECT_EQ(AggJson("array_agg", {x}), "[[1,null,3,4]]");
  EXPECT_EQ(AggJson("array_agg", {x}, {0, 1, 0, 1}, 3), "[[1,3],[null,4],null]");
  Column s = Strings({"a", std::nullopt, "b", "c"});
  Column sep = Strings({",", ",", ",", ","});
  EXPECT_EQ(AggJson("listagg", {s, sep}), "[\"a,b,c\"]");
  EXPECT_EQ(AggJson("string_agg", {s, sep}, {0, 0, 1, 0}, 3), "[\"a,c\",\"b\",null]");
  Column keys = Strings({"k", "j", std::nullopt, "k"});
  EXPECT_EQ(AggJson("map_agg", {keys, Int64s({1, 2, 3, 4})}), "[{\"k\":1,\"j\":2}]");
  EXPECT_EQ(AggJson("multimap_agg", {keys, Int64s({1, 2, 3, 4})}), "[{\"k\":[1,4],\"j\":[2]}]");
  EXPECT_EQ(AggJson("histogram", {Strings({"a", "b", "a", std::nullopt, "a"})}),
            "[{\"a\":3,\"b\":1}]");
  EXPECT_EQ(AggJson("histogram", {Strings({})}), "[null]");
}

TEST(AggregateFunctionsTest, ChecksumIsTrinosXxHash64Sum) {
  EXPECT_EQ(aggregate_internal::XxHash64("", 0), 0xef46db3751d8e999ULL);
  const std::string long_text = "abcdefghijklmnopqrstuvwxyz0123456789";
  EXPECT_EQ(aggregate_internal::XxHash64(long_text.data(), long_text.size()),
            0x64f23ecf1609b766ULL);
  // Expected values: Python's xxhash over the same bytes, summed as Trino does.
  SQE_ASSIGN_OR_FAIL(Column r, Aggregate("checksum", {Int64s({3, std::nullopt, 1, 2})}));
  EXPECT_EQ(HexLower(r.StringAt(0)), "31b60493edc831a4");
  SQE_ASSIGN_OR_FAIL(
      Column t,
      Aggregate("checksum", {Strings({"hello world, this is longer than 32 bytes!!", "a"})}));
  EXPECT_EQ(HexLower(t.StringAt(0)), "ff22b24cba18e4f9");
  EXPECT_EQ(AggJson("checksum", {Int64s({})}), "[null]");
}

TEST(AggregateFunctionsTest, HashingAggregatesTakeArraysByValue) {
  // NULL elements equal each other; a NULL array is skipped by approx_distinct.
  const std::vector<std::optional<int64_t>> null_element = {std::nullopt};
  Column a = Int64Lists({{{1, 2}}, {{2}}, {{1, 2}}, std::nullopt, null_element, null_element});
  ASSERT_EQ(Json(a), "[[1,2],[2],[1,2],null,[null],[null]]");
  EXPECT_EQ(AggJson("approx_distinct", {a}), "[3]");
  EXPECT_EQ(AggJson("approx_distinct", {a}, {0, 1, 1, 0, 1, 0}, 2), "[2,3]");
  // checksum: the same multiset of arrays in another order gives the same bytes; a
  // different one (or one more NULL) does not.
  SQE_ASSIGN_OR_FAIL(Column x,
                     Aggregate("checksum", {Int64Lists({{{1}}, {{2, 3}}, std::nullopt})}));
  SQE_ASSIGN_OR_FAIL(Column y,
                     Aggregate("checksum", {Int64Lists({std::nullopt, {{2, 3}}, {{1}}})}));
  SQE_ASSIGN_OR_FAIL(Column z,
                     Aggregate("checksum", {Int64Lists({{{1}}, {{3, 2}}, std::nullopt})}));
  SQE_ASSIGN_OR_FAIL(Column w, Aggregate("checksum", {Int64Lists({{{1}}, {{2, 3}}})}));
  EXPECT_EQ(x.StringAt(0), y.StringAt(0));
  EXPECT_NE(x.StringAt(0), z.StringAt(0));
  EXPECT_NE(x.StringAt(0), w.StringAt(0));
}

TEST(AggregateFunctionsTest, KeyedAggregatesKeyArraysByValue) {
  // Split over two accumulators, so the keys come from two pieces.
  Column a = Int64Lists({{{1}}, {{2, std::nullopt}}, {{1}}, {{2, std::nullopt}}, {{}}});
  SQE_ASSIGN_OR_FAIL(Column h, Aggregate("histogram", {a}));
  ASSERT_EQ(h.ListLength(0), 3);
  EXPECT_EQ(Json(h.MapKeys()), "[[1],[2,null],[]]");
  EXPECT_EQ(Json(h.MapItems()), "[2,2,1]");
  SQE_ASSIGN_OR_FAIL(Column m, Aggregate("multimap_agg", {a, Int64s({10, 20, 30, 40, 50})}));
  EXPECT_EQ(Json(m.MapKeys()), "[[1],[2,null],[]]");
  EXPECT_EQ(Json(m.MapItems()), "[[10,30],[20,40],[50]]");
}

TEST(AggregateFunctionsTest, ByNOrdersByArrayKeys) {
  Column v = Int64s({1, 2, 3, 4});
  Column y = Int64Lists({{{2}}, {{1}}, {{3}}, {{2, 5}}});
  EXPECT_EQ(AggJson("max_by", {v, y, Int64s({2, 2, 2, 2})}), "[[3,4]]");
  EXPECT_EQ(AggJson("min_by", {v, y, Int64s({2, 2, 2, 2})}), "[[2,1]]");
  EXPECT_EQ(AggJson("min_by", {y, v, Int64s({2, 2, 2, 2})}), "[[[2],[1]]]");
}

TEST(AggregateFunctionsTest, ApproxPercentileExactWhenSmallAndCloseWhenLarge) {
  Column x = Int64s({5, 1, 4, 2, 3, std::nullopt});
  Column half = Float64s({0.5, 0.5, 0.5, 0.5, 0.5, 0.5});
  EXPECT_EQ(AggJson("approx_percentile", {x, half}), "[3]");
  Column zero = Float64s({0, 0, 0, 0, 0, 0});
  EXPECT_EQ(AggJson("approx_percentile", {x, zero}), "[1]");
  EXPECT_EQ(AggJson("approx_percentile", {Int64s({}), Float64s({})}), "[null]");
  Column bad = Float64s({1.5, 1.5, 1.5, 1.5, 1.5, 1.5});
  EXPECT_NE(AggJson("approx_percentile", {x, bad}).find("between 0 and 1"), std::string::npos);
  // 200k values 0..199999 shuffled by a stride: rank error under 1%.
  const int64_t n = 200000;
  std::vector<std::optional<double>> values, ps;
  for (int64_t i = 0; i < n; ++i) {
    values.push_back(static_cast<double>((i * 7919) % n));
    ps.push_back(0.9);
  }
  SQE_ASSIGN_OR_FAIL(Column r, Aggregate("approx_percentile", {Float64s(values), Float64s(ps)}));
  EXPECT_NEAR(r.Value<double>(0), 0.9 * n, n * 0.01);
}

TEST(AggregateFunctionsTest, ApproxDistinctMillionWithinThreeStandardErrors) {
  std::vector<std::optional<int64_t>> values;
  const int64_t n = 1000000;
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i) values.push_back(i * 2654435761LL);
  SQE_ASSIGN_OR_FAIL(Column r, Aggregate("approx_distinct", {Int64s(values)}));
  EXPECT_NEAR(static_cast<double>(r.Value<int64_t>(0)), n, n * 0.023 * 3);
}

TEST(AggregateFunctionsTest, MaxByMinByTopN) {
  Column x = Strings({"a", "b", "c", "d", "e", "f"});
  Column y = Int64s({3, 9, std::nullopt, 9, 1, 5});
  Column n = Int64s({2, 2, 2, 2, 2, 2});
  EXPECT_EQ(AggJson("max_by", {x, y, n}), "[[\"b\",\"d\"]]");
  EXPECT_EQ(AggJson("min_by", {x, y, n}), "[[\"e\",\"a\"]]");
  EXPECT_EQ(AggJson("max_by", {x, y, n}, {0, 0, 0, 1, 1, 2}, 4),
            "[[\"b\",\"a\"],[\"d\",\"e\"],[\"f\"],null]");
  Column many = Int64s({10, 10, 10, 10, 10, 10});
  EXPECT_EQ(AggJson("min_by", {x, y, many}), "[[\"e\",\"a\",\"f\",\"b\",\"d\"]]");
  Column zero = Int64s({0, 0, 0, 0, 0, 0});
  EXPECT_NE(AggJson("max_by", {x, y, zero}).find("positive integer"), std::string::npos);
}

TEST(AggregateFunctionsTest, OrderedWrapperSortsEachGroupAndDropsFilteredRows) {
  SQE_ASSIGN_OR_FAIL(const AggregateFunction* inner,
                     Registry().ResolveAggregate("array_agg", {columnar::Int64()}, false));
  SQE_ASSIGN_OR_FAIL(const AggregateFunction* ordered,
                     MakeOrderedAggregate(inner, {{columnar::String(), false, false}}, true));
  EXPECT_EQ(ordered->arg_types.size(), 3u);
  // The same arguments give the same (interned) function.
  SQE_ASSIGN_OR_FAIL(const AggregateFunction* again,
                     MakeOrderedAggregate(inner, {{columnar::String(), false, false}}, true));
  EXPECT_EQ(ordered, again);
  Column x = Int64s({1, 2, 3, 4, 5, 6});
  Column key = Strings({"b", std::nullopt, "c", "a", "c", "z"});
  Column keep = Bools({true, true, true, true, true, false});
  // Group 0: rows 0..4 (DESC, NULLS LAST, ties in arrival order); group 1: row 5, filtered.
  SQE_ASSIGN_OR_FAIL(Column r, RunFunction(ordered, {x, key, keep}, {0, 0, 0, 0, 0, 1}, 2));
  EXPECT_EQ(Json(r), "[[3,5,1,4,2],null]");
  SQE_ASSIGN_OR_FAIL(Column none,
                     RunFunction(ordered, {Int64s({}), Strings({}), Bools({})}, {}, 1));
  EXPECT_EQ(Json(none), "[null]");
  // Arrays order (by their order-preserving images); maps have no order.
  EXPECT_TRUE(
      MakeOrderedAggregate(inner, {{columnar::List(columnar::Int64()), true, false}}, false).ok());
  EXPECT_FALSE(
      MakeOrderedAggregate(
          inner, {{columnar::Map(columnar::Int64(), columnar::Int64()), true, false}}, false)
          .ok());
}

TEST(AggregateFunctionsTest, ListsAllAggregates) {
  for (const char* name : {"count",   "count_if",    "sum",        "avg",      "min",
                           "max",     "arbitrary",   "any_value",  "max_by",   "min_by",
                           "stddev",  "stddev_samp", "stddev_pop", "variance", "var_samp",
                           "var_pop", "bool_and",    "bool_or",    "every",    "approx_distinct"}) {
    EXPECT_TRUE(Registry().IsAggregate(name)) << name;
  }
}

TEST(AggregateFunctionsTest, ListsTheCollectionAndStatisticsAggregates) {
  for (const char* name :
       {"array_agg",      "listagg",        "string_agg",     "map_agg",
        "multimap_agg",   "histogram",      "checksum",       "approx_percentile",
        "corr",           "covar_pop",      "covar_samp",     "regr_slope",
        "regr_intercept", "regr_count",     "regr_r2",        "regr_avgx",
        "regr_avgy",      "regr_sxx",       "regr_syy",       "regr_sxy",
        "skewness",       "kurtosis",       "geometric_mean", "bitwise_and_agg",
        "bitwise_or_agg", "bitwise_xor_agg"}) {
    EXPECT_TRUE(Registry().IsAggregate(name)) << name;
  }
}

}  // namespace
}  // namespace sqe::exec
