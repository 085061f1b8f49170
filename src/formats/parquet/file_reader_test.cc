// ParquetFileReader against pyarrow: file_reader_test_peer.py writes files covering every
// type, codec, page version, encoding, nesting shape, INT96 and several row groups; we
// read them and the peer compares our values (as JSON lines) with what pyarrow reads.
// Skipped when no Python with pyarrow is found (tests/peers/.venv, $SQE_PYARROW_PYTHON).
#include "formats/parquet/file_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <unistd.h>

#include "columnar/json_value_encoding.h"
#include "common/task_scheduler.h"
#include "io/memory_file.h"

namespace sqe::parquet {
namespace {

namespace fs = std::filesystem;

fs::path SourceDir() {
  const char* src = std::getenv("SQE_SOURCE_DIR");
  return fs::path(src ? src : SQE_DEFAULT_SOURCE_DIR);
}

std::string PeerPython() {
  const char* p = std::getenv("SQE_PYARROW_PYTHON");
  if (p != nullptr && *p != '\0') return p;
  fs::path venv = SourceDir() / "tests/peers/.venv/bin/python";
  if (fs::exists(venv)) return venv.string();
  return "python3";
}

// Runs `cmd`, returns its exit status and appends stdout+stderr to *output.
int RunCommand(const std::string& cmd, std::string* output) {
  FILE* pipe = ::popen((cmd + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), pipe)) > 0) output->append(buf, n);
  return ::pclose(pipe);
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class PyarrowReaderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string out;
    if (RunCommand(PeerPython() + " -c 'import pyarrow.parquet'", &out) != 0) return;
    dir_ = new fs::path(fs::temp_directory_path() /
                        ("sqe_parquet_reader_" + std::to_string(::getpid())));
    fs::create_directories(*dir_);
    const std::string script =
        (SourceDir() / "src/formats/parquet/file_reader_test_peer.py").string();
    out.clear();
    if (RunCommand(PeerPython() + " " + script + " gen " + dir_->string(), &out) != 0) {
      gen_error_ = new std::string(out);
    }
  }
  static void TearDownTestSuite() {
    if (dir_ != nullptr) fs::remove_all(*dir_);
    delete dir_;
    dir_ = nullptr;
    delete gen_error_;
    gen_error_ = nullptr;
  }

  void SetUp() override {
    if (dir_ == nullptr) GTEST_SKIP() << "pyarrow not available";
    ASSERT_EQ(gen_error_, nullptr) << *gen_error_;
  }

  static std::vector<std::string> Scenarios(const std::string& prefix) {
    std::vector<std::string> names;
    std::istringstream in(Slurp(*dir_ / "scenarios.txt"));
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(prefix, 0) == 0) names.push_back(line);
    }
    return names;
  }

  static std::shared_ptr<io::MemoryFile> File(const std::string& name) {
    return std::make_shared<io::MemoryFile>(Slurp(*dir_ / (name + ".parquet")), name + ".parquet");
  }

  static Result<std::string> Jsonl(const std::vector<columnar::Batch>& batches) {
    std::string out;
    for (const columnar::Batch& b : batches) {
      for (const columnar::Column& c : b.columns()) SQE_RETURN_NOT_OK(c.ValidateFull());
      SQE_RETURN_NOT_OK(columnar::AppendJsonLines(b, &out));
    }
    return out;
  }

  // Reads every file of `names` with ReadAll and has the peer compare the values.
  void ReadAndCheck(const std::vector<std::string>& names, ReaderOptions options = {}) {
    ASSERT_FALSE(names.empty());
    for (const std::string& name : names) {
      auto reader = ParquetFileReader::Open(File(name), options);
      ASSERT_TRUE(reader.ok()) << name << ": " << reader.status().ToString();
      auto batches = (*reader)->ReadAll();
      ASSERT_TRUE(batches.ok()) << name << ": " << batches.status().ToString();
      auto text = Jsonl(*batches);
      ASSERT_TRUE(text.ok()) << name << ": " << text.status().ToString();
      std::ofstream(*dir_ / (name + ".ours.jsonl"), std::ios::binary) << *text;
    }
    std::string cmd = PeerPython() + " " +
                      (SourceDir() / "src/formats/parquet/file_reader_test_peer.py").string() +
                      " check " + dir_->string();
    for (const std::string& name : names) cmd += " " + name;
    std::string out;
    EXPECT_EQ(RunCommand(cmd, &out), 0) << out;
  }

  static fs::path* dir_;
  static std::string* gen_error_;
};

fs::path* PyarrowReaderTest::dir_ = nullptr;
std::string* PyarrowReaderTest::gen_error_ = nullptr;

TEST_F(PyarrowReaderTest, EveryTypeCodecAndPageVersion) { ReadAndCheck(Scenarios("types_")); }

TEST_F(PyarrowReaderTest, PageChecksumsMatchPyarrows) {
  ReaderOptions options;
  options.verify_page_checksums = true;
  ReadAndCheck({"types_crc"}, options);
  // Flip one byte inside the first column's first page: the checksum catches it.
  std::string bytes = Slurp(*dir_ / "types_crc.parquet");
  auto probe = ParquetFileReader::Open(File("types_crc"));
  ASSERT_TRUE(probe.ok());
  const ColumnMetaData& meta = *(*probe)->metadata().row_groups[0].columns[0].meta_data;
  const int64_t start = meta.dictionary_page_offset.value_or(meta.data_page_offset);
  bytes[static_cast<size_t>(start + meta.total_compressed_size - 2)] ^= 0x10;
  auto reader =
      ParquetFileReader::Open(std::make_shared<io::MemoryFile>(bytes, "crc.parquet"), options);
  ASSERT_TRUE(reader.ok());
  auto batch = (*reader)->ReadRowGroup(0);
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().code(), StatusCode::kCorruption);
  EXPECT_NE(batch.status().message().find("checksum"), std::string::npos)
      << batch.status().message();
}

TEST_F(PyarrowReaderTest, EveryEncoding) { ReadAndCheck(Scenarios("enc_")); }

TEST_F(PyarrowReaderTest, NestedWithNullsAtEveryLevel) { ReadAndCheck(Scenarios("nested_")); }

TEST_F(PyarrowReaderTest, DuckDbWrittenFiles) {
  std::vector<std::string> names = Scenarios("duck_");
  if (names.empty()) GTEST_SKIP() << "duckdb not available in the peer venv";
  ReadAndCheck(names);
}

TEST_F(PyarrowReaderTest, ParallelReadAllOnAScheduler) {
  TaskScheduler scheduler(2);
  ReaderOptions options;
  options.scheduler = &scheduler;
  options.parallelism = 3;
  ReadAndCheck({"types_rowgroups", "nested_rowgroups"}, options);

  auto reader = ParquetFileReader::Open(File("types_rowgroups"), options);
  ASSERT_TRUE(reader.ok());
  ASSERT_GT((*reader)->num_row_groups(), 3);
  auto batches = (*reader)->ReadAll();
  ASSERT_TRUE(batches.ok());
  ReaderStats s = (*reader)->stats();
  EXPECT_EQ(s.row_groups_read, (*reader)->num_row_groups());
  EXPECT_EQ(s.row_groups_skipped, 0);
  // The footer read plus one coalesced request per row group.
  EXPECT_EQ(s.read_requests, 1 + (*reader)->num_row_groups());
  EXPECT_GT(s.pages_read, (*reader)->num_row_groups());
  EXPECT_GT(s.bytes_read, 0);
}

TEST_F(PyarrowReaderTest, ProjectionByNameAndFieldId) {
  ReaderOptions options;
  options.columns = {"s", "i32"};
  auto reader = ParquetFileReader::Open(File("types_snappy_v1"), options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->schema()->ToString(), "s varchar, i32 integer");
  auto batch = (*reader)->ReadRowGroup(0);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(batch->num_columns(), 2);
  EXPECT_EQ(batch->column(1).Value<int32_t>(1), -7919);

  options.columns = {"nope"};
  auto bad = ParquetFileReader::Open(File("types_snappy_v1"), options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("'nope'"), std::string::npos);
  EXPECT_NE(bad.status().message().find("i32, i64"), std::string::npos) << bad.status().message();

  // pyarrow stores no field ids unless asked; the nested file has none either, so ids
  // select nothing (Iceberg semantics: a column missing from the file).
  options.columns = {};
  options.field_ids = {42};
  auto by_id = ParquetFileReader::Open(File("types_snappy_v1"), options);
  ASSERT_TRUE(by_id.ok());
  EXPECT_EQ((*by_id)->schema()->num_fields(), 0);
}

TEST_F(PyarrowReaderTest, RowRangesWithPageIndexSkipPages) {
  auto reader = ParquetFileReader::Open(File("pageindex"));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_GE((*reader)->num_row_groups(), 2);
  RowRanges ranges = RowRanges::FromRanges({{10, 20}, {950, 1203}, {1999, 5000}});
  for (int rg = 0; rg < (*reader)->num_row_groups(); ++rg) {
    auto full = (*reader)->ReadRowGroup(rg);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    const ReaderStats before = (*reader)->stats();
    auto part = (*reader)->ReadRowGroup(rg, &ranges);
    ASSERT_TRUE(part.ok()) << part.status().ToString();
    const ReaderStats after = (*reader)->stats();
    RowRanges expected = ranges.Intersect(RowRanges::All(full->num_rows()));
    ASSERT_EQ(part->num_rows(), expected.row_count());
    EXPECT_GT(after.pages_skipped, before.pages_skipped);
    int64_t out_row = 0;
    for (const RowRange& r : expected.ranges()) {
      for (int64_t row = r.begin; row < r.end; ++row, ++out_row) {
        std::string want, got;
        ASSERT_TRUE(columnar::AppendJsonRowArray(*full, row, &want).ok());
        ASSERT_TRUE(columnar::AppendJsonRowArray(*part, out_row, &got).ok());
        ASSERT_EQ(got, want) << "row group " << rg << " row " << row;
      }
    }
  }
  // Without coalescing, a ranged read fetches only the selected pages.
  ReaderOptions exact;
  exact.coalesce_threshold = 0;
  auto precise = ParquetFileReader::Open(File("pageindex"), exact);
  ASSERT_TRUE(precise.ok());
  ASSERT_TRUE((*precise)->ReadRowGroup(0).ok());
  const int64_t full_bytes = (*precise)->stats().bytes_read;
  RowRanges few = RowRanges::FromRanges({{10, 20}});
  auto few_rows = (*precise)->ReadRowGroup(0, &few);
  ASSERT_TRUE(few_rows.ok()) << few_rows.status().ToString();
  EXPECT_EQ(few_rows->num_rows(), 10);
  const int64_t ranged_bytes = (*precise)->stats().bytes_read - full_bytes;
  EXPECT_LT(ranged_bytes * 4, full_bytes) << ranged_bytes << " of " << full_bytes;

  // Offset indexes read once by the caller (as page pruning does) are reused.
  auto indexes = (*precise)->ReadOffsetIndexes(0);
  ASSERT_TRUE(indexes.ok()) << indexes.status().ToString();
  ASSERT_TRUE((*indexes)[0].has_value());
  const int64_t requests = (*precise)->stats().read_requests;
  auto shared = (*precise)->ReadRowGroup(0, &few, *indexes);
  ASSERT_TRUE(shared.ok()) << shared.status().ToString();
  EXPECT_EQ(shared->num_rows(), 10);
  // Only page reads: no offset-index request this time (one request per selected page
  // run and column at most).
  const int64_t page_requests = (*precise)->stats().read_requests - requests;
  EXPECT_LE(page_requests, 2 * (*precise)->schema()->num_fields() + 2);

  // An empty selection reads nothing past the offset indexes.
  RowRanges none;
  auto empty = (*reader)->ReadRowGroup(0, &none);
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(empty->num_rows(), 0);
}

TEST_F(PyarrowReaderTest, RowGroupFilterSeamAndRowRangesProvider) {
  ReaderOptions options;
  options.row_group_filter = [](const ParquetFileReader&, int i) -> Result<bool> {
    return i % 2 == 0;
  };
  options.row_ranges_provider = [](const ParquetFileReader&,
                                   int) -> Result<std::optional<RowRanges>> {
    return std::optional<RowRanges>(RowRanges::FromRanges({{0, 5}}));
  };
  auto reader = ParquetFileReader::Open(File("types_rowgroups"), options);
  ASSERT_TRUE(reader.ok());
  auto groups = (*reader)->SelectRowGroups();
  ASSERT_TRUE(groups.ok());
  auto batches = (*reader)->ReadAll();
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), groups->size());
  for (const columnar::Batch& b : *batches) EXPECT_EQ(b.num_rows(), 5);
  ReaderStats s = (*reader)->stats();
  EXPECT_EQ(s.row_groups_skipped,
            (*reader)->num_row_groups() - static_cast<int64_t>(groups->size()));
}

TEST_F(PyarrowReaderTest, BuffersAreChargedToTheTracker) {
  auto tracker = MemoryTracker::Create(MemoryScope::kQuery, "q");
  ReaderOptions options;
  options.tracker = tracker;
  auto reader = ParquetFileReader::Open(File("nested_v2"), options);
  ASSERT_TRUE(reader.ok());
  {
    auto batch = (*reader)->ReadRowGroup(0);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_GT(tracker->current(), 0);
  }
  EXPECT_EQ(tracker->current(), 0);
  tracker->SetLimit(1024);
  auto limited = (*reader)->ReadRowGroup(0);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.status().code(), StatusCode::kResourceExhausted);
}

TEST_F(PyarrowReaderTest, MutatedFilesNeverCrash) {
  // Random byte edits anywhere in real files (pages, indexes, footer): every read must
  // return a Status; ASan/UBSan catch anything else.
  std::mt19937 rng(4242);
  const char* env = std::getenv("SQE_MUTATION_ITERATIONS");
  const int iterations = env ? std::atoi(env) : 150;
  for (const std::string name :
       {"types_snappy_v1", "nested_v2", "pageindex", "enc_DELTA_BYTE_ARRAY_v2"}) {
    const std::string original = Slurp(*dir_ / (name + ".parquet"));
    int failures = 0;
    for (int iter = 0; iter < iterations; ++iter) {
      std::string bytes = original;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        // Half of the edits land in the last 2 KiB, where the footer and indexes live.
        const size_t span = (rng() % 2) ? std::min<size_t>(2048, bytes.size()) : bytes.size();
        const size_t pos = bytes.size() - 1 - rng() % span;
        bytes[pos] = static_cast<char>(rng() % 3 == 0 ? rng() : bytes[pos] ^ (1 << (rng() % 8)));
      }
      auto reader =
          ParquetFileReader::Open(std::make_shared<io::MemoryFile>(std::move(bytes), name));
      if (!reader.ok()) {
        ++failures;
        continue;
      }
      auto all = (*reader)->ReadAll();
      failures += !all.ok();
      RowRanges some = RowRanges::FromRanges({{3, 40}, {1500, 1600}});
      if ((*reader)->num_row_groups() > 0) (void)(*reader)->ReadRowGroup(0, &some);
    }
    SUCCEED() << name << ": " << failures << " of " << iterations << " mutants rejected";
  }
}

TEST(ParquetFileReader, RejectsMalformedFiles) {
  auto open = [](std::string bytes) {
    return ParquetFileReader::Open(
        std::make_shared<io::MemoryFile>(std::move(bytes), "bad.parquet"));
  };
  auto tiny = open("PAR1");
  ASSERT_FALSE(tiny.ok());
  EXPECT_EQ(tiny.status().code(), StatusCode::kCorruption);
  EXPECT_NE(tiny.status().message().find("bad.parquet"), std::string::npos);
  auto no_magic = open(std::string(100, 'x'));
  EXPECT_EQ(no_magic.status().code(), StatusCode::kCorruption);
  std::string lying = "PAR1" + std::string(20, '\0');
  lying += std::string("\xff\xff\x00\x00", 4) + "PAR1";
  EXPECT_EQ(open(lying).status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace sqe::parquet
