#include "exec/functions/registry.h"

#include <gtest/gtest.h>

#include <cmath>

#include "exec/functions/comparison.h"
#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::Decimal;
using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::ResultType;
using testing::ScalarRegistry;

TEST(Registry, ExactMatchThenCheapestCoercion) {
  auto exact = ScalarRegistry().ResolveScalar("+", {columnar::Int32(), columnar::Int32()});
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ((*exact)->arg_types[0]->ToString(), "integer");
  auto widened = ScalarRegistry().ResolveScalar("+", {columnar::Int32(), columnar::Int64()});
  ASSERT_TRUE(widened.ok());
  EXPECT_EQ((*widened)->arg_types[0]->ToString(), "bigint");
  EXPECT_EQ((*widened)->arg_types[1]->ToString(), "bigint");
  // Names are case-insensitive and instances are stable.
  auto again = ScalarRegistry().ResolveScalar("LENGTH", {columnar::String()});
  auto once = ScalarRegistry().ResolveScalar("length", {columnar::String()});
  ASSERT_TRUE(again.ok() && once.ok());
  EXPECT_EQ(*again, *once);
  // Unknown (NULL) arguments fit anything.
  EXPECT_EQ(ResultType("length", {nullptr}), "bigint");
  EXPECT_EQ(ResultType("=", {nullptr, Decimal(5, 2)}), "boolean");
}

TEST(Registry, NotFoundMessages) {
  auto wrong_args = ScalarRegistry().ResolveScalar("substr", {columnar::Int64()});
  ASSERT_FALSE(wrong_args.ok());
  EXPECT_EQ(wrong_args.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(wrong_args.status().message(),
            "function 'substr' cannot be applied to (bigint); candidates: substr(varchar, "
            "bigint), substr(varchar, bigint, bigint)");
  auto typo = ScalarRegistry().ResolveScalar("lenght", {columnar::String()});
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(typo.status().message(), "function 'lenght' not found; did you mean 'length'?");
  // varchar never becomes a number implicitly.
  EXPECT_FALSE(ScalarRegistry().ResolveScalar("+", {columnar::String(), columnar::Int64()}).ok());
  EXPECT_FALSE(ScalarRegistry().ResolveScalar("=", {columnar::String(), columnar::Int64()}).ok());
}

TEST(Registry, ListIsSortedAndDescribed) {
  std::vector<FunctionInfo> all = ScalarRegistry().List();
  ASSERT_GT(all.size(), 100u);
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LE(all[i - 1].name, all[i].name);
  bool saw_date_add = false;
  for (const FunctionInfo& f : all) {
    EXPECT_FALSE(f.description.empty()) << f.name;
    EXPECT_EQ(f.kind, "scalar");
    if (f.name == "date_add") saw_date_add = true;
  }
  EXPECT_TRUE(saw_date_add);
  EXPECT_TRUE(ScalarRegistry().IsScalar("SUBSTR"));
  EXPECT_FALSE(ScalarRegistry().IsAggregate("substr"));
}

TEST(Coercion, CommonSuperType) {
  auto super = [](columnar::TypePtr a, columnar::TypePtr b) -> std::string {
    auto t = CommonSuperType(a, b);
    if (!t) return "none";
    return *t ? (*t)->ToString() : "unknown";
  };
  EXPECT_EQ(super(columnar::Int32(), columnar::Int64()), "bigint");
  EXPECT_EQ(super(columnar::Int32(), Decimal(5, 2)), "decimal(12,2)");
  EXPECT_EQ(super(Decimal(10, 4), Decimal(5, 2)), "decimal(10,4)");
  EXPECT_EQ(super(Decimal(38, 0), Decimal(38, 10)), "decimal(38,10)");
  EXPECT_EQ(super(Decimal(5, 2), columnar::Float64()), "double");
  EXPECT_EQ(super(columnar::Int64(), columnar::Float32()), "real");
  EXPECT_EQ(super(columnar::Date32(), columnar::Timestamp()), "timestamp(6)");
  EXPECT_EQ(super(columnar::String(), columnar::String()), "varchar");
  EXPECT_EQ(super(columnar::String(), columnar::Int32()), "none");
  EXPECT_EQ(super(nullptr, columnar::Int32()), "integer");
  EXPECT_EQ(super(nullptr, nullptr), "unknown");
}

TEST(Coercion, EmptyArrayTakesTheOtherArrayType) {
  const columnar::TypePtr empty = UnknownElementArray();
  EXPECT_TRUE(IsUnknownElementArray(empty));
  EXPECT_FALSE(IsUnknownElementArray(columnar::List(columnar::Boolean())));
  EXPECT_FALSE(IsUnknownElementArray(columnar::Boolean()));
  EXPECT_FALSE(IsUnknownElementArray(nullptr));
  auto super = [](columnar::TypePtr a, columnar::TypePtr b) -> std::string {
    auto t = CommonSuperType(a, b);
    return t ? (*t)->ToString() : "none";
  };
  const columnar::TypePtr nested = columnar::List(columnar::List(columnar::Int32()));
  EXPECT_EQ(super(empty, nested), "array(array(integer))");
  EXPECT_EQ(super(columnar::List(columnar::String()), empty), "array(varchar)");
  EXPECT_TRUE(IsUnknownElementArray(*CommonSuperType(empty, empty)));
  EXPECT_EQ(super(empty, columnar::Int32()), "none");
  EXPECT_TRUE(CanCoerceImplicitly(empty, nested));
  EXPECT_FALSE(CanCoerceImplicitly(empty, columnar::String()));
  // Without the mark, array(boolean) does not coerce to array(array(integer)).
  EXPECT_FALSE(CanCoerceImplicitly(columnar::List(columnar::Boolean()), nested));
}

TEST(Coercion, CanCoerceImplicitly) {
  EXPECT_TRUE(CanCoerceImplicitly(columnar::Int8(), columnar::Int64()));
  EXPECT_FALSE(CanCoerceImplicitly(columnar::Int64(), columnar::Int32()));
  EXPECT_TRUE(CanCoerceImplicitly(columnar::Int32(), Decimal(10, 0)));
  EXPECT_FALSE(CanCoerceImplicitly(columnar::Int32(), Decimal(9, 0)));
  EXPECT_TRUE(CanCoerceImplicitly(columnar::Int8(), Decimal(3, 0)));
  EXPECT_TRUE(CanCoerceImplicitly(Decimal(5, 2), Decimal(6, 3)));
  EXPECT_FALSE(CanCoerceImplicitly(Decimal(5, 2), Decimal(5, 3)));
  EXPECT_TRUE(CanCoerceImplicitly(Decimal(5, 2), columnar::Float64()));
  EXPECT_FALSE(CanCoerceImplicitly(columnar::Float64(), Decimal(38, 2)));
  EXPECT_TRUE(CanCoerceImplicitly(columnar::Date32(), columnar::Timestamp()));
  EXPECT_FALSE(CanCoerceImplicitly(columnar::Timestamp(), columnar::Date32()));
  EXPECT_FALSE(CanCoerceImplicitly(columnar::String(), columnar::Int64()));
  EXPECT_TRUE(CanCoerceImplicitly(nullptr, columnar::String()));
}

TEST(Comparison, OrderableTypes) {
  using testing::Eval;
  using testing::Typed;
  EXPECT_EQ(Eval("<", {Int64s({1, 2, std::nullopt}), Int64s({2, 2, 1})}), "true, false, NULL");
  // Binary order of UTF-8 bytes: 'ä' (0xC3...) sorts after 'z'.
  EXPECT_EQ(Eval(">", {Strings({"ä", "a", "ab"}), Strings({"z", "b", "a"})}), "true, false, true");
  EXPECT_EQ(Eval("=", {Typed(Decimal(5, 2), {"1.50"}), Typed(Decimal(4, 1), {"1.5"})}), "true");
  EXPECT_EQ(Eval("<=", {Typed(columnar::Date32(), {"1969-12-31"}),
                        Typed(columnar::Timestamp(), {"1970-01-01 00:00:00"})}),
            "true");
  EXPECT_EQ(
      Eval("<>", {Typed(columnar::Boolean(), {"true"}), Typed(columnar::Boolean(), {"false"})}),
      "true");
  EXPECT_EQ(Eval("=", {columnar::testing::Float64s({std::nan("")}),
                       columnar::testing::Float64s({std::nan("")})}),
            "false");
  EXPECT_EQ(Eval(">=", {Int64s({5}), columnar::testing::Int32s({5})}), "true");
}

}  // namespace
}  // namespace sqe::exec
