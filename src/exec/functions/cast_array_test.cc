#include <gtest/gtest.h>

#include "columnar/bit_util.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Json;

/// CAST of a list column given as JSON-ish text rows (each row an array of strings).
Result<columnar::Column> CastStrings(
    const std::vector<std::optional<std::vector<std::optional<std::string>>>>& rows,
    const columnar::TypePtr& to, bool try_cast) {
  std::vector<std::optional<std::string>> values;
  std::vector<int64_t> lengths;
  std::vector<uint8_t> is_null;
  for (const auto& row : rows) {
    is_null.push_back(row.has_value() ? 0 : 1);
    lengths.push_back(row.has_value() ? static_cast<int64_t>(row->size()) : 0);
    if (row) values.insert(values.end(), row->begin(), row->end());
  }
  columnar::Column child = columnar::testing::Strings(values);
  const EvalContext ctx = testing::TestContext();
  SQE_ASSIGN_OR_RETURN(auto offsets,
                       kernel::AllocateBuffer(static_cast<int64_t>(rows.size() + 1) * 4, ctx));
  SQE_ASSIGN_OR_RETURN(
      auto validity,
      kernel::AllocateBuffer(columnar::BytesForBits(static_cast<int64_t>(rows.size())), ctx));
  int32_t* off = offsets->mutable_data_as<int32_t>();
  int64_t nulls = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    off[i + 1] = off[i] + static_cast<int32_t>(lengths[i]);
    if (is_null[i]) {
      ++nulls;
    } else {
      columnar::SetBit(validity->mutable_data(), static_cast<int64_t>(i));
    }
  }
  SQE_ASSIGN_OR_RETURN(
      columnar::Column list,
      columnar::Column::Make(columnar::List(columnar::String()), static_cast<int64_t>(rows.size()),
                             {validity, offsets}, {child}, nulls));
  return CastColumn(list, to, try_cast, ctx);
}

std::string Show(const Result<columnar::Column>& r) {
  return r.ok() ? Json(*r) : "error: " + r.status().message();
}

TEST(CastArray, CastsEachElementAndKeepsNulls) {
  const auto to = columnar::List(columnar::Int64());
  EXPECT_EQ(Show(CastStrings({{{"1", std::nullopt}}, std::nullopt, {{}}}, to, false)),
            "[[1,null],null,[]]");
  EXPECT_TRUE(CanCast(columnar::List(columnar::String()), to));
  EXPECT_FALSE(CanCast(columnar::List(columnar::Int64()), columnar::List(columnar::Date32())));
  EXPECT_FALSE(CanCast(columnar::List(columnar::Int64()), columnar::Int64()));
}

TEST(CastArray, NamesTheFailingElementAndTryCastNullsTheRow) {
  const auto to = columnar::List(columnar::Int32());
  EXPECT_EQ(Show(CastStrings({{{"1"}}, {{"2", "x"}}}, to, false)),
            "error: Cannot cast 'x' to INTEGER (array element 2, casting array(varchar) to "
            "array(integer))");
  EXPECT_EQ(Show(CastStrings({{{"1"}}, {{"2", "x"}}, {{"3"}}}, to, true)), "[[1],null,[3]]");
}

}  // namespace
}  // namespace sqe::exec
