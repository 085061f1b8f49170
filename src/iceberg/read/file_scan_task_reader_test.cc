#include "iceberg/read/file_scan_task_reader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "formats/parquet/file_writer.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/expr/expression.h"
#include "iceberg/write/data_file_writer.h"

namespace sqe::iceberg {
namespace {

namespace fs = std::filesystem;

columnar::Column Ints(const std::vector<int32_t>& v) {
  columnar::Int32Builder b(columnar::Int32());
  for (int32_t x : v) EXPECT_TRUE(b.Append(x).ok());
  return *b.Finish();
}
columnar::Column Longs(const std::vector<int64_t>& v) {
  columnar::Int64Builder b(columnar::Int64());
  for (int64_t x : v) EXPECT_TRUE(b.Append(x).ok());
  return *b.Finish();
}
columnar::Column Strings(const std::vector<std::string>& v) {
  columnar::BinaryBuilder b(columnar::String());
  for (const auto& x : v) EXPECT_TRUE(b.Append(x).ok());
  return *b.Finish();
}

class FileScanTaskReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_task_reader_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs_ = io::MakeLocalFileSystem();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A data file of schema {1: id int, 2: name string} with ids 0..n-1, in row groups of
  // `group_rows` rows.
  DataFile WriteData(int n, int64_t group_rows) {
    Schema schema(0, {NestedField{1, "id", false, Type::Primitive(TypeId::kInt)},
                      NestedField{2, "name", false, Type::Primitive(TypeId::kString)}});
    std::string path = (dir_ / "data.parquet").string();
    auto columnar_schema = *ToColumnarSchema(schema);
    parquet::WriterOptions wo;
    wo.row_group_rows = group_rows;
    auto out = fs_->OpenForWrite(path, false).value();
    auto w = parquet::ParquetWriter::Open(std::move(out), columnar_schema, wo).value();
    std::vector<int32_t> ids;
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) {
      ids.push_back(i);
      names.push_back("n" + std::to_string(i));
    }
    auto batch = *columnar::Batch::Make(columnar_schema, {Ints(ids), Strings(names)});
    EXPECT_TRUE(w->Write(batch).ok());
    auto metrics = *w->Close();
    DataFile f;
    f.file_path = path;
    f.record_count = n;
    f.file_size_in_bytes = static_cast<int64_t>(fs::file_size(path));
    f.split_offsets = metrics.split_offsets;
    return f;
  }

  DataFile WritePositionDeletes(const std::string& name,
                                const std::vector<std::pair<std::string, int64_t>>& rows) {
    auto schema = columnar::Schema::Make(
        {columnar::Field("file_path", columnar::String(), false, kDeleteFilePathFieldId),
         columnar::Field("pos", columnar::Int64(), false, kDeletePosFieldId)});
    std::string path = (dir_ / name).string();
    auto w = parquet::ParquetWriter::Open(fs_->OpenForWrite(path, false).value(), schema).value();
    std::vector<std::string> paths;
    std::vector<int64_t> pos;
    for (const auto& [p, r] : rows) {
      paths.push_back(p);
      pos.push_back(r);
    }
    EXPECT_TRUE(w->Write(*columnar::Batch::Make(schema, {Strings(paths), Longs(pos)})).ok());
    EXPECT_TRUE(w->Close().ok());
    DataFile d;
    d.content = FileContent::kPositionDeletes;
    d.file_path = path;
    d.record_count = static_cast<int64_t>(rows.size());
    d.file_size_in_bytes = static_cast<int64_t>(fs::file_size(path));
    return d;
  }

  DataFile WriteEqualityDeletes(const std::string& name, const std::vector<int32_t>& ids) {
    auto schema = columnar::Schema::Make({columnar::Field("id", columnar::Int32(), false, 1)});
    std::string path = (dir_ / name).string();
    auto w = parquet::ParquetWriter::Open(fs_->OpenForWrite(path, false).value(), schema).value();
    EXPECT_TRUE(w->Write(*columnar::Batch::Make(schema, {Ints(ids)})).ok());
    EXPECT_TRUE(w->Close().ok());
    DataFile d;
    d.content = FileContent::kEqualityDeletes;
    d.file_path = path;
    d.equality_ids = {1};
    d.record_count = static_cast<int64_t>(ids.size());
    d.file_size_in_bytes = static_cast<int64_t>(fs::file_size(path));
    return d;
  }

  // Every row of the task as "id|name|..." strings (JSON-free, via literals).
  std::vector<std::string> ReadAll(const FileScanTask& task, const Schema& schema,
                                   TaskReadStats* stats = nullptr) {
    TaskReaderOptions o;
    o.schema = std::make_shared<const Schema>(schema);
    o.batch_size = 7;  // several batches per row group
    DeleteLoader loader(*fs_);
    auto reader = FileScanTaskReader::Open(*fs_, task, o, loader);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    std::vector<std::string> rows;
    if (!reader.ok()) return rows;
    while (true) {
      auto batch = (*reader)->Next();
      EXPECT_TRUE(batch.ok()) << batch.status().ToString();
      if (!batch.ok() || !*batch) break;
      EXPECT_LE((*batch)->num_rows(), 7);
      for (int64_t r = 0; r < (*batch)->num_rows(); ++r) {
        std::string row;
        for (int c = 0; c < (*batch)->num_columns(); ++c) {
          auto v = LiteralAt((*batch)->column(c), r, *schema.fields()[c].type);
          row += (c ? "|" : "") + v->ToString();
        }
        rows.push_back(row);
      }
    }
    if (stats) *stats = (*reader)->stats();
    return rows;
  }

  Schema TableSchema() const {
    return Schema(0, {NestedField{1, "id", false, Type::Primitive(TypeId::kInt)},
                      NestedField{2, "name", false, Type::Primitive(TypeId::kString)}});
  }

  fs::path dir_;
  std::unique_ptr<io::FileSystem> fs_;
};

FileScanTask WholeFile(const DataFile& f) {
  FileScanTask t;
  t.file = f;
  t.start = 0;
  t.length = f.file_size_in_bytes;
  t.residual = expr::True();
  return t;
}

TEST_F(FileScanTaskReaderTest, ReadsEveryRowInBoundedBatches) {
  DataFile f = WriteData(20, 8);
  auto rows = ReadAll(WholeFile(f), TableSchema());
  ASSERT_EQ(rows.size(), 20u);
  EXPECT_EQ(rows[0], "0|\"n0\"");
  EXPECT_EQ(rows[19], "19|\"n19\"");
}

TEST_F(FileScanTaskReaderTest, PositionDeletesApplyToTheirDataFileOnly) {
  DataFile f = WriteData(20, 8);
  FileScanTask t = WholeFile(f);
  t.deletes.push_back(WritePositionDeletes(
      "pos.parquet",
      {{"/other/file.parquet", 1}, {f.file_path, 0}, {f.file_path, 9}, {f.file_path, 19}}));
  t.deletes.push_back(WritePositionDeletes("pos2.parquet", {{f.file_path, 9}, {f.file_path, 10}}));
  TaskReadStats stats;
  auto rows = ReadAll(t, TableSchema(), &stats);
  ASSERT_EQ(rows.size(), 16u);
  EXPECT_EQ(rows[0], "1|\"n1\"");
  EXPECT_EQ(stats.rows_deleted_by_position, 4);
  for (const auto& r : rows) {
    EXPECT_NE(r.rfind("9|", 0), 0u);
    EXPECT_NE(r.rfind("10|", 0), 0u);
    EXPECT_NE(r.rfind("19|", 0), 0u);
  }
}

TEST_F(FileScanTaskReaderTest, EqualityDeletesDropMatchingKeys) {
  DataFile f = WriteData(10, 100);
  FileScanTask t = WholeFile(f);
  t.deletes.push_back(WriteEqualityDeletes("eq.parquet", {3, 5, 42}));
  // The key column need not be projected: read with only `name`.
  TaskReaderOptions o;
  o.schema = std::make_shared<const Schema>(TableSchema());
  o.projected_ids = {2};
  DeleteLoader loader(*fs_);
  auto reader = FileScanTaskReader::Open(*fs_, t, o, loader).value();
  ASSERT_EQ(reader->schema()->num_fields(), 1);
  int64_t n = 0;
  while (auto b = *reader->Next()) {
    for (int64_t r = 0; r < b->num_rows(); ++r) {
      EXPECT_NE(b->column(0).StringAt(r), "n3");
      EXPECT_NE(b->column(0).StringAt(r), "n5");
    }
    n += b->num_rows();
  }
  EXPECT_EQ(n, 8);
  EXPECT_EQ(reader->stats().rows_deleted_by_equality, 2);
}

TEST_F(FileScanTaskReaderTest, SchemaEvolutionByFieldId) {
  DataFile f = WriteData(3, 100);
  // id promoted int -> long, name renamed, a column added (null) and one with a default.
  NestedField added_default{4, "flag", false, Type::Primitive(TypeId::kLong)};
  added_default.initial_default_json = "7";
  Schema evolved(1,
                 {NestedField{1, "id", false, Type::Primitive(TypeId::kLong)},
                  NestedField{2, "label", false, Type::Primitive(TypeId::kString)},
                  NestedField{3, "extra", false, Type::Primitive(TypeId::kDouble)}, added_default});
  auto rows = ReadAll(WholeFile(f), evolved);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2], "2|\"n2\"|null|7");
}

TEST_F(FileScanTaskReaderTest, ResidualFilterIsExact) {
  DataFile f = WriteData(20, 8);
  FileScanTask t = WholeFile(f);
  t.residual = *expr::Bind(expr::And(expr::Compare(expr::Op::kGtEq, "id", Literal::Long(5)),
                                     expr::Compare(expr::Op::kLt, "id", Literal::Long(8))),
                           TableSchema());
  TaskReaderOptions o;
  o.schema = std::make_shared<const Schema>(TableSchema());
  o.projected_ids = {2};  // the filter column is read and dropped
  DeleteLoader loader(*fs_);
  auto reader = FileScanTaskReader::Open(*fs_, t, o, loader).value();
  std::vector<std::string> names;
  while (auto b = *reader->Next()) {
    ASSERT_EQ(b->num_columns(), 1);
    for (int64_t r = 0; r < b->num_rows(); ++r) names.emplace_back(b->column(0).StringAt(r));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"n5", "n6", "n7"}));
}

TEST_F(FileScanTaskReaderTest, ByteRangesSelectRowGroupsAndKeepPositions) {
  DataFile f = WriteData(20, 8);  // row groups of 8, 8, 4 rows
  ASSERT_EQ(f.split_offsets.size(), 3u);
  DataFile pos = WritePositionDeletes("pos.parquet", {{f.file_path, 8}, {f.file_path, 17}});
  std::vector<std::string> all;
  for (const auto& [start, length] : SplitFile(f.file_size_in_bytes, f.split_offsets, 1)) {
    FileScanTask t = WholeFile(f);
    t.start = start;
    t.length = length;
    t.deletes = {pos};
    auto rows = ReadAll(t, TableSchema());
    EXPECT_LE(rows.size(), 8u);
    all.insert(all.end(), rows.begin(), rows.end());
  }
  ASSERT_EQ(all.size(), 18u);  // each row once, 8 and 17 deleted
  EXPECT_EQ(all[8], "9|\"n9\"");
  EXPECT_EQ(all[15], "16|\"n16\"");
  EXPECT_EQ(all[16], "18|\"n18\"");
}

TEST_F(FileScanTaskReaderTest, DeletionVectorFromAPuffinFile) {
  DataFile f = WriteData(20, 8);
  // Puffin magic, then the deletion-vector-v1 blob of positions {1, 5, 19} (pyroaring).
  const std::string hex =
      "00000026d1d339640100000000000000000000003a300000010000000000020010000000010005001300636d"
      "b732";
  std::string bytes = "PFA1";
  for (size_t i = 0; i < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  std::string path = (dir_ / "dv.puffin").string();
  {
    auto out = fs_->OpenForWrite(path, false).value();
    ASSERT_TRUE(out->Write(bytes).ok());
    ASSERT_TRUE(out->Close().ok());
  }
  DataFile dv;
  dv.content = FileContent::kPositionDeletes;
  dv.file_format = FileFormat::kPuffin;
  dv.file_path = path;
  dv.file_size_in_bytes = static_cast<int64_t>(bytes.size());
  dv.referenced_data_file = f.file_path;
  dv.content_offset = 4;
  dv.content_size_in_bytes = static_cast<int64_t>(bytes.size()) - 4;
  FileScanTask t = WholeFile(f);
  t.deletes = {dv};
  TaskReadStats stats;
  auto rows = ReadAll(t, TableSchema(), &stats);
  ASSERT_EQ(rows.size(), 17u);
  EXPECT_EQ(rows[1], "2|\"n2\"");
  EXPECT_EQ(stats.rows_deleted_by_position, 3);
  // A vector for another data file is refused.
  t.deletes[0].referenced_data_file = "/elsewhere.parquet";
  TaskReaderOptions o;
  o.schema = std::make_shared<const Schema>(TableSchema());
  DeleteLoader loader(*fs_);
  EXPECT_EQ(FileScanTaskReader::Open(*fs_, t, o, loader).status().code(), StatusCode::kCorruption);
}

TEST_F(FileScanTaskReaderTest, CorruptPositionDeleteFileIsAnError) {
  DataFile f = WriteData(5, 100);
  FileScanTask t = WholeFile(f);
  DataFile bad = WriteEqualityDeletes("not_pos.parquet", {1});
  bad.content = FileContent::kPositionDeletes;
  t.deletes = {bad};
  TaskReaderOptions o;
  o.schema = std::make_shared<const Schema>(TableSchema());
  DeleteLoader loader(*fs_);
  auto reader = FileScanTaskReader::Open(*fs_, t, o, loader);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace sqe::iceberg
