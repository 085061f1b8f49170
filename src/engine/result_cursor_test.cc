// Session::Start (streamed results), Session::Describe and ExecuteWithParameters.

#include "engine/result_cursor.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "engine/warehouse_test_fixture.h"

namespace sqe::engine {
namespace {

/// 100,000 rows (x = 0..99999) from a cross join of five 10-row inputs.
constexpr const char* kHundredThousand =
    "WITH t(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) "
    "SELECT a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x AS n "
    "FROM t a, t b, t c, t d, t e";

class ResultCursorTest : public WarehouseTest {
 protected:
  std::unique_ptr<ResultCursor> Start(const std::string& sql,
                                      const std::vector<exec::Value>& parameters = {}) {
    auto cursor = session_->Start(sql, parameters);
    EXPECT_TRUE(cursor.ok()) << sql << ": " << cursor.status().message();
    return cursor.ok() ? std::move(*cursor) : nullptr;
  }
  /// Reads the cursor to its end; the number of rows.
  int64_t Drain(ResultCursor& cursor) {
    int64_t rows = 0;
    while (true) {
      auto next = cursor.Next();
      EXPECT_TRUE(next.ok()) << next.status().message();
      if (!next.ok() || !next->has_value()) return rows;
      EXPECT_TRUE((*next)->schema()->Equals(*cursor.schema()));
      rows += (*next)->num_rows();
    }
  }
};

TEST_F(ResultCursorTest, StreamsEveryRowWithTheResultSchema) {
  auto cursor = Start(kHundredThousand);
  ASSERT_NE(cursor, nullptr);
  ASSERT_EQ(cursor->schema()->num_fields(), 1);
  EXPECT_EQ(cursor->schema()->field(0).name(), "n");
  EXPECT_EQ(cursor->statement_type(), "SELECT");
  EXPECT_EQ(cursor->update_count(), -1);
  EXPECT_EQ(Drain(*cursor), 100000);
  // Further calls keep saying "end".
  auto again = cursor->Next();
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->has_value());
}

TEST_F(ResultCursorTest, SumOfStreamedValuesIsExact) {
  auto cursor = Start("SELECT x * 2 AS y FROM (VALUES 1, 2, 3) t(x) ORDER BY y");
  ASSERT_NE(cursor, nullptr);
  std::string text;
  while (true) {
    auto next = cursor->Next();
    ASSERT_TRUE(next.ok());
    if (!next->has_value()) break;
    for (int64_t r = 0; r < (*next)->num_rows(); ++r) {
      ASSERT_TRUE(columnar::AppendJsonValue((*next)->column(0), r, &text).ok());
      text += ",";
    }
  }
  EXPECT_EQ(text, "2,4,6,");
}

TEST_F(ResultCursorTest, ASlowReaderHoldsTheQueryBackAndDroppingTheCursorStopsIt) {
  auto cursor = Start(kHundredThousand);
  ASSERT_NE(cursor, nullptr);
  {
    auto first = cursor->Next();
    ASSERT_TRUE(first.ok() && first->has_value());
  }
  // The producer waits on the bounded queue instead of running ahead.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(engine_->impl().running_queries.load(), 1);
  auto start = std::chrono::steady_clock::now();
  cursor.reset();
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 1000);
  EXPECT_EQ(engine_->impl().running_queries.load(), 0);
  EXPECT_EQ(engine_->impl().process_tracker->current(), 0);
}

TEST_F(ResultCursorTest, CancelFailsTheNextRead) {
  auto cursor = Start(kHundredThousand);
  ASSERT_NE(cursor, nullptr);
  cursor->Cancel();
  Status status;
  for (int i = 0; i < 100 && status.ok(); ++i) {
    auto next = cursor->Next();
    if (!next.ok())
      status = next.status();
    else if (!next->has_value())
      break;
  }
  EXPECT_EQ(status.code(), StatusCode::kCancelled) << status.message();
}

TEST_F(ResultCursorTest, ErrorsComeFromStartWithThePosition) {
  auto cursor = session_->Start("SELECT nope FROM (VALUES 1) t(x)");
  ASSERT_FALSE(cursor.ok());
  EXPECT_EQ(cursor.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(cursor.status().message().find("line 1:8"), std::string::npos)
      << cursor.status().message();
}

TEST_F(ResultCursorTest, ParametersAreBound) {
  auto cursor = Start("SELECT x FROM (VALUES 1, 2, 3) t(x) WHERE x > ?", {exec::Value::BigInt(1)});
  ASSERT_NE(cursor, nullptr);
  EXPECT_EQ(Drain(*cursor), 2);
}

TEST_F(ResultCursorTest, StatementsWithoutRowsRunAtStart) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a bigint, b varchar)");
  auto cursor = Start("INSERT INTO s.t VALUES (1, 'x'), (2, 'y')");
  ASSERT_NE(cursor, nullptr);
  EXPECT_EQ(cursor->statement_type(), "INSERT");
  EXPECT_EQ(cursor->update_count(), 2);
  auto counted = Start("SELECT * FROM s.t");
  ASSERT_NE(counted, nullptr);
  EXPECT_EQ(Drain(*counted), 2);
}

TEST_F(ResultCursorTest, TheConcurrencyLimitCountsStreamingQueries) {
  engine_->impl().config.query.max_concurrent_queries = 1;
  auto first = Start(kHundredThousand);
  ASSERT_NE(first, nullptr);
  auto second = session_->Start("SELECT 1");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kResourceExhausted);
  first.reset();
  EXPECT_NE(Start("SELECT 1"), nullptr);
}

TEST_F(ResultCursorTest, DescribeBindsWithoutRunning) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a bigint, b varchar, c decimal(10, 2))");
  auto d = session_->Describe("SELECT b, a + 1 AS a1, c FROM s.t WHERE a = ? AND b <> ?");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_FALSE(d->is_update);
  ASSERT_EQ(d->schema->num_fields(), 3);
  EXPECT_EQ(d->schema->field(0).name(), "b");
  EXPECT_EQ(d->schema->field(0).type()->ToString(), "varchar");
  EXPECT_EQ(d->schema->field(1).type()->ToString(), "bigint");
  EXPECT_EQ(d->schema->field(2).type()->ToString(), "decimal(10,2)");
  EXPECT_EQ(d->parameter_types.size(), 2u);

  auto insert = session_->Describe("INSERT INTO s.t VALUES (?, 'x', 1.5)");
  ASSERT_TRUE(insert.ok()) << insert.status().message();
  EXPECT_TRUE(insert->is_update);
  EXPECT_EQ(insert->schema->num_fields(), 0);
  ASSERT_EQ(insert->parameter_types.size(), 1u);
  ASSERT_NE(insert->parameter_types[0], nullptr);
  EXPECT_EQ(insert->parameter_types[0]->ToString(), "bigint");
  // A `?` of INSERT ... VALUES takes its target column's type, also through a column list.
  auto listed = session_->Describe("INSERT INTO s.t (c, b) VALUES (?, ?), (2.5, ?)");
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  ASSERT_EQ(listed->parameter_types.size(), 3u);
  EXPECT_EQ(listed->parameter_types[0]->ToString(), "decimal(10,2)");
  EXPECT_EQ(listed->parameter_types[1]->ToString(), "varchar");
  EXPECT_EQ(listed->parameter_types[2]->ToString(), "varchar");
  // Elsewhere a `?` takes the type of what the query compares or combines it with.
  ASSERT_NE(d->parameter_types[0], nullptr);
  EXPECT_EQ(d->parameter_types[0]->ToString(), "bigint");
  ASSERT_NE(d->parameter_types[1], nullptr);
  EXPECT_EQ(d->parameter_types[1]->ToString(), "varchar");
  auto mixed = session_->Describe("SELECT ?, c FROM s.t WHERE c > ? AND a IN (?, 2)");
  ASSERT_TRUE(mixed.ok()) << mixed.status().message();
  ASSERT_EQ(mixed->parameter_types.size(), 3u);
  EXPECT_EQ(mixed->parameter_types[0], nullptr);  // a bare `?` in the select list
  ASSERT_NE(mixed->parameter_types[1], nullptr);
  EXPECT_EQ(mixed->parameter_types[1]->ToString(), "decimal(10,2)");
  ASSERT_NE(mixed->parameter_types[2], nullptr);
  EXPECT_EQ(mixed->parameter_types[2]->ToString(), "bigint");
  // Describing the INSERT did not run it.
  EXPECT_EQ(Drain(*Start("SELECT * FROM s.t")), 0);

  auto missing = session_->Describe("SELECT * FROM s.nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nope"), std::string::npos);
}

TEST_F(ResultCursorTest, ExecuteWithParametersInserts) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a bigint, b varchar)");
  auto r = session_->ExecuteWithParameters("INSERT INTO s.t VALUES (?, ?)",
                                           {exec::Value::BigInt(7), exec::Value::Varchar("q")});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->update_count, 1);
  EXPECT_EQ(Drain(*Start("SELECT * FROM s.t WHERE b = 'q'")), 1);
}

}  // namespace
}  // namespace sqe::engine
