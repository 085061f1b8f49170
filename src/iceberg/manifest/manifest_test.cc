#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "formats/avro/container_reader.h"
#include "iceberg/manifest/manifest_reader.h"
#include "iceberg/manifest/manifest_schema.h"
#include "iceberg/manifest/manifest_writer.h"
#include "iceberg/manifest/single_value.h"
#include "io/memory_file.h"

namespace sqe::iceberg {
namespace {

Schema TestSchema() {
  return Schema(3, {
                       {1, "id", true, Type::Primitive(TypeId::kLong)},
                       {2, "category", false, Type::Primitive(TypeId::kString)},
                       {3, "ts", false, Type::Primitive(TypeId::kTimestampTz)},
                       {4, "price", false, Type::Decimal(9, 2)},
                   });
}

PartitionSpec TestSpec() {
  return PartitionSpec(5, {
                              {2, {}, 1000, "category", Transform::Identity()},
                              {3, {}, 1001, "ts_day", Transform::Day()},
                              {1, {}, 1002, "id_bucket", Transform::Bucket(16)},
                          });
}

std::string Bound(const Literal& v, TypeId type) {
  return *EncodeSingleValue(v, *Type::Primitive(type));
}

DataFile TestFile(const std::string& path, std::optional<std::string> category, int32_t day,
                  int32_t bucket, int64_t rows) {
  DataFile f;
  f.file_path = path;
  f.file_format = FileFormat::kParquet;
  if (category) {
    f.partition.push_back(Literal::String(*category));
  } else {
    f.partition.push_back(std::nullopt);
  }
  f.partition.push_back(Literal::Date(day));
  f.partition.push_back(Literal::Int(bucket));
  f.record_count = rows;
  f.file_size_in_bytes = rows * 10 + 4;
  f.column_sizes = {{1, 100}, {2, 200}};
  f.value_counts = {{1, rows}, {2, rows}};
  f.null_value_counts = {{1, 0}, {2, category ? 0 : rows}};
  f.nan_value_counts = {{4, 0}};
  f.lower_bounds = {{1, Bound(Literal::Long(1), TypeId::kLong)},
                    {2, Bound(Literal::String("a"), TypeId::kString)}};
  f.upper_bounds = {{1, Bound(Literal::Long(rows), TypeId::kLong)},
                    {2, Bound(Literal::String("z"), TypeId::kString)}};
  f.split_offsets = {4, 1000};
  f.sort_order_id = 0;
  return f;
}

struct Written {
  std::string bytes;
  ManifestFile manifest;
};

Written WriteManifest(int version, const std::vector<ManifestEntry>& entries,
                      std::optional<int64_t> snapshot_id = 42,
                      ManifestContent content = ManifestContent::kData) {
  auto out = std::make_shared<io::MemoryOutputStream>("mem://m-" + std::to_string(version));
  ManifestWriterOptions options;
  options.format_version = version;
  options.spec = TestSpec();
  options.schema = TestSchema();
  options.snapshot_id = snapshot_id;
  options.content = content;
  auto writer = ManifestWriter::Open(out, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  for (const auto& e : entries) {
    Status st = (*writer)->Add(e);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  auto m = (*writer)->Close();
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->manifest_length, static_cast<int64_t>(out->data().size()));
  return {out->data(), *m};
}

std::string WriteList(int version, const std::vector<ManifestFile>& manifests,
                      int64_t sequence_number = 7, std::optional<int64_t> first_row_id = {}) {
  auto out = std::make_shared<io::MemoryOutputStream>("mem://list");
  ManifestListWriterOptions options;
  options.format_version = version;
  options.snapshot_id = 42;
  options.parent_snapshot_id = 41;
  options.sequence_number = sequence_number;
  options.first_row_id = first_row_id;
  auto writer = ManifestListWriter::Open(out, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  for (const auto& m : manifests) {
    Status st = (*writer)->Add(m);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  auto length = (*writer)->Close();
  EXPECT_TRUE(length.ok());
  return out->data();
}

std::shared_ptr<io::RandomAccessFile> File(std::string bytes) {
  return std::make_shared<io::MemoryFile>(std::move(bytes), "mem://file");
}

ManifestEntry Added(DataFile f) {
  ManifestEntry e;
  e.status = ManifestStatus::kAdded;
  e.data_file = std::move(f);
  return e;
}

class ManifestRoundTripTest : public ::testing::TestWithParam<int> {};

TEST_P(ManifestRoundTripTest, WriteListReadBack) {
  int version = GetParam();
  std::vector<ManifestEntry> entries = {
      Added(TestFile("s3://b/t/data/a.parquet", "books", 19000, 3, 10)),
      Added(TestFile("s3://b/t/data/b.parquet", std::nullopt, 19002, 15, 20)),
      Added(TestFile("s3://b/t/data/c.parquet", "art", 18999, 0, 30)),
  };
  entries[0].data_file.key_metadata = std::string("\x01\x02", 2);
  ManifestEntry existing;
  existing.status = ManifestStatus::kExisting;
  existing.snapshot_id = 40;
  existing.sequence_number = 3;
  existing.file_sequence_number = 4;
  existing.data_file = TestFile("s3://b/t/data/old.parquet", "music", 18000, 1, 5);
  ManifestEntry deleted = existing;
  deleted.status = ManifestStatus::kDeleted;
  deleted.data_file.file_path = "s3://b/t/data/gone.parquet";
  entries.push_back(existing);
  entries.push_back(deleted);
  if (version == 3) entries[1].data_file.first_row_id = 1000;

  Written w = WriteManifest(version, entries);
  const ManifestFile& m = w.manifest;
  EXPECT_EQ(m.added_files_count, 3);
  EXPECT_EQ(m.existing_files_count, 1);
  EXPECT_EQ(m.deleted_files_count, 1);
  EXPECT_EQ(m.added_rows_count, 60);
  EXPECT_EQ(m.existing_rows_count, 5);
  EXPECT_EQ(m.deleted_rows_count, 5);
  EXPECT_EQ(m.sequence_number, kUnassignedSequenceNumber);
  EXPECT_EQ(m.partition_spec_id, 5);
  EXPECT_EQ(m.added_snapshot_id, 42);
  ASSERT_EQ(m.partitions.size(), 3u);
  EXPECT_TRUE(m.partitions[0].contains_null);
  EXPECT_EQ(m.partitions[0].contains_nan, false);
  EXPECT_EQ(m.partitions[0].lower_bound, Bound(Literal::String("art"), TypeId::kString));
  EXPECT_EQ(m.partitions[0].upper_bound, Bound(Literal::String("music"), TypeId::kString));
  EXPECT_FALSE(m.partitions[1].contains_null);
  EXPECT_EQ(m.partitions[1].lower_bound, Bound(Literal::Date(18000), TypeId::kDate));
  EXPECT_EQ(m.partitions[1].upper_bound, Bound(Literal::Date(19002), TypeId::kDate));
  EXPECT_EQ(m.partitions[2].lower_bound, Bound(Literal::Int(0), TypeId::kInt));
  EXPECT_EQ(m.partitions[2].upper_bound, Bound(Literal::Int(15), TypeId::kInt));
  // v1 entries carry no sequence numbers; in v2+ only the EXISTING entry is live with one.
  EXPECT_EQ(m.min_sequence_number, version == 1 ? kUnassignedSequenceNumber : 3);

  ManifestFile listed = m;
  listed.manifest_path = "s3://b/t/metadata/m.avro";
  std::string list =
      WriteList(version, {listed}, 7, version == 3 ? std::optional<int64_t>(500) : std::nullopt);
  auto manifests = ReadManifestList(File(list));
  ASSERT_TRUE(manifests.ok()) << manifests.status().ToString();
  ASSERT_EQ(manifests->size(), 1u);
  const ManifestFile& read = (*manifests)[0];
  ManifestFile expected = listed;
  if (version == 1) {
    expected.sequence_number = 0;
    expected.min_sequence_number = 0;
  } else {
    expected.sequence_number = 7;
    expected.min_sequence_number = 3;
  }
  if (version == 3) expected.first_row_id = 500;
  EXPECT_EQ(read, expected);

  auto got = ReadManifest(File(w.bytes), read, TestSpec(), TestSchema());
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    ManifestEntry want = entries[i];
    if (!want.snapshot_id) want.snapshot_id = 42;
    if (version == 1) {
      want.sequence_number = 0;
      want.file_sequence_number = 0;
    } else if (want.status == ManifestStatus::kAdded) {
      want.sequence_number = 7;
      want.file_sequence_number = 7;
    }
    if (version == 3 && want.status != ManifestStatus::kDeleted && !want.data_file.first_row_id) {
      // Row ids go to live files without one, in file order: a (10 rows), c, old.
      want.data_file.first_row_id = i == 0 ? 500 : (i == 2 ? 510 : 540);
    }
    EXPECT_EQ((*got)[i], want) << "entry " << i;
  }

  auto meta = ReadManifestMetadata(File(w.bytes));
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  EXPECT_EQ(meta->format_version, version);
  ASSERT_TRUE(meta->spec.has_value());
  EXPECT_EQ(*meta->spec, TestSpec());
  ASSERT_TRUE(meta->schema.has_value());
  EXPECT_TRUE(meta->schema->Equals(TestSchema()));
}

INSTANTIATE_TEST_SUITE_P(Versions, ManifestRoundTripTest, ::testing::Values(1, 2, 3));

TEST(ManifestTest, WrittenSchemasCarryTheSpecFieldIds) {
  Written w = WriteManifest(2, {Added(TestFile("a", "x", 1, 1, 1))});
  auto reader = avro::ContainerReader::Open(w.bytes);
  ASSERT_TRUE(reader.ok());
  const avro::Node& root = (*reader)->writer_schema()->root();
  EXPECT_EQ(root.name, "manifest_entry");
  EXPECT_EQ(root.fields[root.FieldIndexById(3)].name, "sequence_number");
  const avro::Node& data_file = *root.fields[root.FieldIndexById(2)].type;
  EXPECT_EQ(data_file.name, "r2");
  EXPECT_EQ(data_file.fields[data_file.FieldIndexById(134)].name, "content");
  const avro::Node& partition = *data_file.fields[data_file.FieldIndexById(102)].type;
  EXPECT_EQ(partition.name, "r102");
  ASSERT_EQ(partition.fields.size(), 3u);
  EXPECT_EQ(partition.fields[1].name, "ts_day");
  EXPECT_EQ(partition.fields[1].field_id, 1001);
  EXPECT_EQ(*(*reader)->FindMetadata("format-version"), "2");
  EXPECT_EQ(*(*reader)->FindMetadata("content"), "data");
  EXPECT_EQ(*(*reader)->FindMetadata("partition-spec-id"), "5");
  EXPECT_EQ(*(*reader)->FindMetadata("schema-id"), "3");

  for (int v = 1; v <= 3; ++v) {
    auto list_schema = ManifestFileSchema(v);
    ASSERT_TRUE(list_schema.ok());
    const avro::Node& l = (*list_schema)->root();
    EXPECT_EQ(l.FieldIndexById(515) >= 0, v >= 2);
    EXPECT_EQ(l.FieldIndexById(520) >= 0, v == 3);
    EXPECT_GE(l.FieldIndexById(507), 0);
  }
}

TEST(ManifestTest, DeleteManifestsKeepDeleteFields) {
  DataFile pos = TestFile("s3://b/t/data/pos.parquet", "books", 19000, 3, 2);
  pos.content = FileContent::kPositionDeletes;
  pos.referenced_data_file = "s3://b/t/data/a.parquet";
  DataFile eq = TestFile("s3://b/t/data/eq.parquet", "books", 19000, 3, 2);
  eq.content = FileContent::kEqualityDeletes;
  eq.equality_ids = {1, 2};
  DataFile dv = TestFile("s3://b/t/data/dv.puffin", "books", 19000, 3, 2);
  dv.content = FileContent::kPositionDeletes;
  dv.file_format = FileFormat::kPuffin;
  dv.content_offset = 4;
  dv.content_size_in_bytes = 40;
  Written w = WriteManifest(3, {Added(pos), Added(eq), Added(dv)}, 42, ManifestContent::kDeletes);
  EXPECT_EQ(w.manifest.content, ManifestContent::kDeletes);
  ManifestFile m = w.manifest;
  m.sequence_number = 9;
  m.first_row_id = 100;  // ignored: delete manifests assign no row ids
  auto got = ReadManifest(File(w.bytes), m, TestSpec(), TestSchema());
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0].data_file, pos);
  EXPECT_EQ((*got)[1].data_file, eq);
  EXPECT_EQ((*got)[2].data_file, dv);
  EXPECT_EQ((*got)[2].sequence_number, 9);
  auto meta = ReadManifestMetadata(File(w.bytes));
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->content, ManifestContent::kDeletes);
}

TEST(ManifestTest, InheritanceOnlyFillsNulls) {
  ManifestFile m;
  m.added_snapshot_id = 9;
  m.sequence_number = 12;
  std::vector<ManifestEntry> entries(3);
  entries[0].status = ManifestStatus::kAdded;
  entries[1].status = ManifestStatus::kAdded;
  entries[1].snapshot_id = 5;
  entries[1].sequence_number = 4;
  entries[1].file_sequence_number = 6;
  entries[2].status = ManifestStatus::kExisting;  // never inherits in v2
  InheritManifestMetadata(m, &entries);
  EXPECT_EQ(entries[0].snapshot_id, 9);
  EXPECT_EQ(entries[0].sequence_number, 12);
  EXPECT_EQ(entries[0].file_sequence_number, 12);
  EXPECT_EQ(entries[1].snapshot_id, 5);
  EXPECT_EQ(entries[1].sequence_number, 4);
  EXPECT_EQ(entries[1].file_sequence_number, 6);
  EXPECT_EQ(entries[2].sequence_number, std::nullopt);
  // A v1 manifest (sequence number 0) gives every entry 0.
  m.sequence_number = 0;
  InheritManifestMetadata(m, &entries);
  EXPECT_EQ(entries[2].sequence_number, 0);
}

TEST(ManifestTest, SummariesTrackNaNAndSignedZero) {
  Schema schema(0, {{1, "x", false, Type::Primitive(TypeId::kDouble)}});
  PartitionSpec spec(0, {{1, {}, 1000, "x", Transform::Identity()}});
  auto out = std::make_shared<io::MemoryOutputStream>();
  ManifestWriterOptions options;
  options.spec = spec;
  options.schema = schema;
  options.snapshot_id = 1;
  auto writer = ManifestWriter::Open(out, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  for (double v : {0.0, -0.0, std::nan("")}) {
    DataFile f;
    f.file_path = "f";
    f.partition = {Literal::Double(v)};
    ASSERT_TRUE((*writer)->AddFile(f).ok());
  }
  auto m = (*writer)->Close();
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->partitions.size(), 1u);
  EXPECT_FALSE(m->partitions[0].contains_null);
  EXPECT_EQ(m->partitions[0].contains_nan, true);
  EXPECT_EQ(m->partitions[0].lower_bound, Bound(Literal::Double(-0.0), TypeId::kDouble));
  EXPECT_EQ(m->partitions[0].upper_bound, Bound(Literal::Double(0.0), TypeId::kDouble));
}

TEST(ManifestTest, UnpartitionedAndDecimalPartitions) {
  Schema schema = TestSchema();
  PartitionSpec spec(1, {{4, {}, 1000, "price", Transform::Identity()}});
  auto out = std::make_shared<io::MemoryOutputStream>();
  ManifestWriterOptions options;
  options.spec = spec;
  options.schema = schema;
  options.snapshot_id = 1;
  auto writer = ManifestWriter::Open(out, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  DataFile f;
  f.file_path = "f";
  f.partition = {Literal::Decimal(-1420, 2)};
  ASSERT_TRUE((*writer)->AddFile(f).ok());
  auto m = (*writer)->Close();
  ASSERT_TRUE(m.ok());
  m->sequence_number = 1;
  auto got = ReadManifest(File(out->data()), *m, spec, schema);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ((*got)[0].data_file.partition[0], Literal::Decimal(-1420, 2));

  auto out2 = std::make_shared<io::MemoryOutputStream>();
  options.spec = PartitionSpec(0, {});
  writer = ManifestWriter::Open(out2, options);
  ASSERT_TRUE(writer.ok());
  f.partition.clear();
  ASSERT_TRUE((*writer)->AddFile(f).ok());
  m = (*writer)->Close();
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->partitions.empty());
  got = ReadManifest(File(out2->data()), *m, PartitionSpec(0, {}), schema);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ((*got)[0].data_file.file_path, "f");
}

TEST(ManifestTest, WritersRefuseInvalidInput) {
  auto out = std::make_shared<io::MemoryOutputStream>();
  ManifestWriterOptions options;
  options.spec = TestSpec();
  options.schema = TestSchema();
  options.snapshot_id = 1;
  auto writer = ManifestWriter::Open(out, options);
  ASSERT_TRUE(writer.ok());
  DataFile f = TestFile("f", "x", 1, 1, 1);
  f.partition.pop_back();
  EXPECT_EQ((*writer)->AddFile(f).code(), StatusCode::kInvalidArgument);
  f = TestFile("f", "x", 1, 1, 1);
  f.content = FileContent::kEqualityDeletes;
  EXPECT_EQ((*writer)->AddFile(f).code(), StatusCode::kInvalidArgument);
  ManifestEntry existing = Added(TestFile("f", "x", 1, 1, 1));
  existing.status = ManifestStatus::kExisting;
  EXPECT_EQ((*writer)->Add(existing).code(), StatusCode::kInvalidArgument);
  f = TestFile("f", std::nullopt, 1, 1, 1);
  f.partition[0] = Literal::Int(3);  // not a string
  EXPECT_EQ((*writer)->AddFile(f).code(), StatusCode::kInvalidArgument);

  options.format_version = 1;
  options.content = ManifestContent::kDeletes;
  EXPECT_EQ(
      ManifestWriter::Open(std::make_shared<io::MemoryOutputStream>(), options).status().code(),
      StatusCode::kInvalidArgument);
  options.format_version = 4;
  options.content = ManifestContent::kData;
  EXPECT_EQ(
      ManifestWriter::Open(std::make_shared<io::MemoryOutputStream>(), options).status().code(),
      StatusCode::kInvalidArgument);

  auto list = ManifestListWriter::Open(std::make_shared<io::MemoryOutputStream>(), {});
  ASSERT_TRUE(list.ok());
  ManifestFile other;
  other.added_snapshot_id = 5;  // not the committing snapshot (0)
  other.sequence_number = kUnassignedSequenceNumber;
  other.added_files_count = other.existing_files_count = other.deleted_files_count = 0;
  other.added_rows_count = other.existing_rows_count = other.deleted_rows_count = 0;
  EXPECT_EQ((*list)->Add(other).code(), StatusCode::kInvalidArgument);
  other.added_rows_count.reset();
  other.sequence_number = 1;
  EXPECT_EQ((*list)->Add(other).code(), StatusCode::kInvalidArgument);
}

TEST(ManifestTest, CorruptInputsAreCorruption) {
  Written w = WriteManifest(2, {Added(TestFile("a", "x", 1, 1, 1))});
  ManifestFile m = w.manifest;
  m.sequence_number = 1;
  auto code = [&](std::string bytes) {
    return ReadManifest(File(std::move(bytes)), m, TestSpec(), TestSchema()).status().code();
  };
  EXPECT_EQ(code("not an avro file"), StatusCode::kCorruption);
  EXPECT_EQ(code(w.bytes.substr(0, w.bytes.size() - 7)), StatusCode::kCorruption);
  std::string flipped = w.bytes;
  flipped[flipped.size() - 3] ^= 0x5a;  // inside the trailing sync marker
  EXPECT_EQ(code(flipped), StatusCode::kCorruption);
  EXPECT_EQ(ReadManifestList(File("Obj\x01garbage")).status().code(), StatusCode::kCorruption);

  // A manifest list is no manifest, and the other way round.
  std::string list = WriteList(2, {[&] {
                                 ManifestFile x = w.manifest;
                                 x.added_snapshot_id = 42;
                                 return x;
                               }()});
  EXPECT_EQ(code(list), StatusCode::kCorruption);
  EXPECT_EQ(ReadManifestList(File(w.bytes)).status().code(), StatusCode::kCorruption);

  // Partition values that do not fit the spec the caller says the manifest uses.
  PartitionSpec wrong(5, {{1, {}, 1000, "category", Transform::Identity()},
                          {3, {}, 1001, "ts_day", Transform::Day()},
                          {1, {}, 1002, "id_bucket", Transform::Bucket(16)}});
  EXPECT_EQ(ReadManifest(File(w.bytes), m, wrong, TestSchema()).status().code(),
            StatusCode::kCorruption);
}

}  // namespace
}  // namespace sqe::iceberg
