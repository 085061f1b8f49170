// OrderTasksBy: which task orders metadata proves sorted (identity partition values, files'
// declared sort orders with bounds that do not overlap, the trusted default order), and
// which it refuses (overlaps, the wrong direction, NULLs at the wrong end, float keys,
// unsorted files).

#include "iceberg/scan/task_ordering.h"

#include <gtest/gtest.h>

#include "iceberg/manifest/single_value.h"

namespace sqe::iceberg {
namespace {

constexpr int32_t kRegion = 1;  // string, identity partition
constexpr int32_t kId = 2;      // long, the sort order's key
constexpr int32_t kScore = 3;   // double

class TaskOrderingTest : public ::testing::Test {
 protected:
  TaskOrderingTest() {
    schema_ = Schema(0, {NestedField{kRegion, "region", false, Type::Primitive(TypeId::kString)},
                         NestedField{kId, "id", false, Type::Primitive(TypeId::kLong)},
                         NestedField{kScore, "score", false, Type::Primitive(TypeId::kDouble)}});
    metadata_.schemas = {schema_};
    PartitionField region;
    region.source_id = kRegion;
    region.field_id = 1000;
    region.name = "region";
    metadata_.partition_specs = {PartitionSpec(0, {}), PartitionSpec(1, {region})};
    SortField by_id;
    by_id.source_id = kId;
    metadata_.sort_orders = {SortOrder(1, {by_id})};
    metadata_.default_sort_order_id = 1;
  }

  /// A file of the unpartitioned spec with ids in [lo, hi], declared sorted when `sorted`.
  FileScanTask IdFile(const std::string& path, int64_t lo, int64_t hi, bool sorted,
                      int64_t nulls = 0) {
    FileScanTask t;
    t.file.file_path = path;
    t.file.record_count = 10;
    t.file.lower_bounds[kId] =
        *EncodeSingleValue(Literal::Long(lo), *Type::Primitive(TypeId::kLong));
    t.file.upper_bounds[kId] =
        *EncodeSingleValue(Literal::Long(hi), *Type::Primitive(TypeId::kLong));
    t.file.null_value_counts[kId] = nulls;
    if (sorted) t.file.sort_order_id = 1;
    return t;
  }
  /// A file of the region-partitioned spec.
  FileScanTask RegionFile(const std::string& path, std::optional<std::string> region) {
    FileScanTask t;
    t.spec_id = 1;
    t.file.file_path = path;
    t.file.record_count = 10;
    t.file.partition = {region.has_value() ? std::optional<Literal>(Literal::String(*region))
                                           : std::nullopt};
    return t;
  }

  static std::vector<std::string> Paths(const std::vector<FileScanTask>& tasks) {
    std::vector<std::string> out;
    for (const FileScanTask& t : tasks) out.push_back(t.file.file_path);
    return out;
  }

  bool Order(std::vector<FileScanTask>* tasks, std::vector<OrderKey> keys,
             TaskOrderingOptions options = {}) {
    how_.clear();
    return OrderTasksBy(metadata_, schema_, keys, options, tasks, &how_);
  }

  Schema schema_;
  TableMetadata metadata_;
  std::string how_;
};

TEST_F(TaskOrderingTest, PartitionValuesOrderFiles) {
  std::vector<FileScanTask> tasks = {RegionFile("us", "us"), RegionFile("null", std::nullopt),
                                     RegionFile("ap", "ap"), RegionFile("eu", "eu")};
  ASSERT_TRUE(Order(&tasks, {{kRegion, true, false}}));
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"ap", "eu", "us", "null"}));
  EXPECT_EQ(how_, "partition values");
  ASSERT_TRUE(Order(&tasks, {{kRegion, false, true}}));
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"null", "us", "eu", "ap"}));
  // Partition values are not used when the options say so, and a second key that is not
  // constant per file needs a sort order.
  TaskOrderingOptions no_partitions;
  no_partitions.use_partitions = false;
  no_partitions.use_sort_orders = false;
  EXPECT_FALSE(Order(&tasks, {{kRegion, true, false}}, no_partitions));
  EXPECT_FALSE(Order(&tasks, {{kRegion, true, false}, {kId, true, false}}));
}

TEST_F(TaskOrderingTest, DeclaredSortOrderWithDisjointBounds) {
  std::vector<FileScanTask> tasks = {IdFile("c", 20, 29, true), IdFile("a", 1, 9, true),
                                     IdFile("b", 10, 19, true)};
  ASSERT_TRUE(Order(&tasks, {{kId, true, false}}));
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(how_, "sort order");
  // Touching bounds are fine for the last key.
  tasks.push_back(IdFile("d", 29, 35, true));
  EXPECT_TRUE(Order(&tasks, {{kId, true, false}}));
  // Overlapping ranges, the other direction, and partition_only (no sort orders) fail.
  tasks.push_back(IdFile("e", 5, 12, true));
  EXPECT_FALSE(Order(&tasks, {{kId, true, false}}));
  tasks.pop_back();
  EXPECT_FALSE(Order(&tasks, {{kId, false, true}}));
  TaskOrderingOptions partition_only;
  partition_only.use_sort_orders = false;
  EXPECT_FALSE(Order(&tasks, {{kId, true, false}}, partition_only));
}

TEST_F(TaskOrderingTest, UndeclaredFilesNeedTrust) {
  std::vector<FileScanTask> tasks = {IdFile("b", 10, 19, false), IdFile("a", 1, 9, false)};
  EXPECT_FALSE(Order(&tasks, {{kId, true, false}}));
  TaskOrderingOptions trust;
  trust.trust_default_order = true;
  trust.use_sort_orders = false;
  ASSERT_TRUE(Order(&tasks, {{kId, true, false}}, trust));
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"a", "b"}));
}

TEST_F(TaskOrderingTest, NullsMustSitAtTheRequestedEnd) {
  // The sort order puts NULLs first (Iceberg's ascending default).
  std::vector<FileScanTask> tasks = {IdFile("b", 10, 19, true), IdFile("a", 1, 9, true, 2)};
  EXPECT_FALSE(Order(&tasks, {{kId, true, false}}));  // NULLS LAST asked
  ASSERT_TRUE(Order(&tasks, {{kId, true, true}}));
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"a", "b"}));
  // NULLs in a later file cannot come first.
  std::vector<FileScanTask> late = {IdFile("a", 1, 9, true), IdFile("b", 10, 19, true, 2)};
  EXPECT_FALSE(Order(&late, {{kId, true, true}}));
}

TEST_F(TaskOrderingTest, SplitsOfOneFileStayInOrderAndFloatKeysAreRefused) {
  FileScanTask first = IdFile("a", 1, 9, true);
  FileScanTask second = first;
  second.start = 100;
  std::vector<FileScanTask> tasks = {IdFile("b", 10, 19, true), second, first};
  ASSERT_TRUE(Order(&tasks, {{kId, true, false}}));
  ASSERT_EQ(Paths(tasks), (std::vector<std::string>{"a", "a", "b"}));
  EXPECT_EQ(tasks[0].start, 0);
  EXPECT_EQ(tasks[1].start, 100);
  EXPECT_FALSE(Order(&tasks, {{kScore, true, false}}));
  EXPECT_FALSE(Order(&tasks, {}));
}

}  // namespace
}  // namespace sqe::iceberg
