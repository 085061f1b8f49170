// DistinctBoundsCache on an embedded warehouse: planning a table again reuses its
// snapshot's bounds instead of reading the manifests, and a new snapshot gets its own.

#include "engine/distinct_bounds.h"
#include "engine/engine_internal.h"
#include "engine/warehouse_test_fixture.h"

namespace sqe::engine {
namespace {

using DistinctBoundsTest = WarehouseTest;

TEST_F(DistinctBoundsTest, EachSnapshotIsReadOnceAndBoundsItsIntegerColumns) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (1, 'c')) AS v(id, name)");
  DistinctBoundsCache& cache = engine_->impl().distinct_bounds;
  const size_t before = cache.size();
  Run("EXPLAIN SELECT * FROM s.t");
  EXPECT_EQ(cache.size(), before + 1);
  Run("EXPLAIN SELECT id FROM s.t WHERE id > 1");
  EXPECT_EQ(cache.size(), before + 1);  // same snapshot: no new entry
  Run("INSERT INTO s.t VALUES (2, 'd')");
  Run("EXPLAIN SELECT * FROM s.t");
  EXPECT_EQ(cache.size(), before + 2);

  // The cached bounds are the manifests' own: id spans 1..2 over both files (2 values), name
  // is bounded by the row count (4).
  auto metadata = Metadata("s", "t");
  const iceberg::Snapshot* snapshot = metadata->CurrentSnapshot();
  ASSERT_NE(snapshot, nullptr);
  auto fs = io::MakeLocalFileSystem();
  auto bounds = cache.Get(*metadata, *snapshot, *metadata->CurrentSchema(), *fs);
  ASSERT_TRUE(bounds.ok()) << bounds.status().message();
  EXPECT_EQ(*bounds, (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(cache.size(), before + 2);
}

}  // namespace
}  // namespace sqe::engine
