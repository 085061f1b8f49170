// query.sort_mode and catalog.trust_sort_order through a session: which ORDER BYs over an
// Iceberg table the scan serves by reading its files in order (EXPLAIN shows no Sort and
// the scan's ordered_by=...), and that the rows are the same as with strict sorting.

#include "engine/warehouse_test_fixture.h"

namespace sqe::engine {
namespace {

class SortElisionTest : public WarehouseTest {
 protected:
  void SetUp() override {
    WarehouseTest::SetUp();
    Run("CREATE SCHEMA s");
    // Partitioned by region; each INSERT writes one file per region, ids ascending.
    Run("CREATE TABLE s.p (region varchar, id bigint, v varchar) WITH (partitioning = "
        "ARRAY['region'], sorted_by = ARRAY['id'])");
    Run("INSERT INTO s.p VALUES ('us', 1, 'a'), ('us', 2, 'b'), ('eu', 3, 'c'), ('ap', 4, 'd')");
    Run("INSERT INTO s.p VALUES ('eu', 5, 'e'), ('us', 6, 'f'), (NULL, 7, 'g'), ('eu', 8, 'h')");
    // Unpartitioned, declared sorted by id; files written out of key order, each sorted
    // and with non-overlapping id ranges.
    Run("CREATE TABLE s.t (id bigint, v varchar) WITH (sorted_by = ARRAY['id'])");
    Run("INSERT INTO s.t VALUES (20, 'u'), (21, 'v'), (22, 'w')");
    Run("INSERT INTO s.t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    Run("INSERT INTO s.t VALUES (10, 'k'), (11, 'l'), (12, 'm')");
  }

  void SetMode(const std::string& mode, bool trust) {
    engine_->impl().config.query.sort_mode = mode;
    engine_->impl().config.catalog.trust_sort_order = trust;
  }

  std::string Plan(const std::string& query) {
    std::vector<std::string> rows = Rows("EXPLAIN " + query);
    return rows.empty() ? "" : rows[0];
  }

  /// The plan has a Sort (or TopN) and the rows equal the strict mode's.
  void ExpectSorted(const std::string& query, bool sort_expected) {
    const std::string plan = Plan(query);
    const bool has_sort = Contains(plan, "- Sort ") || Contains(plan, "- TopN ");
    EXPECT_EQ(has_sort, sort_expected) << query << "\n" << plan;
    EXPECT_EQ(Contains(plan, "ordered_by="), !sort_expected) << query << "\n" << plan;
    std::vector<std::string> rows = Rows(query);
    const std::string mode = engine_->impl().config.query.sort_mode;
    const bool trust = engine_->impl().config.catalog.trust_sort_order;
    SetMode("strict", false);
    EXPECT_EQ(rows, Rows(query)) << query;
    SetMode(mode, trust);
  }
};

TEST_F(SortElisionTest, StrictAlwaysSorts) {
  SetMode("strict", true);
  ExpectSorted("SELECT region FROM s.p ORDER BY region", true);
  ExpectSorted("SELECT id, v FROM s.t ORDER BY id", true);
}

TEST_F(SortElisionTest, PartitionOnlyOrdersByIdentityPartitions) {
  SetMode("partition_only", false);
  ExpectSorted("SELECT region FROM s.p ORDER BY region", false);
  ExpectSorted("SELECT region FROM s.p WHERE id > 2 ORDER BY region DESC NULLS FIRST", false);
  EXPECT_TRUE(
      Contains(Plan("SELECT region, id FROM s.p ORDER BY region"), "ordered_by=partition values"));
  // A key that is not a partition column still sorts; so does the sort order without trust.
  ExpectSorted("SELECT region, id FROM s.p ORDER BY region, id", true);
  ExpectSorted("SELECT id, v FROM s.t ORDER BY id", true);
  // ORDER BY ... LIMIT over an ordered scan is a Limit.
  const std::string top = Plan("SELECT region, id FROM s.p ORDER BY region LIMIT 3");
  EXPECT_TRUE(Contains(top, "- Limit")) << top;
  ExpectSorted("SELECT region FROM s.p ORDER BY region LIMIT 3", false);
  EXPECT_EQ(Rows("SELECT region FROM s.p ORDER BY region LIMIT 3"),
            (std::vector<std::string>{"\"ap\"", "\"eu\"", "\"eu\""}));
}

TEST_F(SortElisionTest, AdaptiveNeedsFilesThatDeclareTheirOrder) {
  SetMode("adaptive", false);
  ExpectSorted("SELECT region FROM s.p ORDER BY region", false);
  // SQE's writer does not record a sort_order_id on its files: not trusted by default.
  ExpectSorted("SELECT id, v FROM s.t ORDER BY id", true);
}

TEST_F(SortElisionTest, TrustSortOrderUsesTheDeclaredOrder) {
  SetMode("adaptive", true);
  ExpectSorted("SELECT id, v FROM s.t ORDER BY id", false);
  EXPECT_TRUE(Contains(Plan("SELECT id, v FROM s.t ORDER BY id"), "ordered_by=sort order"));
  EXPECT_EQ(Rows("SELECT id FROM s.t ORDER BY id LIMIT 4"),
            (std::vector<std::string>{"1", "2", "3", "10"}));
  // Partition first, then the declared order within each file.
  ExpectSorted("SELECT region, id FROM s.p ORDER BY region, id", false);
  // Against the declared direction, or on a column the order does not cover: a sort.
  ExpectSorted("SELECT id, v FROM s.t ORDER BY id DESC", true);
  ExpectSorted("SELECT id, v FROM s.t ORDER BY v", true);
  // The same in partition_only mode with trust.
  SetMode("partition_only", true);
  ExpectSorted("SELECT id, v FROM s.t ORDER BY id", false);
}

TEST_F(SortElisionTest, OverlappingFilesStillSort) {
  SetMode("adaptive", true);
  Run("INSERT INTO s.t VALUES (2, 'x'), (15, 'y')");
  ExpectSorted("SELECT id, v FROM s.t ORDER BY id, v", true);
}

}  // namespace
}  // namespace sqe::engine
