#include "formats/parquet/bloom_pruning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "columnar/data_type.h"
#include "formats/parquet/footer.h"
#include "formats/parquet/pyarrow_peer_test_support.h"
#include "io/memory_file.h"

namespace sqe::parquet {
namespace {

using Op = PredicateOp;

template <typename T>
std::string Plain(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

ParquetSchema Schema() {
  columnar::Schema s(
      {columnar::Field("i", columnar::Int32()), columnar::Field("l", columnar::Int64()),
       columnar::Field("d", columnar::Float64()), columnar::Field("s", columnar::String()),
       columnar::Field("m", columnar::Decimal(30, 2))});
  auto el = ToParquetSchema(s);
  EXPECT_TRUE(el.ok());
  return *FromParquetSchema(*el);
}

BoundPredicate Bind(const ParquetSchema& schema, const char* col, Op op, std::vector<Literal> v) {
  auto b = BindPredicate(Predicate{ColumnRef::Name(col), op, std::move(v)}, schema);
  EXPECT_TRUE(b.ok()) << b.status().ToString();
  return *b;
}

TEST(BloomPruning, ProbesPlainEncodings) {
  ParquetSchema schema = Schema();
  SplitBlockBloomFilter f(1024);
  f.Insert(XxHash64(Plain(int32_t{42})));
  f.Insert(XxHash64(Plain(int64_t{42})));
  f.Insert(XxHash64(Plain(-0.0)));
  f.Insert(XxHash64("hello"));
  std::string be(13, '\0');
  be[12] = static_cast<char>(150);  // 1.50 at scale 2, 13 bytes big-endian
  f.Insert(XxHash64(be));

  EXPECT_TRUE(BloomMayMatch(Bind(schema, "i", Op::kEq, {Literal::Int64(42)}), f));
  EXPECT_FALSE(BloomMayMatch(Bind(schema, "i", Op::kEq, {Literal::Int64(43)}), f));
  EXPECT_TRUE(
      BloomMayMatch(Bind(schema, "i", Op::kIn, {Literal::Int64(1), Literal::Int64(42)}), f));
  EXPECT_FALSE(
      BloomMayMatch(Bind(schema, "i", Op::kIn, {Literal::Int64(1), Literal::Int64(2)}), f));
  EXPECT_TRUE(BloomMayMatch(Bind(schema, "l", Op::kEq, {Literal::Int64(42)}), f));
  // 0.0 probes both zeros; the file holds -0.0.
  EXPECT_TRUE(BloomMayMatch(Bind(schema, "d", Op::kEq, {Literal::Double(0.0)}), f));
  EXPECT_FALSE(BloomMayMatch(Bind(schema, "d", Op::kEq, {Literal::Double(1.0)}), f));
  // NaN has no probe: the filter cannot rule it out.
  EXPECT_TRUE(BloomMayMatch(Bind(schema, "d", Op::kEq, {Literal::Double(std::nan(""))}), f));
  EXPECT_TRUE(BloomMayMatch(Bind(schema, "s", Op::kEq, {Literal::String("hello")}), f));
  EXPECT_FALSE(BloomMayMatch(Bind(schema, "s", Op::kEq, {Literal::String("hellO")}), f));
  EXPECT_TRUE(BloomMayMatch(
      Bind(schema, "m", Op::kEq, {Literal::Decimal(columnar::Decimal128(15), 1)}), f));
  EXPECT_FALSE(BloomMayMatch(
      Bind(schema, "m", Op::kEq, {Literal::Decimal(columnar::Decimal128(16), 1)}), f));
  // Only = and IN use the filter.
  EXPECT_TRUE(BloomMayMatch(Bind(schema, "i", Op::kLt, {Literal::Int64(43)}), f));
  EXPECT_TRUE(BloomMayMatch(Bind(schema, "i", Op::kNe, {Literal::Int64(43)}), f));
}

TEST(BloomPruning, ReadsFiltersThroughTheFile) {
  SplitBlockBloomFilter f(64);
  f.Insert(XxHash64(Plain(int32_t{7})));
  std::string header = EncodeThrift(f.header());
  std::string data = "PAR1xxxx" + header + f.bitset() + "tail";
  ColumnMetaData cm;
  cm.path_in_schema = {"i"};
  cm.bloom_filter_offset = 8;
  for (std::optional<int32_t> length :
       {std::optional<int32_t>(), std::optional<int32_t>(header.size() + f.bitset().size())}) {
    cm.bloom_filter_length = length;
    io::MemoryFile file(data);
    BloomReadCounters counters;
    auto read = ReadBloomFilter(file, cm, &counters);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_TRUE(read->has_value());
    EXPECT_EQ((*read)->bitset(), f.bitset());
    EXPECT_EQ(counters.read_requests, file.read_calls());
    EXPECT_EQ(counters.bytes_read, file.bytes_read());
    if (length) {
      EXPECT_EQ(counters.read_requests, 1);
    }
  }
  // Truncated bitset and out-of-file offsets are corruption.
  io::MemoryFile truncated(data.substr(0, 8 + header.size() + 10));
  cm.bloom_filter_length.reset();
  EXPECT_EQ(ReadBloomFilter(truncated, cm).status().code(), StatusCode::kCorruption);
  cm.bloom_filter_offset = 1 << 20;
  io::MemoryFile file(data);
  EXPECT_EQ(ReadBloomFilter(file, cm).status().code(), StatusCode::kCorruption);
  cm.bloom_filter_offset.reset();
  auto none = ReadBloomFilter(file, cm);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

const char* kBloomScript = R"PY(
import sys
import pyarrow as pa, pyarrow.parquet as pq
n = 3000
t = pa.table({"id": pa.array([i * 2 for i in range(n)], pa.int64()),
              "s": pa.array(["key%d" % (i * 2) for i in range(n)]),
              "i": pa.array([i * 2 for i in range(n)], pa.int32())})
pq.write_table(t, sys.argv[1], row_group_size=1000,
               bloom_filter_options={"id": {"ndv": 1000, "fpp": 0.01},
                                     "s": {"ndv": 1000, "fpp": 0.01},
                                     "i": {"ndv": 1000, "fpp": 0.01}})
)PY";

TEST(BloomPruning, PyarrowFilters) {
  if (!testing::HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  auto bytes = testing::WriteWithPyarrow(kBloomScript, "bloom");
  if (!bytes) GTEST_SKIP() << "this pyarrow cannot write Bloom filters";
  auto md = ParseFooter(*bytes);
  ASSERT_TRUE(md.ok());
  auto schema = FromParquetSchema(md->schema);
  ASSERT_TRUE(schema.ok());
  io::MemoryFile file(*bytes);
  ASSERT_EQ(md->row_groups.size(), 3u);
  auto may = [&](int rg, const char* col, Literal lit) {
    auto b = BindPredicate(Predicate::Compare(ColumnRef::Name(col), Op::kEq, lit), *schema);
    EXPECT_TRUE(b.ok());
    std::vector<BoundPredicate> conj{*b};
    auto r = RowGroupBloomMayMatch(file, md->row_groups[rg], conj);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ValueOr(true);
  };
  int false_positives = 0;
  for (int i = 0; i < 1000; i += 7) {
    // Present values are always kept.
    EXPECT_TRUE(may(0, "id", Literal::Int64(i * 2))) << i;
    EXPECT_TRUE(may(0, "i", Literal::Int64(i * 2))) << i;
    EXPECT_TRUE(may(0, "s", Literal::String("key" + std::to_string(i * 2)))) << i;
    // Odd values are in the row group's min/max range but absent.
    false_positives += may(0, "id", Literal::Int64(i * 2 + 1));
    false_positives += may(0, "i", Literal::Int64(i * 2 + 1));
    false_positives += may(0, "s", Literal::String("key" + std::to_string(i * 2 + 1)));
  }
  EXPECT_LT(false_positives, 30);
  EXPECT_TRUE(may(1, "id", Literal::Int64(2000)));
  EXPECT_FALSE(may(1, "id", Literal::Int64(2001)) && may(1, "id", Literal::Int64(2003)) &&
               may(1, "id", Literal::Int64(2005)));
}

}  // namespace
}  // namespace sqe::parquet
