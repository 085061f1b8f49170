#include "exec/functions/lambda.h"

#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::testing::Int64Lists;
using columnar::testing::Int64s;
using columnar::testing::Json;

/// Runs higher-order `name` over `args` with `lambdas` (the resolution's lambda argument
/// types given as `lambda_types`).
std::string RunHigherOrder(const std::string& name, std::vector<Column> args,
                           std::vector<columnar::TypePtr> lambda_types,
                           std::vector<LambdaFn> lambdas) {
  std::vector<columnar::TypePtr> types;
  for (const Column& a : args) types.push_back(a.type());
  for (const auto& t : lambda_types) types.push_back(t);
  auto fn = testing::ScalarRegistry().ResolveScalar(name, types);
  if (!fn.ok()) return "error: " + fn.status().message();
  const HigherOrderKernel* kernel = FindHigherOrderKernel(name);
  if (kernel == nullptr) return "no kernel";
  for (size_t k = 0; k < lambda_types.size(); ++k) args.emplace_back();
  const int64_t rows = args[0].length();
  auto r = (*kernel)(args, lambdas, rows, **fn, testing::TestContext());
  if (!r.ok()) return "error: " + r.status().message();
  return Json(*r);
}

/// x -> x * 10 (NULL stays NULL), recording the rows it was asked about.
LambdaFn TimesTen(std::vector<uint32_t>* rows_seen = nullptr) {
  return [rows_seen](const std::vector<Column>& p, const std::vector<uint32_t>& row_of) {
    if (rows_seen != nullptr) *rows_seen = row_of;
    std::vector<std::optional<int64_t>> out;
    for (int64_t i = 0; i < p[0].length(); ++i) {
      out.push_back(p[0].IsNull(i) ? std::nullopt
                                   : std::optional<int64_t>(p[0].Value<int64_t>(i) * 10));
    }
    return Result<Column>(Int64s(out));
  };
}

/// x -> x > 1 (NULL for NULL).
LambdaFn GreaterThanOne() {
  return [](const std::vector<Column>& p, const std::vector<uint32_t>&) {
    std::vector<std::optional<bool>> out;
    for (int64_t i = 0; i < p[0].length(); ++i) {
      out.push_back(p[0].IsNull(i) ? std::nullopt
                                   : std::optional<bool>(p[0].Value<int64_t>(i) > 1));
    }
    return Result<Column>(columnar::testing::Bools(out));
  };
}

TEST(LambdaFunctions, TransformRunsOnceOverEveryElement) {
  std::vector<uint32_t> seen;
  EXPECT_EQ(
      RunHigherOrder("transform", {Int64Lists({{{1, 2}}, std::nullopt, {{}}, {{std::nullopt, 3}}})},
                     {columnar::Int64()}, {TimesTen(&seen)}),
      "[[10,20],null,[],[null,30]]");
  EXPECT_EQ(seen, (std::vector<uint32_t>{0, 0, 3, 3}));
}

TEST(LambdaFunctions, FilterAndMatches) {
  auto a = Int64Lists({{{1, 2, 3}}, {{std::nullopt, 1}}, {{}}, std::nullopt, {{2, std::nullopt}}});
  EXPECT_EQ(RunHigherOrder("filter", {a}, {columnar::Boolean()}, {GreaterThanOne()}),
            "[[2,3],[],[],null,[2]]");
  EXPECT_EQ(RunHigherOrder("any_match", {a}, {columnar::Boolean()}, {GreaterThanOne()}),
            "[true,null,false,null,true]");
  EXPECT_EQ(RunHigherOrder("all_match", {a}, {columnar::Boolean()}, {GreaterThanOne()}),
            "[false,false,true,null,null]");
  EXPECT_EQ(RunHigherOrder("none_match", {a}, {columnar::Boolean()}, {GreaterThanOne()}),
            "[false,null,true,null,false]");
}

TEST(LambdaFunctions, ReduceFoldsPerElementPosition) {
  LambdaFn add = [](const std::vector<Column>& p, const std::vector<uint32_t>&) {
    std::vector<std::optional<int64_t>> out;
    for (int64_t i = 0; i < p[0].length(); ++i) {
      if (p[0].IsNull(i) || p[1].IsNull(i)) {
        out.push_back(std::nullopt);
      } else {
        out.push_back(p[0].Value<int64_t>(i) + p[1].Value<int64_t>(i));
      }
    }
    return Result<Column>(Int64s(out));
  };
  EXPECT_EQ(
      RunHigherOrder("reduce",
                     {Int64Lists({{{1, 2, 3}}, {{}}, std::nullopt, {{5}}}), Int64s({0, 7, 0, 1})},
                     {columnar::Int64(), columnar::Int64()}, {add, TimesTen()}),
      "[60,70,null,60]");
}

TEST(LambdaFunctions, ParameterTypes) {
  auto array = columnar::List(columnar::Int32());
  auto types = LambdaParameterTypes("transform", 1, {array});
  ASSERT_TRUE(types.ok());
  EXPECT_EQ((*types)[0]->ToString(), "integer");
  EXPECT_FALSE(LambdaParameterTypes("transform", 1, {columnar::Int32()}).ok());
  auto map = columnar::Map(columnar::String(), columnar::Float64());
  auto kv = LambdaParameterTypes("map_filter", 1, {map});
  ASSERT_TRUE(kv.ok());
  EXPECT_EQ((*kv)[1]->ToString(), "double");
  EXPECT_EQ(FindHigherOrderKernel("upper"), nullptr);
}

}  // namespace
}  // namespace sqe::exec
