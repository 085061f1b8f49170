#include "datagen/tpch_loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "datagen/iceberg_table_sink.h"

namespace sqe::datagen {
namespace {

/// Keeps every row written, per table, as "key|column1|..." lines; fails writes on demand.
class CollectingSink final : public DatasetSink {
 public:
  struct Table {
    std::mutex mutex;
    std::vector<std::string> rows;
    int writers = 0;
    int closed = 0;
    bool committed = false;
  };

  Result<std::unique_ptr<TableSink>> BeginTable(TpchTable table) override;

  std::map<TpchTable, Table> tables;
  TpchTable fail_table = TpchTable::kRegion;
  bool fail = false;
};

class CollectingWriter final : public SinkWriter {
 public:
  CollectingWriter(CollectingSink::Table& table, bool fail) : table_(table), fail_(fail) {}
  Status Write(const columnar::Batch& batch) override {
    if (fail_) return Status::IOError("disk full");
    std::vector<std::string> rows(static_cast<size_t>(batch.num_rows()));
    for (int c = 0; c < batch.num_columns(); ++c) {
      const columnar::Column& col = batch.column(c);
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        std::string& out = rows[static_cast<size_t>(r)];
        switch (col.type()->byte_width()) {
          case 4:
            out += std::to_string(col.Value<int32_t>(r));
            break;
          case 8:
            out += std::to_string(col.Value<int64_t>(r));
            break;
          case 16:
            out += std::to_string(col.Value<columnar::Decimal128>(r).low);
            break;
          default:
            out += col.StringAt(r);
            break;
        }
        out += '|';
      }
    }
    std::lock_guard<std::mutex> lock(table_.mutex);
    for (std::string& row : rows) table_.rows.push_back(std::move(row));
    return Status::OK();
  }
  Status Close() override {
    std::lock_guard<std::mutex> lock(table_.mutex);
    ++table_.closed;
    return Status::OK();
  }

 private:
  CollectingSink::Table& table_;
  bool fail_;
};

class CollectingTable final : public TableSink {
 public:
  CollectingTable(CollectingSink::Table& table, bool fail) : table_(table), fail_(fail) {}
  Result<std::unique_ptr<SinkWriter>> OpenWriter() override {
    std::lock_guard<std::mutex> lock(table_.mutex);
    ++table_.writers;
    return std::unique_ptr<SinkWriter>(std::make_unique<CollectingWriter>(table_, fail_));
  }
  Status Commit() override {
    table_.committed = true;
    return Status::OK();
  }

 private:
  CollectingSink::Table& table_;
  bool fail_;
};

Result<std::unique_ptr<TableSink>> CollectingSink::BeginTable(TpchTable table) {
  return std::unique_ptr<TableSink>(
      std::make_unique<CollectingTable>(tables[table], fail && table == fail_table));
}

TpchLoadOptions Options(int threads) {
  TpchLoadOptions options;
  options.generator.scale_factor = 0.01;
  options.generator.text_pool_bytes = 1 << 20;
  options.threads = threads;
  options.chunk_units = 1000;
  return options;
}

TEST(TpchLoaderTest, LoadsEveryTableAndTheSameRowsOnAnyThreadCount) {
  CollectingSink one, three;
  TpchLoadOptions options = Options(1);
  int64_t progress_calls = 0;
  options.progress = [&](const TpchProgress& p) {
    ++progress_calls;
    EXPECT_LE(p.units_done, p.units_total);
  };
  auto reports = LoadTpch(options, one);
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 8u);
  EXPECT_GT(progress_calls, 15);  // orders alone is 15 chunks
  auto reports3 = LoadTpch(Options(3), three);
  ASSERT_TRUE(reports3.ok()) << reports3.status().ToString();
  for (const TpchTableReport& r : *reports) {
    CollectingSink::Table& a = one.tables[r.table];
    CollectingSink::Table& b = three.tables[r.table];
    EXPECT_TRUE(a.committed && b.committed);
    EXPECT_EQ(static_cast<int64_t>(a.rows.size()), r.rows);
    EXPECT_EQ(a.writers, a.closed);
    EXPECT_EQ(b.writers, b.closed);
    if (r.table == TpchTable::kOrders) {
      EXPECT_EQ(b.writers, 3);
    }
    std::sort(a.rows.begin(), a.rows.end());
    std::sort(b.rows.begin(), b.rows.end());
    EXPECT_EQ(a.rows, b.rows) << TpchTableName(r.table);
  }
  EXPECT_EQ(one.tables[TpchTable::kPartSupp].rows.size(), 8000u);
}

TEST(TpchLoaderTest, StopsAtAFailingWriteWithoutCommitting) {
  CollectingSink sink;
  sink.fail = true;
  sink.fail_table = TpchTable::kPart;
  TpchLoadOptions options = Options(2);
  options.tables = {TpchTable::kNation, TpchTable::kPart, TpchTable::kCustomer};
  auto reports = LoadTpch(options, sink);
  ASSERT_FALSE(reports.ok());
  EXPECT_NE(reports.status().message().find("disk full"), std::string::npos);
  EXPECT_TRUE(sink.tables[TpchTable::kNation].committed);
  EXPECT_FALSE(sink.tables[TpchTable::kPart].committed);
  EXPECT_EQ(sink.tables.count(TpchTable::kCustomer), 0u);
}

TEST(TpchLoaderTest, PartitionSpecsFromTransformTerms) {
  auto spec = TpchPartitionSpecJson(TpchTable::kOrders, "month(o_orderdate), o_orderstatus");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(*spec,
            R"({"spec-id":0,"fields":[{"source-id":5,"field-id":1000,"name":"o_orderdate_month",)"
            R"("transform":"month"},{"source-id":3,"field-id":1001,"name":"o_orderstatus",)"
            R"("transform":"identity"}]})");
  auto bucket = TpchPartitionSpecJson(TpchTable::kLineitem, "bucket(16, l_orderkey)");
  ASSERT_TRUE(bucket.ok()) << bucket.status().ToString();
  EXPECT_NE(bucket->find(R"("name":"l_orderkey_bucket","transform":"bucket[16]")"),
            std::string::npos);
  EXPECT_FALSE(TpchPartitionSpecJson(TpchTable::kOrders, "month(o_nodate)").ok());
  EXPECT_FALSE(TpchPartitionSpecJson(TpchTable::kOrders, "week(o_orderdate)").ok());
  EXPECT_FALSE(TpchPartitionSpecJson(TpchTable::kOrders, "bucket(o_orderkey)").ok());
}

}  // namespace
}  // namespace sqe::datagen
