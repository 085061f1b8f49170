#include "iceberg/manifest/manifest_reader.h"

#include <charconv>
#include <cstdint>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "formats/avro/container_reader.h"
#include "iceberg/manifest/manifest_schema.h"

namespace sqe::iceberg {
namespace {

using avro::Node;
using avro::Value;
using K = Value::Kind;

// Type mismatches found while resolving a file against the read schema mean the file
// does not follow the spec: Corruption, like every other malformed input.
Status AsCorruption(const Status& st, const std::string& path) {
  if (st.ok() || st.code() == StatusCode::kCorruption || st.code() == StatusCode::kIOError ||
      st.code() == StatusCode::kNotFound) {
    return st;
  }
  return Status::Corruption("'" + path + "': " + st.message());
}

Result<std::unique_ptr<avro::ContainerReader>> OpenAs(std::shared_ptr<io::RandomAccessFile> file,
                                                      avro::SchemaPtr schema) {
  std::string path = file->path();
  avro::ContainerReaderOptions options;
  options.reader_schema = std::move(schema);
  auto reader = avro::ContainerReader::Open(std::move(file), options);
  if (!reader.ok()) return AsCorruption(reader.status(), path);
  return reader;
}

// The value of the field with `id` in a record read with the read schema (which always
// has it).
const Value& Get(const Node& record, const Value& value, int32_t id) {
  static const Value kNull;
  int i = record.FieldIndexById(id);
  if (i < 0 || static_cast<size_t>(i) >= value.children().size()) return kNull;
  return value.field(static_cast<size_t>(i));
}
const Node& TypeOf(const Node& record, int32_t id) {
  const Node* t = record.fields[static_cast<size_t>(record.FieldIndexById(id))].type;
  if (t->type == avro::AvroType::kUnion) {
    int b = t->OptionalBranch();
    if (b >= 0) t = t->branches[static_cast<size_t>(b)];
  }
  return *t;
}

std::optional<int64_t> OptLong(const Value& v) {
  if (v.kind() == K::kLong) return v.long_value();
  if (v.kind() == K::kInt) return v.int_value();
  return std::nullopt;
}
std::optional<int32_t> OptInt(const Value& v) {
  if (v.kind() == K::kInt) return v.int_value();
  return std::nullopt;
}
std::optional<std::string> OptBytes(const Value& v) {
  if (v.kind() == K::kBytes || v.kind() == K::kString || v.kind() == K::kFixed) return v.bytes();
  return std::nullopt;
}

template <typename V>
void ReadIntMap(const Value& v, std::map<int32_t, V>* out) {
  if (v.kind() != K::kArray) return;
  for (const auto& item : v.children()) {
    if (item.children().size() < 2) continue;
    int32_t key = item.field(0).int_value();
    if constexpr (std::is_same_v<V, std::string>) {
      (*out)[key] = item.field(1).bytes();
    } else {
      (*out)[key] = item.field(1).long_value();
    }
  }
}

Status Bad(const std::string& path, const std::string& what) {
  return Status::Corruption("manifest '" + path + "': " + what);
}

Result<DataFile> DataFileFromAvro(const Node& record, const Value& v, const Type& partition_type,
                                  const std::string& path) {
  namespace f = entry_field;
  DataFile file;
  int32_t content = Get(record, v, f::kContent).int_value();
  if (content < 0 || content > 2) return Bad(path, "data file content " + std::to_string(content));
  file.content = static_cast<FileContent>(content);
  file.file_path = Get(record, v, f::kFilePath).bytes();
  auto format = ParseFileFormat(Get(record, v, f::kFileFormat).bytes());
  if (!format.ok()) return Bad(path, format.status().message());
  file.file_format = *format;

  const Value& partition = Get(record, v, f::kPartition);
  const auto& fields = partition_type.fields();
  if (partition.children().size() != fields.size()) {
    return Bad(path, "partition tuple of " + std::to_string(partition.children().size()) +
                         " values, the spec has " + std::to_string(fields.size()) + " fields");
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    auto value = PartitionValueFromAvro(partition.field(i), *fields[i].type);
    if (!value.ok()) return Bad(path, value.status().message());
    file.partition.push_back(std::move(*value));
  }
  file.record_count = Get(record, v, f::kRecordCount).long_value();
  file.file_size_in_bytes = Get(record, v, f::kFileSizeInBytes).long_value();
  ReadIntMap(Get(record, v, f::kColumnSizes), &file.column_sizes);
  ReadIntMap(Get(record, v, f::kValueCounts), &file.value_counts);
  ReadIntMap(Get(record, v, f::kNullValueCounts), &file.null_value_counts);
  ReadIntMap(Get(record, v, f::kNanValueCounts), &file.nan_value_counts);
  ReadIntMap(Get(record, v, f::kLowerBounds), &file.lower_bounds);
  ReadIntMap(Get(record, v, f::kUpperBounds), &file.upper_bounds);
  file.key_metadata = OptBytes(Get(record, v, f::kKeyMetadata));
  for (const auto& item : Get(record, v, f::kSplitOffsets).children()) {
    file.split_offsets.push_back(item.long_value());
  }
  for (const auto& item : Get(record, v, f::kEqualityIds).children()) {
    int64_t id = item.kind() == K::kLong ? item.long_value() : item.int_value();
    if (id < INT32_MIN || id > INT32_MAX) return Bad(path, "equality id " + std::to_string(id));
    file.equality_ids.push_back(static_cast<int32_t>(id));
  }
  file.sort_order_id = OptInt(Get(record, v, f::kSortOrderId));
  file.first_row_id = OptLong(Get(record, v, f::kFirstRowId));
  file.referenced_data_file = OptBytes(Get(record, v, f::kReferencedDataFile));
  file.content_offset = OptLong(Get(record, v, f::kContentOffset));
  file.content_size_in_bytes = OptLong(Get(record, v, f::kContentSizeInBytes));
  return file;
}

Result<ManifestEntry> EntryFromAvro(const Node& root, const Value& v, const Type& partition_type,
                                    const std::string& path) {
  namespace f = entry_field;
  ManifestEntry entry;
  int32_t status = Get(root, v, f::kStatus).int_value();
  if (status < 0 || status > 2) return Bad(path, "entry status " + std::to_string(status));
  entry.status = static_cast<ManifestStatus>(status);
  entry.snapshot_id = OptLong(Get(root, v, f::kSnapshotId));
  entry.sequence_number = OptLong(Get(root, v, f::kSequenceNumber));
  entry.file_sequence_number = OptLong(Get(root, v, f::kFileSequenceNumber));
  SQE_ASSIGN_OR_RETURN(entry.data_file,
                       DataFileFromAvro(TypeOf(root, f::kDataFile), Get(root, v, f::kDataFile),
                                        partition_type, path));
  return entry;
}

Result<ManifestFile> ManifestFromAvro(const Node& root, const Value& v, const std::string& path) {
  namespace f = list_field;
  ManifestFile m;
  m.manifest_path = Get(root, v, f::kManifestPath).bytes();
  m.manifest_length = Get(root, v, f::kManifestLength).long_value();
  m.partition_spec_id = Get(root, v, f::kPartitionSpecId).int_value();
  int32_t content = Get(root, v, f::kContent).int_value();
  if (content < 0 || content > 1) {
    return Status::Corruption("manifest list '" + path + "': manifest content " +
                              std::to_string(content));
  }
  m.content = static_cast<ManifestContent>(content);
  m.sequence_number = Get(root, v, f::kSequenceNumber).long_value();
  m.min_sequence_number = Get(root, v, f::kMinSequenceNumber).long_value();
  m.added_snapshot_id = Get(root, v, f::kAddedSnapshotId).long_value();
  m.added_files_count = OptInt(Get(root, v, f::kAddedFilesCount));
  m.existing_files_count = OptInt(Get(root, v, f::kExistingFilesCount));
  m.deleted_files_count = OptInt(Get(root, v, f::kDeletedFilesCount));
  m.added_rows_count = OptLong(Get(root, v, f::kAddedRowsCount));
  m.existing_rows_count = OptLong(Get(root, v, f::kExistingRowsCount));
  m.deleted_rows_count = OptLong(Get(root, v, f::kDeletedRowsCount));
  for (const auto& item : Get(root, v, f::kPartitions).children()) {
    if (item.children().size() < 4) continue;
    PartitionFieldSummary s;
    s.contains_null = item.field(0).boolean();
    if (item.field(1).kind() == K::kBoolean) s.contains_nan = item.field(1).boolean();
    s.lower_bound = OptBytes(item.field(2));
    s.upper_bound = OptBytes(item.field(3));
    m.partitions.push_back(std::move(s));
  }
  m.key_metadata = OptBytes(Get(root, v, f::kKeyMetadata));
  m.first_row_id = OptLong(Get(root, v, f::kFirstRowId));
  return m;
}

Result<int64_t> ParseInt(const std::string& text, const std::string& key, const std::string& path) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Status::Corruption("manifest '" + path + "': metadata " + key + " '" + text +
                              "' is not an integer");
  }
  return v;
}

}  // namespace

Result<std::vector<ManifestFile>> ReadManifestList(std::shared_ptr<io::RandomAccessFile> file) {
  std::string path = file->path();
  SQE_ASSIGN_OR_RETURN(avro::SchemaPtr schema, ManifestFileReadSchema());
  SQE_ASSIGN_OR_RETURN(auto reader, OpenAs(std::move(file), schema));
  std::vector<ManifestFile> out;
  Value v;
  while (true) {
    auto more = reader->Next(&v);
    if (!more.ok()) return AsCorruption(more.status(), path);
    if (!*more) break;
    SQE_ASSIGN_OR_RETURN(ManifestFile m, ManifestFromAvro(schema->root(), v, path));
    out.push_back(std::move(m));
  }
  return out;
}

Result<std::vector<ManifestEntry>> ReadManifestEntries(std::shared_ptr<io::RandomAccessFile> file,
                                                       const PartitionSpec& spec,
                                                       const Schema& schema) {
  std::string path = file->path();
  SQE_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  SQE_ASSIGN_OR_RETURN(avro::SchemaPtr read_schema, ManifestEntryReadSchema(*partition_type));
  SQE_ASSIGN_OR_RETURN(auto reader, OpenAs(std::move(file), read_schema));
  std::vector<ManifestEntry> out;
  Value v;
  while (true) {
    auto more = reader->Next(&v);
    if (!more.ok()) return AsCorruption(more.status(), path);
    if (!*more) break;
    SQE_ASSIGN_OR_RETURN(ManifestEntry entry,
                         EntryFromAvro(read_schema->root(), v, *partition_type, path));
    out.push_back(std::move(entry));
  }
  return out;
}

void InheritManifestMetadata(const ManifestFile& manifest, std::vector<ManifestEntry>* entries) {
  std::optional<int64_t> next_row_id;
  if (manifest.content == ManifestContent::kData) next_row_id = manifest.first_row_id;
  for (auto& entry : *entries) {
    if (!entry.snapshot_id.has_value()) entry.snapshot_id = manifest.added_snapshot_id;
    // v1 manifests (sequence number 0) give every entry 0; otherwise only ADDED inherit.
    bool inherits = entry.status == ManifestStatus::kAdded || manifest.sequence_number == 0;
    if (inherits && manifest.sequence_number != kUnassignedSequenceNumber) {
      if (!entry.sequence_number.has_value()) entry.sequence_number = manifest.sequence_number;
      if (!entry.file_sequence_number.has_value()) {
        entry.file_sequence_number = manifest.sequence_number;
      }
    }
    DataFile& file = entry.data_file;
    if (next_row_id.has_value() && entry.status != ManifestStatus::kDeleted &&
        file.content == FileContent::kData && !file.first_row_id.has_value()) {
      file.first_row_id = *next_row_id;
      *next_row_id += file.record_count;
    }
  }
}

Result<std::vector<ManifestEntry>> ReadManifest(std::shared_ptr<io::RandomAccessFile> file,
                                                const ManifestFile& manifest,
                                                const PartitionSpec& spec, const Schema& schema) {
  SQE_ASSIGN_OR_RETURN(auto entries, ReadManifestEntries(std::move(file), spec, schema));
  InheritManifestMetadata(manifest, &entries);
  return entries;
}

Result<ManifestMetadata> ReadManifestMetadata(std::shared_ptr<io::RandomAccessFile> file) {
  std::string path = file->path();
  auto opened = avro::ContainerReader::Open(std::move(file));
  if (!opened.ok()) return AsCorruption(opened.status(), path);
  const auto& reader = *opened;
  ManifestMetadata out;
  if (const std::string* v = reader->FindMetadata("format-version")) {
    SQE_ASSIGN_OR_RETURN(int64_t version, ParseInt(*v, "format-version", path));
    out.format_version = static_cast<int>(version);
  }
  if (const std::string* v = reader->FindMetadata("content")) {
    if (*v == "deletes") {
      out.content = ManifestContent::kDeletes;
    } else if (*v != "data") {
      return Status::Corruption("manifest '" + path + "': content '" + *v + "'");
    }
  }
  if (const std::string* v = reader->FindMetadata("schema")) {
    auto schema = ParseSchemaJson(*v);
    if (!schema.ok()) return schema.status().WithContext("manifest '" + path + "' schema");
    out.schema = std::move(*schema);
  }
  if (const std::string* v = reader->FindMetadata("partition-spec")) {
    int64_t spec_id = 0;
    if (const std::string* id = reader->FindMetadata("partition-spec-id")) {
      SQE_ASSIGN_OR_RETURN(spec_id, ParseInt(*id, "partition-spec-id", path));
    }
    auto fields = nlohmann::json::parse(*v, nullptr, false);
    if (fields.is_discarded() || !fields.is_array()) {
      return Status::Corruption("manifest '" + path + "': partition-spec is not a JSON array");
    }
    nlohmann::json spec_json = {{"spec-id", spec_id}, {"fields", fields}};
    auto spec = ParsePartitionSpecJson(spec_json.dump());
    if (!spec.ok()) return spec.status().WithContext("manifest '" + path + "' partition-spec");
    out.spec = std::move(*spec);
  }
  return out;
}

}  // namespace sqe::iceberg
