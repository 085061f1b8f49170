// sqe-manifest: write sample Iceberg manifests and print manifests as JSON lines (interop
// tests against fastavro and PyIceberg, debugging).
//
//   sqe-manifest write-sample OUT_DIR     for v1, v2 and v3: OUT_DIR/v<N>/data-manifest.avro,
//                                         (v2+) delete-manifest.avro and manifest-list.avro
//   sqe-manifest cat-list FILE            one JSON object per manifest_file
//   sqe-manifest cat-manifest FILE [--list LIST]
//                                         one JSON object per manifest_entry; the spec and
//                                         schema come from the manifest's metadata; with
//                                         --list, inheritance from its entry in LIST
//
// JSON form: bytes (bounds, key metadata) as lowercase hex, partition values by partition
// field name (dates as days, timestamps as micros, decimals as strings, binary as hex).
// Exit codes: 0 success, 1 failure (the error names the file), 2 bad usage.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "common/hex.h"
#include "iceberg/manifest/manifest_reader.h"
#include "iceberg/manifest/manifest_writer.h"
#include "iceberg/manifest/single_value.h"
#include "io/local_file.h"

namespace {

using namespace sqe;
using namespace sqe::iceberg;
using Json = nlohmann::ordered_json;

int Fail(const Status& st) {
  std::cerr << "sqe-manifest: " << st.ToString() << "\n";
  return 1;
}

Json OptionalJson(const std::optional<int64_t>& v) { return v ? Json(*v) : Json(nullptr); }
Json OptionalHex(const std::optional<std::string>& v) {
  return v ? Json(HexLower(*v)) : Json(nullptr);
}

Json LiteralJson(const std::optional<Literal>& v) {
  if (!v || v->is_null()) return nullptr;
  switch (v->type()) {
    case TypeId::kBoolean:
      return v->bool_value();
    case TypeId::kFloat:
    case TypeId::kDouble:
      return v->double_value();
    case TypeId::kString:
      return v->bytes();
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid:
      return HexLower(v->bytes());
    case TypeId::kDecimal:
      return v->ToString();
    default:
      return v->int_value();
  }
}

template <typename V>
Json MapJson(const std::map<int32_t, V>& map) {
  if (map.empty()) return nullptr;
  Json out = Json::object();
  for (const auto& [k, v] : map) {
    if constexpr (std::is_same_v<V, std::string>) {
      out[std::to_string(k)] = HexLower(v);
    } else {
      out[std::to_string(k)] = v;
    }
  }
  return out;
}

Json ManifestJson(const ManifestFile& m) {
  Json partitions = nullptr;
  if (!m.partitions.empty()) {
    partitions = Json::array();
    for (const auto& s : m.partitions) {
      partitions.push_back({{"contains_null", s.contains_null},
                            {"contains_nan", s.contains_nan ? Json(*s.contains_nan) : Json()},
                            {"lower_bound", OptionalHex(s.lower_bound)},
                            {"upper_bound", OptionalHex(s.upper_bound)}});
    }
  }
  auto opt_int = [](const std::optional<int32_t>& v) { return v ? Json(*v) : Json(nullptr); };
  return {{"manifest_path", m.manifest_path},
          {"manifest_length", m.manifest_length},
          {"partition_spec_id", m.partition_spec_id},
          {"content", static_cast<int>(m.content)},
          {"sequence_number", m.sequence_number},
          {"min_sequence_number", m.min_sequence_number},
          {"added_snapshot_id", m.added_snapshot_id},
          {"added_files_count", opt_int(m.added_files_count)},
          {"existing_files_count", opt_int(m.existing_files_count)},
          {"deleted_files_count", opt_int(m.deleted_files_count)},
          {"added_rows_count", OptionalJson(m.added_rows_count)},
          {"existing_rows_count", OptionalJson(m.existing_rows_count)},
          {"deleted_rows_count", OptionalJson(m.deleted_rows_count)},
          {"partitions", partitions},
          {"key_metadata", OptionalHex(m.key_metadata)},
          {"first_row_id", OptionalJson(m.first_row_id)}};
}

Json EntryJson(const ManifestEntry& e, const PartitionSpec& spec) {
  const DataFile& f = e.data_file;
  Json partition = Json::object();
  for (size_t i = 0; i < f.partition.size() && i < spec.fields().size(); ++i) {
    partition[spec.fields()[i].name] = LiteralJson(f.partition[i]);
  }
  Json split_offsets = f.split_offsets.empty() ? Json(nullptr) : Json(f.split_offsets);
  Json equality_ids = f.equality_ids.empty() ? Json(nullptr) : Json(f.equality_ids);
  Json data_file = {
      {"content", static_cast<int>(f.content)},
      {"file_path", f.file_path},
      {"file_format", std::string(FileFormatName(f.file_format))},
      {"partition", partition},
      {"record_count", f.record_count},
      {"file_size_in_bytes", f.file_size_in_bytes},
      {"column_sizes", MapJson(f.column_sizes)},
      {"value_counts", MapJson(f.value_counts)},
      {"null_value_counts", MapJson(f.null_value_counts)},
      {"nan_value_counts", MapJson(f.nan_value_counts)},
      {"lower_bounds", MapJson(f.lower_bounds)},
      {"upper_bounds", MapJson(f.upper_bounds)},
      {"key_metadata", OptionalHex(f.key_metadata)},
      {"split_offsets", split_offsets},
      {"equality_ids", equality_ids},
      {"sort_order_id", f.sort_order_id ? Json(*f.sort_order_id) : Json()},
      {"first_row_id", OptionalJson(f.first_row_id)},
      {"referenced_data_file", f.referenced_data_file ? Json(*f.referenced_data_file) : Json()},
      {"content_offset", OptionalJson(f.content_offset)},
      {"content_size_in_bytes", OptionalJson(f.content_size_in_bytes)}};
  return {{"status", static_cast<int>(e.status)},
          {"snapshot_id", OptionalJson(e.snapshot_id)},
          {"sequence_number", OptionalJson(e.sequence_number)},
          {"file_sequence_number", OptionalJson(e.file_sequence_number)},
          {"data_file", data_file}};
}

Result<std::shared_ptr<io::RandomAccessFile>> Open(const std::string& path) {
  SQE_ASSIGN_OR_RETURN(auto file, io::OpenLocalFile(path));
  return std::shared_ptr<io::RandomAccessFile>(std::move(file));
}

Status CatList(const std::string& path) {
  SQE_ASSIGN_OR_RETURN(auto file, Open(path));
  SQE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(file));
  for (const auto& m : manifests) std::cout << ManifestJson(m).dump() << "\n";
  return Status::OK();
}

Status CatManifest(const std::string& path, const std::string& list_path) {
  SQE_ASSIGN_OR_RETURN(auto file, Open(path));
  SQE_ASSIGN_OR_RETURN(ManifestMetadata meta, ReadManifestMetadata(file));
  if (!meta.spec || !meta.schema) {
    return Status::InvalidArgument("manifest '" + path +
                                   "' lacks the schema or partition-spec metadata");
  }
  std::vector<ManifestEntry> entries;
  if (list_path.empty()) {
    SQE_ASSIGN_OR_RETURN(entries, ReadManifestEntries(file, *meta.spec, *meta.schema));
  } else {
    SQE_ASSIGN_OR_RETURN(auto list_file, Open(list_path));
    SQE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(list_file));
    const ManifestFile* found = nullptr;
    std::string name = std::filesystem::path(path).filename().string();
    for (const auto& m : manifests) {
      if (m.manifest_path == path || std::filesystem::path(m.manifest_path).filename() == name) {
        found = &m;
      }
    }
    if (found == nullptr) {
      return Status::NotFound("manifest '" + path + "' is not listed in '" + list_path + "'");
    }
    SQE_ASSIGN_OR_RETURN(entries, ReadManifest(file, *found, *meta.spec, *meta.schema));
  }
  for (const auto& e : entries) std::cout << EntryJson(e, *meta.spec).dump() << "\n";
  return Status::OK();
}

// The sample table: id long, category string, ts timestamptz, price decimal(9,2),
// partitioned by identity(category), day(ts), bucket[16](id).
Schema SampleSchema() {
  return Schema(0, {{1, "id", true, Type::Primitive(TypeId::kLong)},
                    {2, "category", false, Type::Primitive(TypeId::kString)},
                    {3, "ts", false, Type::Primitive(TypeId::kTimestampTz)},
                    {4, "price", false, Type::Decimal(9, 2)}});
}

PartitionSpec SampleSpec() {
  return PartitionSpec(0, {{2, {}, 1000, "category", Transform::Identity()},
                           {3, {}, 1001, "ts_day", Transform::Day()},
                           {1, {}, 1002, "id_bucket", Transform::Bucket(16)}});
}

Result<DataFile> SampleFile(const std::string& path, std::optional<std::string> category,
                            int64_t ts_micros, int64_t first_id, int64_t rows) {
  DataFile f;
  f.file_path = path;
  f.partition.push_back(category ? std::optional<Literal>(Literal::String(*category))
                                 : std::nullopt);
  SQE_ASSIGN_OR_RETURN(Literal day, Transform::Day().Apply(Literal::TimestampTz(ts_micros)));
  f.partition.push_back(day);
  SQE_ASSIGN_OR_RETURN(Literal bucket, Transform::Bucket(16).Apply(Literal::Long(first_id)));
  f.partition.push_back(bucket);
  f.record_count = rows;
  f.file_size_in_bytes = 1000 + rows;
  f.column_sizes = {{1, 8 * rows}, {2, 5 * rows}};
  f.value_counts = {{1, rows}, {2, rows}};
  f.null_value_counts = {{1, 0}, {2, category ? 0 : rows}};
  f.nan_value_counts = {};
  auto type_of = [](int32_t id) { return SampleSchema().FindFieldById(id)->type; };
  SQE_ASSIGN_OR_RETURN(f.lower_bounds[1], EncodeSingleValue(Literal::Long(first_id), *type_of(1)));
  SQE_ASSIGN_OR_RETURN(f.upper_bounds[1],
                       EncodeSingleValue(Literal::Long(first_id + rows - 1), *type_of(1)));
  if (category) {
    SQE_ASSIGN_OR_RETURN(f.lower_bounds[2],
                         EncodeSingleValue(Literal::String(*category), *type_of(2)));
    SQE_ASSIGN_OR_RETURN(f.upper_bounds[2],
                         EncodeSingleValue(Literal::String(*category), *type_of(2)));
  }
  SQE_ASSIGN_OR_RETURN(f.lower_bounds[3],
                       EncodeSingleValue(Literal::TimestampTz(ts_micros), *type_of(3)));
  SQE_ASSIGN_OR_RETURN(f.lower_bounds[4],
                       EncodeSingleValue(Literal::Decimal(-1050, 2), *type_of(4)));
  f.split_offsets = {4};
  f.sort_order_id = 0;
  return f;
}

Result<std::shared_ptr<io::OutputStream>> Create(const std::string& path) {
  SQE_ASSIGN_OR_RETURN(auto out, io::CreateLocalFile(path));
  return std::shared_ptr<io::OutputStream>(std::move(out));
}

Status WriteSampleVersion(const std::string& dir, int version) {
  constexpr int64_t kSnapshotId = 3051729675574597004;
  constexpr int64_t kParentId = 3051729675574597003;
  ManifestWriterOptions options;
  options.format_version = version;
  options.spec = SampleSpec();
  options.schema = SampleSchema();
  options.snapshot_id = kSnapshotId;
  SQE_ASSIGN_OR_RETURN(auto data_out, Create(dir + "/data-manifest.avro"));
  SQE_ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(data_out, options));
  const int64_t ts = 1700000000000000;  // 2023-11-14T22:13:20Z
  SQE_ASSIGN_OR_RETURN(DataFile a, SampleFile(dir + "/data/a.parquet", "books", ts, 1, 100));
  a.key_metadata = std::string("\x0a\x0b", 2);
  SQE_ASSIGN_OR_RETURN(DataFile b, SampleFile(dir + "/data/b.parquet", std::nullopt,
                                              ts + int64_t{86400} * 1000000, 101, 50));
  SQE_ASSIGN_OR_RETURN(DataFile c, SampleFile(dir + "/data/c.parquet", "art",
                                              ts - int64_t{86400} * 1000000 * 3, 151, 25));
  SQE_RETURN_NOT_OK(writer->AddFile(a));
  SQE_RETURN_NOT_OK(writer->AddFile(b));
  SQE_RETURN_NOT_OK(writer->AddExisting(c, kParentId, 1, 1));
  SQE_ASSIGN_OR_RETURN(ManifestFile data_manifest, writer->Close());
  std::vector<ManifestFile> manifests = {data_manifest};

  if (version >= 2) {
    options.content = ManifestContent::kDeletes;
    SQE_ASSIGN_OR_RETURN(auto delete_out, Create(dir + "/delete-manifest.avro"));
    SQE_ASSIGN_OR_RETURN(auto deletes, ManifestWriter::Open(delete_out, options));
    SQE_ASSIGN_OR_RETURN(DataFile eq,
                         SampleFile(dir + "/data/eq-deletes.parquet", "books", ts, 1, 3));
    eq.content = FileContent::kEqualityDeletes;
    eq.equality_ids = {1};
    eq.sort_order_id.reset();
    SQE_ASSIGN_OR_RETURN(DataFile pos,
                         SampleFile(dir + "/data/pos-deletes.parquet", "books", ts, 1, 2));
    pos.content = FileContent::kPositionDeletes;
    pos.referenced_data_file = a.file_path;
    pos.sort_order_id.reset();
    SQE_RETURN_NOT_OK(deletes->AddFile(eq));
    SQE_RETURN_NOT_OK(deletes->AddFile(pos));
    if (version >= 3) {
      SQE_ASSIGN_OR_RETURN(DataFile dv, SampleFile(dir + "/data/dv.puffin", "books", ts, 1, 7));
      dv.content = FileContent::kPositionDeletes;
      dv.file_format = FileFormat::kPuffin;
      dv.referenced_data_file = a.file_path;
      dv.content_offset = 4;
      dv.content_size_in_bytes = 42;
      dv.sort_order_id.reset();
      dv.split_offsets.clear();
      SQE_RETURN_NOT_OK(deletes->AddFile(dv));
    }
    SQE_ASSIGN_OR_RETURN(ManifestFile delete_manifest, deletes->Close());
    manifests.push_back(delete_manifest);
  }

  ManifestListWriterOptions list_options;
  list_options.format_version = version;
  list_options.snapshot_id = kSnapshotId;
  list_options.parent_snapshot_id = kParentId;
  list_options.sequence_number = 2;
  if (version >= 3) list_options.first_row_id = 1000;
  SQE_ASSIGN_OR_RETURN(auto list_out, Create(dir + "/manifest-list.avro"));
  SQE_ASSIGN_OR_RETURN(auto list, ManifestListWriter::Open(list_out, list_options));
  for (const auto& m : manifests) {
    SQE_RETURN_NOT_OK(list->Add(m));
  }
  return list->Close().status();
}

Status WriteSample(const std::string& out_dir) {
  for (int version = 1; version <= 3; ++version) {
    std::string dir = std::filesystem::absolute(out_dir).string() + "/v" + std::to_string(version);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IOError("cannot create '" + dir + "': " + ec.message());
    SQE_RETURN_NOT_OK(WriteSampleVersion(dir, version));
  }
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sqe-manifest: Iceberg manifests and manifest lists as JSON lines"};
  app.require_subcommand(1);
  std::string path;
  std::string list_path;
  auto* sample = app.add_subcommand("write-sample", "write sample manifests for v1, v2 and v3");
  sample->add_option("OUT_DIR", path, "directory to write into")->required();
  auto* cat_list = app.add_subcommand("cat-list", "print a manifest list as JSON lines");
  cat_list->add_option("FILE", path, "manifest list")->required();
  auto* cat_manifest = app.add_subcommand("cat-manifest", "print a manifest as JSON lines");
  cat_manifest->add_option("FILE", path, "manifest")->required();
  cat_manifest->add_option("--list", list_path, "manifest list to inherit metadata from");
  CLI11_PARSE(app, argc, argv);

  Status st;
  if (*sample) st = WriteSample(path);
  if (*cat_list) st = CatList(path);
  if (*cat_manifest) st = CatManifest(path, list_path);
  return st.ok() ? 0 : Fail(st);
}
