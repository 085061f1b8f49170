#include "formats/parquet/page_pruning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "columnar/data_type.h"
#include "formats/parquet/footer.h"
#include "formats/parquet/pyarrow_peer_test_support.h"

namespace sqe::parquet {
namespace {

using Op = PredicateOp;

template <typename T>
std::string Plain(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

OffsetIndex Offsets(std::vector<int64_t> first_rows) {
  OffsetIndex oi;
  for (int64_t r : first_rows) oi.page_locations.push_back({1000 + r, 10, r});
  return oi;
}

// Pages of int64 values with the given [min, max] (nullopt: a null page).
ColumnIndex Int64Pages(std::vector<std::optional<std::pair<int64_t, int64_t>>> pages) {
  ColumnIndex ci;
  ci.null_counts = std::vector<int64_t>{};
  for (const auto& p : pages) {
    ci.null_pages.push_back(!p.has_value());
    ci.min_values.push_back(p ? Plain(p->first) : "");
    ci.max_values.push_back(p ? Plain(p->second) : "");
    ci.null_counts->push_back(p ? 0 : 10);
  }
  return ci;
}

RowRanges Ranges(std::vector<RowRange> r) { return RowRanges::FromRanges(std::move(r)); }

class PagePruningTest : public ::testing::Test {
 protected:
  void SetUp() override {
    columnar::Schema s({columnar::Field("a", columnar::Int64()),
                        columnar::Field("b", columnar::Int64()),
                        columnar::Field("d", columnar::Float64())});
    auto el = ToParquetSchema(s);
    ASSERT_TRUE(el.ok());
    auto ps = FromParquetSchema(*el);
    ASSERT_TRUE(ps.ok());
    schema_ = *ps;
    // a: sorted, pages of 10 rows over 35 rows; page 2 all null.
    a_offsets_ = Offsets({0, 10, 20, 30});
    a_index_ = Int64Pages({std::pair{0, 9}, std::pair{10, 19}, std::nullopt, std::pair{30, 34}});
    a_index_.boundary_order = BoundaryOrder::kAscending;
    // b: other page boundaries: [0,15) [15,35).
    b_offsets_ = Offsets({0, 15});
    b_index_ = Int64Pages({std::pair{100, 200}, std::pair{0, 50}});
  }

  BoundPredicate Bind(Predicate p) {
    auto b = BindPredicate(p, schema_);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    return *b;
  }
  RowRanges OnA(Op op, std::vector<Literal> lits) {
    auto r = PagesMayMatch(Bind(Predicate{ColumnRef::Name("a"), op, std::move(lits)}), a_index_,
                           a_offsets_, 35, ColumnOrder::kTypeDefined);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ValueOr(RowRanges());
  }

  ParquetSchema schema_;
  OffsetIndex a_offsets_, b_offsets_;
  ColumnIndex a_index_, b_index_;
};

TEST_F(PagePruningTest, PageRowSpans) {
  auto spans = PageRowSpans(a_offsets_, 35);
  ASSERT_TRUE(spans.ok());
  EXPECT_EQ(*spans, (std::vector<RowRange>{{0, 10}, {10, 20}, {20, 30}, {30, 35}}));
  EXPECT_EQ(PageRowSpans(Offsets({1, 10}), 35).status().code(), StatusCode::kCorruption);
  EXPECT_EQ(PageRowSpans(Offsets({0, 20, 10}), 35).status().code(), StatusCode::kCorruption);
  EXPECT_EQ(PageRowSpans(Offsets({0, 40}), 35).status().code(), StatusCode::kCorruption);
}

TEST_F(PagePruningTest, EachOperatorKeepsThePagesThatMayMatch) {
  const std::vector<Literal> none;
  EXPECT_EQ(OnA(Op::kEq, {Literal::Int64(15)}), Ranges({{10, 20}}));
  EXPECT_EQ(OnA(Op::kEq, {Literal::Int64(25)}), Ranges({}));  // the page holding 25 is null
  EXPECT_EQ(OnA(Op::kEq, {Literal::Int64(99)}), Ranges({}));
  EXPECT_EQ(OnA(Op::kLt, {Literal::Int64(10)}), Ranges({{0, 10}}));
  EXPECT_EQ(OnA(Op::kLe, {Literal::Int64(10)}), Ranges({{0, 20}}));
  EXPECT_EQ(OnA(Op::kGt, {Literal::Int64(19)}), Ranges({{30, 35}}));
  EXPECT_EQ(OnA(Op::kGe, {Literal::Int64(19)}), Ranges({{10, 20}, {30, 35}}));
  EXPECT_EQ(OnA(Op::kNe, {Literal::Int64(19)}), Ranges({{0, 20}, {30, 35}}));
  EXPECT_EQ(OnA(Op::kIn, {Literal::Int64(5), Literal::Int64(33)}), Ranges({{0, 10}, {30, 35}}));
  EXPECT_EQ(OnA(Op::kIn, none), Ranges({}));
  EXPECT_EQ(OnA(Op::kIsNull, none), Ranges({{20, 30}}));
  EXPECT_EQ(OnA(Op::kIsNotNull, none), Ranges({{0, 20}, {30, 35}}));
  // Without null_counts, IS NULL cannot drop a page that has values.
  a_index_.null_counts.reset();
  EXPECT_EQ(OnA(Op::kIsNull, none), Ranges({{0, 35}}));
  // != drops a constant page.
  a_index_ = Int64Pages({std::pair{0, 9}, std::pair{7, 7}, std::pair{7, 8}, std::pair{30, 34}});
  EXPECT_EQ(OnA(Op::kNe, {Literal::Int64(7)}), Ranges({{0, 10}, {20, 35}}));
}

TEST_F(PagePruningTest, ConjunctionIntersectsColumnsWithDifferentPages) {
  std::vector<ColumnPageIndex> indexes = {{&a_index_, &a_offsets_}, {&b_index_, &b_offsets_}};
  auto run = [&](std::vector<Predicate> ps) {
    auto bound = BindPredicates(ps, schema_);
    EXPECT_TRUE(bound.ok());
    auto r = PruneRowRanges(*bound, indexes, 35, {});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ValueOr(RowRanges());
  };
  auto a = ColumnRef::Name("a");
  auto b = ColumnRef::Name("b");
  // a >= 10 keeps [10, 20) and [30, 35); b <= 60 keeps [15, 35).
  EXPECT_EQ(run({Predicate::Compare(a, Op::kGe, Literal::Int64(10)),
                 Predicate::Compare(b, Op::kLe, Literal::Int64(60))}),
            Ranges({{15, 20}, {30, 35}}));
  EXPECT_EQ(run({Predicate::Compare(a, Op::kLt, Literal::Int64(10)),
                 Predicate::Compare(b, Op::kLe, Literal::Int64(60))}),
            Ranges({}));
  // Two predicates on one column.
  EXPECT_EQ(run({Predicate::Compare(a, Op::kGe, Literal::Int64(5)),
                 Predicate::Compare(a, Op::kLe, Literal::Int64(12))}),
            Ranges({{0, 20}}));
  // A column without a page index (d) does not restrict.
  EXPECT_EQ(run({Predicate::Compare(ColumnRef::Name("d"), Op::kEq, Literal::Double(1)),
                 Predicate::Compare(a, Op::kEq, Literal::Int64(31))}),
            Ranges({{30, 35}}));
  EXPECT_EQ(run({}), Ranges({{0, 35}}));
  // An unknown column order ignores a's bounds (but not its null pages).
  std::vector<ColumnOrder> orders = {ColumnOrder::kUnknown, ColumnOrder::kTypeDefined,
                                     ColumnOrder::kTypeDefined};
  auto bound = BindPredicates({Predicate::Compare(a, Op::kEq, Literal::Int64(15))}, schema_);
  ASSERT_TRUE(bound.ok());
  auto r = PruneRowRanges(*bound, indexes, 35, orders);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, Ranges({{0, 20}, {30, 35}}));
}

TEST_F(PagePruningTest, InconsistentIndexesAreCorruption) {
  ColumnIndex short_index = a_index_;
  short_index.min_values.pop_back();
  auto r = PagesMayMatch(Bind(Predicate::Compare(ColumnRef::Name("a"), Op::kEq, Literal::Int64(1))),
                         short_index, a_offsets_, 35, ColumnOrder::kTypeDefined);
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  EXPECT_NE(r.status().message().find("'a'"), std::string::npos);
}

TEST_F(PagePruningTest, FloatPagesIgnoreNaNBounds) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnIndex ci;
  ci.null_pages = {false, false, false};
  ci.min_values = {Plain(0.0), Plain(nan), Plain(-0.0)};
  ci.max_values = {Plain(1.0), Plain(nan), Plain(0.0)};
  OffsetIndex oi = Offsets({0, 10, 20});
  auto run = [&](Op op, double v) {
    auto r = PagesMayMatch(Bind(Predicate::Compare(ColumnRef::Name("d"), op, Literal::Double(v))),
                           ci, oi, 30, ColumnOrder::kTypeDefined);
    EXPECT_TRUE(r.ok());
    return r.ValueOr(RowRanges());
  };
  EXPECT_EQ(run(Op::kEq, 0.5), Ranges({{0, 20}}));
  EXPECT_EQ(run(Op::kEq, -0.0), Ranges({{0, 30}}));
  EXPECT_EQ(run(Op::kGt, 1.0), Ranges({{10, 20}}));
  EXPECT_EQ(run(Op::kNe, 0.0), Ranges({{0, 30}}));  // no nan_counts: NaN != 0 may be there
  ci.nan_counts = std::vector<int64_t>{0, 5, 0};
  EXPECT_EQ(run(Op::kNe, 0.0), Ranges({{0, 20}}));
  EXPECT_EQ(run(Op::kEq, nan), Ranges({{0, 30}}));
}

// A sorted column written by pyarrow in many small pages with a page index: the pages
// kept for each predicate hold every matching row, and far fewer rows than the group.
const char* kPageIndexScript = R"PY(
import sys
import pyarrow as pa, pyarrow.parquet as pq
n = 10000
t = pa.table({"k": pa.array(range(n), pa.int64()),
              "s": pa.array(["v%05d" % (i // 7) for i in range(n)]),
              "r": pa.array([(i * 7919) % 1000 for i in range(n)], pa.int32())})
pq.write_table(t, sys.argv[1], row_group_size=n, data_page_size=1024, write_batch_size=100,
               write_page_index=True, use_dictionary=False, compression="none")
)PY";

TEST(PagePruningPyarrow, SortedColumnPages) {
  if (!testing::HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  auto file = testing::WriteWithPyarrow(kPageIndexScript, "pages");
  ASSERT_TRUE(file.has_value());
  auto md = ParseFooter(*file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  auto schema = FromParquetSchema(md->schema);
  ASSERT_TRUE(schema.ok());
  const RowGroup& rg = md->row_groups[0];
  std::vector<ColumnIndex> cis(rg.columns.size());
  std::vector<OffsetIndex> ois(rg.columns.size());
  std::vector<ColumnPageIndex> indexes;
  for (size_t c = 0; c < rg.columns.size(); ++c) {
    const ColumnChunk& cc = rg.columns[c];
    ASSERT_TRUE(cc.column_index_offset && cc.offset_index_offset);
    auto ci = DecodeThrift<ColumnIndex>(
        std::string_view(*file).substr(*cc.column_index_offset, *cc.column_index_length));
    auto oi = DecodeThrift<OffsetIndex>(
        std::string_view(*file).substr(*cc.offset_index_offset, *cc.offset_index_length));
    ASSERT_TRUE(ci.ok() && oi.ok());
    cis[c] = *ci;
    ois[c] = *oi;
  }
  for (size_t c = 0; c < rg.columns.size(); ++c) indexes.push_back({&cis[c], &ois[c]});
  ASSERT_GT(ois[0].page_locations.size(), 10u) << "expected many small pages";
  EXPECT_EQ(cis[0].boundary_order, BoundaryOrder::kAscending);

  auto prune = [&](std::vector<Predicate> ps) {
    auto bound = BindPredicates(ps, *schema);
    EXPECT_TRUE(bound.ok()) << bound.status().ToString();
    auto r = PruneRowRanges(*bound, indexes, rg.num_rows, md->column_orders);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ValueOr(RowRanges());
  };
  auto k = ColumnRef::Name("k");
  auto page_of = [&](int64_t row) {
    auto spans = PageRowSpans(ois[0], rg.num_rows);
    for (const RowRange& s : *spans) {
      if (s.begin <= row && row < s.end) return s;
    }
    return RowRange{};
  };
  // k = 5000: exactly the page holding row 5000.
  RowRanges eq = prune({Predicate::Compare(k, Op::kEq, Literal::Int64(5000))});
  EXPECT_EQ(eq, Ranges({page_of(5000)}));
  // k BETWEEN 2000 AND 2999: the pages spanning those rows, nothing more.
  RowRanges between = prune({Predicate::Compare(k, Op::kGe, Literal::Int64(2000)),
                             Predicate::Compare(k, Op::kLe, Literal::Int64(2999))});
  EXPECT_EQ(between, Ranges({{page_of(2000).begin, page_of(2999).end}}));
  // Beyond the data: nothing.
  EXPECT_TRUE(prune({Predicate::Compare(k, Op::kGt, Literal::Int64(10000))}).empty());
  EXPECT_EQ(prune({Predicate::Compare(k, Op::kGe, Literal::Int64(0))}), Ranges({{0, 10000}}));
  // Strings: s = 'v00500' is rows 3500..3506.
  RowRanges s =
      prune({Predicate::Compare(ColumnRef::Name("s"), Op::kEq, Literal::String("v00500"))});
  EXPECT_TRUE(s.Overlaps(3500, 3507));
  EXPECT_LT(s.row_count(), 2000);
  for (int64_t row : {3500, 3506}) {
    bool covered = false;
    for (const RowRange& r : s.ranges()) covered |= r.begin <= row && row < r.end;
    EXPECT_TRUE(covered) << row;
  }
  // An unsorted column keeps every page that holds a match: r = 123 occurs all over.
  RowRanges r = prune({Predicate::Compare(ColumnRef::Name("r"), Op::kEq, Literal::Int64(123))});
  for (int64_t i = 0; i < 10000; ++i) {
    if ((i * 7919) % 1000 == 123) {
      EXPECT_TRUE(r.Overlaps(i, i + 1)) << i;
    }
  }
  // Conjunction across columns with different page layouts.
  RowRanges both =
      prune({Predicate::Compare(k, Op::kLt, Literal::Int64(3000)),
             Predicate::Compare(ColumnRef::Name("s"), Op::kGe, Literal::String("v00400"))});
  EXPECT_TRUE(both.Overlaps(2800, 3000));
  EXPECT_FALSE(both.Overlaps(0, 2700));
}

}  // namespace
}  // namespace sqe::parquet

namespace sqe::parquet {
namespace {

// Hostile page indexes: mutated bytes of pyarrow's ColumnIndex / OffsetIndex either fail to
// decode, fail pruning with Corruption, or give row ranges inside the row group.
TEST(PagePruningPyarrow, MutatedIndexesStayInBounds) {
  if (!testing::HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  auto file = testing::WriteWithPyarrow(kPageIndexScript, "mutate");
  ASSERT_TRUE(file.has_value());
  auto md = ParseFooter(*file);
  ASSERT_TRUE(md.ok());
  auto schema = FromParquetSchema(md->schema);
  ASSERT_TRUE(schema.ok());
  const RowGroup& rg = md->row_groups[0];
  auto bound = BindPredicates(
      {Predicate::Compare(ColumnRef::Name("k"), PredicateOp::kGe, Literal::Int64(5000)),
       Predicate::Compare(ColumnRef::Name("s"), PredicateOp::kLt, Literal::String("v01000")),
       Predicate::IsNull(ColumnRef::Name("r"))},
      *schema);
  ASSERT_TRUE(bound.ok());
  std::vector<std::string> ci_bytes, oi_bytes;
  for (const ColumnChunk& cc : rg.columns) {
    ci_bytes.push_back(file->substr(*cc.column_index_offset, *cc.column_index_length));
    oi_bytes.push_back(file->substr(*cc.offset_index_offset, *cc.offset_index_length));
  }
  std::mt19937_64 rng(1);
  int decoded = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<ColumnIndex> cis(rg.columns.size());
    std::vector<OffsetIndex> ois(rg.columns.size());
    std::vector<ColumnPageIndex> indexes(rg.columns.size());
    bool ok = true;
    for (size_t c = 0; c < rg.columns.size() && ok; ++c) {
      std::string ci = ci_bytes[c], oi = oi_bytes[c];
      std::string& victim = rng() % 2 ? ci : oi;
      for (int m = 0; m < 1 + static_cast<int>(rng() % 3); ++m) {
        victim[rng() % victim.size()] = static_cast<char>(rng());
      }
      auto dci = DecodeThrift<ColumnIndex>(ci);
      auto doi = DecodeThrift<OffsetIndex>(oi);
      ok = dci.ok() && doi.ok();
      if (!ok) break;
      cis[c] = std::move(*dci);
      ois[c] = std::move(*doi);
      indexes[c] = {&cis[c], &ois[c]};
    }
    if (!ok) continue;
    ++decoded;
    auto r = PruneRowRanges(*bound, indexes, rg.num_rows, md->column_orders);
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << r.status().ToString();
      continue;
    }
    for (const RowRange& range : r->ranges()) {
      EXPECT_GE(range.begin, 0);
      EXPECT_LE(range.end, rg.num_rows);
    }
  }
  EXPECT_GT(decoded, 100);
}

}  // namespace
}  // namespace sqe::parquet
