#include "datagen/tpch_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "columnar/civil_time.h"
#include "columnar/decimal128.h"
#include "common/task_scheduler.h"

namespace sqe::datagen {
namespace {

std::unique_ptr<TpchGenerator> MakeGenerator(double sf, uint64_t seed = kDefaultTpchSeed) {
  TpchOptions options;
  options.scale_factor = sf;
  options.seed = seed;
  options.text_pool_bytes = 1 << 20;
  auto g = TpchGenerator::Make(options);
  EXPECT_TRUE(g.ok()) << g.status().ToString();
  return std::move(*g);
}

int64_t Int(const columnar::Batch& b, int column, int64_t row) {
  const columnar::Column& c = b.column(column);
  if (c.type()->byte_width() == 4) return c.Value<int32_t>(row);
  return c.Value<int64_t>(row);
}

int64_t Cents(const columnar::Batch& b, int column, int64_t row) {
  return static_cast<int64_t>(b.column(column).Value<columnar::Decimal128>(row).low);
}

std::string Str(const columnar::Batch& b, int column, int64_t row) {
  return std::string(b.column(column).StringAt(row));
}

/// Any cell as text, for comparing rows.
std::string Cell(const columnar::Batch& b, int column, int64_t row) {
  const columnar::Column& c = b.column(column);
  switch (c.type()->byte_width()) {
    case 4:
      return std::to_string(c.Value<int32_t>(row));
    case 8:
      return std::to_string(c.Value<int64_t>(row));
    case 16:
      return std::to_string(Cents(b, column, row));
    default:
      return Str(b, column, row);
  }
}

TEST(TpchGeneratorTest, RowCountsAtScaleFactorOneHundredth) {
  auto g = MakeGenerator(0.01);
  const std::map<TpchTable, int64_t> expected = {
      {TpchTable::kRegion, 5},     {TpchTable::kNation, 25},     {TpchTable::kPart, 2000},
      {TpchTable::kSupplier, 100}, {TpchTable::kPartSupp, 8000}, {TpchTable::kCustomer, 1500},
      {TpchTable::kOrders, 15000}};
  for (const auto& [table, rows] : expected) {
    auto batch = g->Generate(table, 0, g->UnitCount(table));
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_EQ(batch->num_rows(), rows) << TpchTableName(table);
    EXPECT_TRUE(batch->schema()->Equals(*TpchSchema(table)));
  }
  auto lines = g->Generate(TpchTable::kLineitem, 0, g->UnitCount(TpchTable::kLineitem));
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  // 1..7 lines an order, 4 on average: 60000 expected, dbgen gives 60175.
  EXPECT_GT(lines->num_rows(), 59000);
  EXPECT_LT(lines->num_rows(), 61000);
  EXPECT_EQ(TpchUnitCount(TpchTable::kLineitem, 1.0), 1500000);
  EXPECT_EQ(TpchUnitCount(TpchTable::kCustomer, 0.3), 45000);
  EXPECT_EQ(TpchUnitCount(TpchTable::kPartSupp, 1.0), 800000);
}

TEST(TpchGeneratorTest, RangesGiveTheSameRowsInAnySplitAndOnAnyThread) {
  auto g = MakeGenerator(0.01);
  for (TpchTable table : {TpchTable::kCustomer, TpchTable::kOrders, TpchTable::kLineitem,
                          TpchTable::kPartSupp, TpchTable::kSupplier}) {
    const int64_t n = std::min<int64_t>(1000, g->UnitCount(table));
    auto whole = g->Generate(table, 0, n);
    ASSERT_TRUE(whole.ok()) << whole.status().ToString();
    // Generate the same units in 7 uneven pieces on 3 threads, then compare row by row.
    std::vector<columnar::Batch> pieces(7);
    TaskScheduler scheduler(2);
    Status st = ParallelFor(&scheduler, 7, 3, [&](int64_t i) -> Status {
      const int64_t piece = n / 7, first = i * piece, count = i == 6 ? n - 6 * piece : piece;
      SQE_ASSIGN_OR_RETURN(pieces[static_cast<size_t>(i)], g->Generate(table, first, count));
      return Status::OK();
    });
    ASSERT_TRUE(st.ok()) << st.ToString();
    int64_t row = 0;
    for (const columnar::Batch& piece : pieces) {
      for (int64_t r = 0; r < piece.num_rows(); ++r, ++row) {
        for (int c = 0; c < piece.num_columns(); ++c) {
          ASSERT_EQ(Cell(piece, c, r), Cell(*whole, c, row))
              << TpchTableName(table) << " row " << row << " column " << c;
        }
      }
    }
    EXPECT_EQ(row, whole->num_rows());
  }
  // A second generator with the same seed gives the same rows; another seed does not.
  auto again = MakeGenerator(0.01);
  auto other = MakeGenerator(0.01, 7);
  auto a = g->Generate(TpchTable::kOrders, 100, 50);
  auto b = again->Generate(TpchTable::kOrders, 100, 50);
  auto c = other->Generate(TpchTable::kOrders, 100, 50);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  int differing = 0;
  for (int64_t r = 0; r < 50; ++r) {
    EXPECT_EQ(Str(*a, 8, r), Str(*b, 8, r));
    EXPECT_EQ(Int(*a, 1, r), Int(*b, 1, r));
    differing += Int(*a, 1, r) != Int(*c, 1, r);
  }
  EXPECT_GT(differing, 40);
}

TEST(TpchGeneratorTest, KeysAndFlagsStayInTheirDomains) {
  auto g = MakeGenerator(0.01);
  const int32_t start = static_cast<int32_t>(columnar::DaysFromCivil(1992, 1, 1));
  const int32_t last_order = static_cast<int32_t>(columnar::DaysFromCivil(1998, 8, 2));
  const int32_t current = static_cast<int32_t>(columnar::DaysFromCivil(1995, 6, 17));

  auto orders = g->Generate(TpchTable::kOrders, 0, g->UnitCount(TpchTable::kOrders));
  auto lines = g->Generate(TpchTable::kLineitem, 0, g->UnitCount(TpchTable::kLineitem));
  ASSERT_TRUE(orders.ok() && lines.ok());
  std::set<std::string> statuses, priorities;
  std::map<int64_t, std::pair<char, int32_t>> order_of_key;  // status, date
  std::map<int64_t, int64_t> orders_of_residue;              // by custkey % 3
  for (int64_t r = 0; r < orders->num_rows(); ++r) {
    const int64_t key = Int(*orders, 0, r);
    EXPECT_EQ(key, TpchOrderKey(r));
    const int64_t cust = Int(*orders, 1, r);
    EXPECT_TRUE(cust >= 1 && cust <= 1500 && cust % 3 != 0) << cust;
    ++orders_of_residue[cust % 3];
    const int32_t date = static_cast<int32_t>(Int(*orders, 4, r));
    EXPECT_TRUE(date >= start && date <= last_order);
    statuses.insert(Str(*orders, 2, r));
    priorities.insert(Str(*orders, 5, r));
    order_of_key[key] = {Str(*orders, 2, r)[0], date};
    const int64_t len = static_cast<int64_t>(Str(*orders, 8, r).size());
    EXPECT_TRUE(len >= 19 && len <= 78);
  }
  EXPECT_EQ(statuses, (std::set<std::string>{"F", "O", "P"}));
  EXPECT_EQ(priorities.size(), 5u);
  EXPECT_EQ(TpchOrderKey(15000 - 1), 60000);
  // Draws of a key % 3 == 0 move to the next key: twice the orders there (as dbgen).
  EXPECT_NEAR(static_cast<double>(orders_of_residue[1]) / orders_of_residue[2], 2.0, 0.15);

  std::set<std::string> flags, modes, instructs;
  std::map<int64_t, std::set<char>> line_statuses;
  for (int64_t r = 0; r < lines->num_rows(); ++r) {
    const int64_t key = Int(*lines, 0, r);
    ASSERT_TRUE(order_of_key.count(key));
    const int64_t part = Int(*lines, 1, r), supp = Int(*lines, 2, r);
    EXPECT_TRUE(part >= 1 && part <= 2000);
    bool supplies = false;
    for (int i = 0; i < 4; ++i) supplies |= TpchPartSupplier(part, i, 100) == supp;
    EXPECT_TRUE(supplies) << part << " " << supp;
    const int64_t linenumber = Int(*lines, 3, r);
    EXPECT_TRUE(linenumber >= 1 && linenumber <= 7);
    const int64_t qty = Cents(*lines, 4, r);
    EXPECT_TRUE(qty >= 100 && qty <= 5000 && qty % 100 == 0);
    EXPECT_EQ(Cents(*lines, 5, r), qty / 100 * TpchRetailPriceCents(part));
    EXPECT_LE(Cents(*lines, 6, r), 10);
    EXPECT_LE(Cents(*lines, 7, r), 8);
    const int32_t ship = static_cast<int32_t>(Int(*lines, 10, r));
    const int32_t receipt = static_cast<int32_t>(Int(*lines, 12, r));
    const int32_t odate = order_of_key[key].second;
    EXPECT_TRUE(ship > odate && ship <= odate + 121);
    EXPECT_TRUE(receipt > ship && receipt <= ship + 30);
    const std::string flag = Str(*lines, 8, r), status = Str(*lines, 9, r);
    EXPECT_EQ(flag == "N", receipt > current);
    EXPECT_EQ(status == "O", ship > current);
    flags.insert(flag);
    modes.insert(Str(*lines, 14, r));
    instructs.insert(Str(*lines, 13, r));
    line_statuses[key].insert(status[0]);
  }
  EXPECT_EQ(flags, (std::set<std::string>{"A", "N", "R"}));
  EXPECT_EQ(modes.size(), 7u);
  EXPECT_EQ(instructs.size(), 4u);
  for (const auto& [key, s] : line_statuses) {
    const char expected = s.size() == 2 ? 'P' : *s.begin();
    EXPECT_EQ(order_of_key[key].first, expected) << key;
  }

  auto part = g->Generate(TpchTable::kPart, 0, 2000);
  ASSERT_TRUE(part.ok());
  std::set<std::string> brands, types, containers;
  for (int64_t r = 0; r < part->num_rows(); ++r) {
    EXPECT_EQ(Int(*part, 0, r), r + 1);
    brands.insert(Str(*part, 3, r));
    types.insert(Str(*part, 4, r));
    containers.insert(Str(*part, 6, r));
    EXPECT_EQ(Str(*part, 3, r).substr(6, 1), Str(*part, 2, r).substr(13, 1));
    const int64_t size = Int(*part, 5, r);
    EXPECT_TRUE(size >= 1 && size <= 50);
  }
  EXPECT_EQ(brands.size(), 25u);
  EXPECT_EQ(types.size(), 150u);
  EXPECT_EQ(containers.size(), 40u);
  EXPECT_EQ(TpchRetailPriceCents(1), 90100);

  auto nation = g->Generate(TpchTable::kNation, 0, 25);
  ASSERT_TRUE(nation.ok());
  EXPECT_EQ(Str(*nation, 1, 24), "UNITED STATES");
  EXPECT_EQ(Int(*nation, 2, 24), 1);
  auto supplier = g->Generate(TpchTable::kSupplier, 0, 100);
  ASSERT_TRUE(supplier.ok());
  EXPECT_EQ(Str(*supplier, 1, 0), "Supplier#000000001");
  for (int64_t r = 0; r < 100; ++r) {
    const std::string phone = Str(*supplier, 4, r);
    EXPECT_EQ(phone.size(), 15u);
    EXPECT_EQ(std::stoi(phone.substr(0, 2)), Int(*supplier, 3, r) + 10);
  }
}

TEST(TpchGeneratorTest, RejectsBadScaleFactorsAndRanges) {
  TpchOptions options;
  options.scale_factor = 0;
  EXPECT_FALSE(TpchGenerator::Make(options).ok());
  auto g = MakeGenerator(0.01);
  EXPECT_FALSE(g->Generate(TpchTable::kNation, 20, 10).ok());
  EXPECT_FALSE(TpchTableFromName("lineitems").ok());
  EXPECT_EQ(*TpchTableFromName("partsupp"), TpchTable::kPartSupp);
}

}  // namespace
}  // namespace sqe::datagen
