#include <gtest/gtest.h>

#include "columnar/bit_util.h"
#include "exec/functions/cast_row.h"
#include "exec/functions/interleave.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/row_functions.h"
#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::TypePtr;
using columnar::testing::Int64s;
using columnar::testing::Json;
using columnar::testing::Strings;

/// A row column of `fields`, NULL where `valid` says false.
Column RowOf(std::vector<Column> fields, const std::vector<bool>& valid,
             std::vector<std::string> names = {}) {
  std::vector<columnar::Field> f;
  for (size_t i = 0; i < fields.size(); ++i) {
    f.emplace_back(i < names.size() ? names[i] : std::string(), fields[i].type(), true);
  }
  const EvalContext ctx = testing::TestContext();
  const int64_t rows = static_cast<int64_t>(valid.size());
  auto bits = kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx);
  columnar::testing::DieIfError(bits.status());
  for (int64_t i = 0; i < rows; ++i) {
    if (valid[i]) columnar::SetBit((*bits)->mutable_data(), i);
  }
  auto row = Column::Make(columnar::Struct(std::move(f)), rows, {*bits}, std::move(fields));
  columnar::testing::DieIfError(row.status());
  return *row;
}

TEST(RowConstructor, BuildsAnonymousRowsOfItsArguments) {
  EXPECT_EQ(testing::ResultType("row_constructor", {columnar::Int32(), columnar::String()}),
            "row(integer, varchar)");
  // Untyped NULL arguments are boolean fields; no arguments is no row.
  EXPECT_EQ(testing::ResultType("row_constructor", {nullptr}), "row(boolean)");
  EXPECT_EQ(testing::ResultType("row_constructor", {}).substr(0, 7), "error: ");
  EXPECT_EQ(testing::EvalJson("row_constructor",
                              {Int64s({1, std::nullopt, 3}), Strings({"a", "b", std::nullopt})}),
            R"([{"":1,"":"a"},{"":null,"":"b"},{"":3,"":null}])");
}

TEST(RowField, ReadsOneFieldAndNullsItUnderNullRows) {
  Column row =
      RowOf({Int64s({1, 2, 3}), Strings({"a", "b", "c"})}, {true, false, true}, {"x", "y"});
  auto fn = RowFieldFunction(row.type(), 1);
  ASSERT_TRUE(fn.ok()) << fn.status().ToString();
  EXPECT_EQ((*fn)->return_type->ToString(), "varchar");
  const EvalContext ctx = testing::TestContext();
  auto y = (*fn)->kernel({row}, 3, **fn, ctx);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(Json(*y), R"(["a",null,"c"])");
  // The same row type and field give the same function; a sliced row reads its rows.
  EXPECT_EQ(*RowFieldFunction(row.type(), 1), *fn);
  auto x = RowFieldColumn(row.Slice(1, 2), 0, ctx);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(Json(*x), "[null,3]");
  EXPECT_FALSE(RowFieldFunction(row.type(), 2).ok());
  EXPECT_FALSE(RowFieldFunction(columnar::Int64(), 0).ok());
}

TEST(CastRow, CastsFieldByFieldAndTakesTheTargetNames) {
  Column row = RowOf({Int64s({1, 2}), Strings({"10", "x"})}, {true, true});
  const TypePtr to = columnar::Struct(
      {columnar::Field("a", columnar::String()), columnar::Field("b", columnar::Int32())});
  const EvalContext ctx = testing::TestContext();
  // CAST: the failing field's own error.
  auto strict = CastColumn(row, to, false, ctx);
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("Cannot cast 'x'"), std::string::npos)
      << strict.status().message();
  // TRY_CAST: the whole row is NULL.
  auto lenient = CastColumn(row, to, true, ctx);
  ASSERT_TRUE(lenient.ok()) << lenient.status().ToString();
  EXPECT_EQ(lenient->type()->ToString(), "row(a varchar, b integer)");
  EXPECT_EQ(Json(*lenient), R"([{"a":"1","b":10},null])");
}

TEST(CastRow, IgnoresValuesUnderNullRowsAndChecksFieldCounts) {
  // The second row is NULL: its field text 'junk' is never cast.
  Column row = RowOf({Strings({"7", "junk"})}, {true, false});
  const TypePtr to = columnar::Struct({columnar::Field("n", columnar::Int64())});
  auto cast = CastColumn(row, to, false, testing::TestContext());
  ASSERT_TRUE(cast.ok()) << cast.status().ToString();
  EXPECT_EQ(Json(*cast), R"([{"n":7},null])");
  const TypePtr two = columnar::Struct(
      {columnar::Field("a", columnar::Int64()), columnar::Field("b", columnar::Int64())});
  EXPECT_FALSE(CanCast(row.type(), two));
  EXPECT_FALSE(CastColumn(row, two, false, testing::TestContext()).ok());
  EXPECT_FALSE(CanCast(row.type(), columnar::String()));  // Trino has no row -> varchar
  EXPECT_TRUE(CanCast(row.type(), to));
}

TEST(RowInterleave, MergesRowsFromSeveralPiecesFieldByField) {
  // What ARRAY[ROW(..), ROW(..)] and CASE over rows need: rows picked from two columns.
  Column a = RowOf({Int64s({1, 2}), Strings({"a", "b"})}, {true, false}, {"n", "s"});
  Column b = RowOf({Int64s({10, 20}), Strings({"x", "y"})}, {true, true}, {"n", "s"});
  const int32_t piece[] = {1, 0, 0, -1, 1};
  const uint32_t row[] = {1, 0, 1, 0, 0};
  auto merged = Interleave(a.type(), {a, b}, piece, row, 5, testing::TestContext());
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(Json(*merged), R"([{"n":20,"s":"y"},{"n":1,"s":"a"},null,null,{"n":10,"s":"x"}])");
  auto array = testing::Call("array_constructor", {a, b});
  ASSERT_TRUE(array.ok()) << array.status().ToString();
  EXPECT_EQ(Json(*array), R"([[{"n":1,"s":"a"},{"n":10,"s":"x"}],[null,{"n":20,"s":"y"}]])");
}

TEST(RowCoercion, CommonSuperTypeIsFieldWise) {
  const TypePtr a = columnar::Struct(
      {columnar::Field("x", columnar::Int32()), columnar::Field("y", columnar::String())});
  const TypePtr b = columnar::Struct(
      {columnar::Field("x", columnar::Int64()), columnar::Field("z", columnar::String())});
  auto common = CommonSuperType(a, b);
  ASSERT_TRUE(common.has_value());
  // A field keeps its name only when both sides agree on it.
  EXPECT_EQ((*common)->ToString(), "row(x bigint, varchar)");
  EXPECT_TRUE(CanCoerceImplicitly(a, *common));
  EXPECT_FALSE(CanCoerceImplicitly(*common, a));
  const TypePtr one = columnar::Struct({columnar::Field("x", columnar::Int32())});
  EXPECT_FALSE(CommonSuperType(a, one).has_value());
}

TEST(RowCoercion, AnUntypedNullFieldTakesAnyType) {
  // ROW(1, NULL): the NULL's field is marked unknown and meets any type.
  const TypePtr with_null = AnonymousRowType({columnar::Int32(), nullptr});
  EXPECT_TRUE(IsUnknownRowField(with_null->field(1)));
  EXPECT_FALSE(IsUnknownRowField(with_null->field(0)));
  const TypePtr dated = AnonymousRowType({columnar::Int64(), columnar::Date32()});
  auto common = CommonSuperType(with_null, dated);
  ASSERT_TRUE(common.has_value());
  EXPECT_EQ((*common)->ToString(), "row(bigint, date)");
  EXPECT_TRUE(CanCoerceImplicitly(with_null, dated));
  EXPECT_TRUE(CanCast(with_null, dated));
  Column row = RowOf({Int64s({1}), columnar::testing::Bools({std::nullopt})}, {true});
  row = *Column::Make(
      with_null, 1, row.buffers(),
      {*CastColumn(row.StructField(0), columnar::Int32(), false, testing::TestContext()),
       row.StructField(1)});
  auto cast = CastColumn(row, dated, false, testing::TestContext());
  ASSERT_TRUE(cast.ok()) << cast.status().ToString();
  EXPECT_EQ(Json(*cast), R"([{"":1,"":null}])");
}

}  // namespace
}  // namespace sqe::exec
