#include "columnar/batch.h"

#include <gtest/gtest.h>

#include "columnar/test_columns.h"

namespace sqe::columnar {
namespace {

using testing::Int64s;
using testing::Json;
using testing::Strings;

SchemaPtr TwoColumns() {
  return Schema::Make({Field("id", Int64(), false), Field("name", String())});
}

TEST(BatchTest, MakeChecksShape) {
  SQE_ASSIGN_OR_FAIL(Batch b,
                     Batch::Make(TwoColumns(), {Int64s({1, 2}), Strings({"a", std::nullopt})}));
  EXPECT_EQ(b.num_rows(), 2);
  EXPECT_EQ(b.num_columns(), 2);
  EXPECT_EQ(b.ColumnByName("name")->StringAt(0), "a");
  EXPECT_EQ(b.ColumnByName("missing"), nullptr);

  EXPECT_EQ(Batch::Make(TwoColumns(), {Int64s({1, 2})}).status().message(),
            "batch has 1 columns but its schema has 2 fields");
  EXPECT_EQ(Batch::Make(TwoColumns(), {Int64s({1, 2}), Int64s({1, 2})}).status().message(),
            "column 'name' has type bigint but the schema says varchar");
  EXPECT_EQ(Batch::Make(TwoColumns(), {Int64s({1, 2}), Strings({"a"})}).status().message(),
            "column 'name' has 1 rows, expected 2");
  EXPECT_EQ(Batch::Make(TwoColumns(), {Int64s({1, std::nullopt}), Strings({"a", "b"})})
                .status()
                .message(),
            "column 'id' is declared not null but has 1 nulls");
  SQE_ASSIGN_OR_FAIL(Batch empty, Batch::Make(Schema::Make({}), {}, 5));
  EXPECT_EQ(empty.num_rows(), 5);
}

TEST(BatchTest, SliceAndProject) {
  SQE_ASSIGN_OR_FAIL(Batch b, Batch::Make(TwoColumns(), {Int64s({1, 2, 3, 4}),
                                                         Strings({"a", "b", std::nullopt, "d"})}));
  Batch s = b.Slice(1, 2);
  EXPECT_EQ(s.num_rows(), 2);
  EXPECT_EQ(Json(s.column(0)), "[2,3]");
  EXPECT_EQ(Json(s.column(1)), R"(["b",null])");
  EXPECT_EQ(s.column(1).buffers()[2].get(), b.column(1).buffers()[2].get());
  EXPECT_EQ(b.Slice(3, 10).num_rows(), 1);

  SQE_ASSIGN_OR_FAIL(Batch p, s.Project({1, 0, 1}));
  EXPECT_EQ(p.num_columns(), 3);
  EXPECT_EQ(p.schema()->ToString(), "name varchar, id bigint not null, name varchar");
  EXPECT_EQ(Json(p.column(1)), "[2,3]");
  EXPECT_EQ(p.num_rows(), 2);
  EXPECT_EQ(b.Project({2}).status().message(),
            "column index 2 out of range for a schema of 2 columns");
}

}  // namespace
}  // namespace sqe::columnar
