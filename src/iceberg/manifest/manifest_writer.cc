#include "iceberg/manifest/manifest_writer.h"

#include <cmath>
#include <string>
#include <utility>

#include "common/crash_point.h"
#include "iceberg/manifest/manifest_schema.h"
#include "iceberg/manifest/single_value.h"

namespace sqe::iceberg {
namespace {

using avro::Json;
using avro::Value;

// The v1 block_size_in_bytes default Java writes (64 MB).
constexpr int64_t kV1BlockSize = int64_t{64} << 20;

// -1, 0, 1 for two non-null literals of one partition type (bytes compare unsigned,
// -0.0 sorts before +0.0 as the spec's summary rules require).
int Compare(const Literal& a, const Literal& b) {
  switch (a.type()) {
    case TypeId::kBoolean:
      return static_cast<int>(a.bool_value()) - static_cast<int>(b.bool_value());
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double x = a.double_value();
      double y = b.double_value();
      if (x < y) return -1;
      if (x > y) return 1;
      return static_cast<int>(std::signbit(y)) - static_cast<int>(std::signbit(x));
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid: {
      int c = a.bytes().compare(b.bytes());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case TypeId::kDecimal:
      if (a.decimal_value() < b.decimal_value()) return -1;
      return b.decimal_value() < a.decimal_value() ? 1 : 0;
    default:
      if (a.int_value() < b.int_value()) return -1;
      return a.int_value() > b.int_value() ? 1 : 0;
  }
}

Value OptionalLong(const std::optional<int64_t>& v) {
  return v.has_value() ? Value::Long(*v) : Value::Null();
}
Value OptionalInt(const std::optional<int32_t>& v) {
  return v.has_value() ? Value::Int(*v) : Value::Null();
}
Value OptionalBytes(const std::optional<std::string>& v) {
  return v.has_value() ? Value::Bytes(*v) : Value::Null();
}

template <typename V>
Value IntMap(const std::map<int32_t, V>& map) {
  if (map.empty()) return Value::Null();
  std::vector<Value> items;
  items.reserve(map.size());
  for (const auto& [key, value] : map) {
    if constexpr (std::is_same_v<V, std::string>) {
      items.push_back(Value::Record({Value::Int(key), Value::Bytes(value)}));
    } else {
      items.push_back(Value::Record({Value::Int(key), Value::Long(value)}));
    }
  }
  return Value::Array(std::move(items));
}

Result<Value> PartitionToAvro(const DataFile& file, const Type& partition_type) {
  const auto& fields = partition_type.fields();
  if (file.partition.size() != fields.size()) {
    return Status::InvalidArgument(
        "data file '" + file.file_path + "' has " + std::to_string(file.partition.size()) +
        " partition values, the spec has " + std::to_string(fields.size()) + " fields");
  }
  std::vector<Value> values;
  values.reserve(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    auto v = PartitionValueToAvro(file.partition[i], *fields[i].type);
    if (!v.ok()) return v.status().WithContext("data file '" + file.file_path + "'");
    values.push_back(std::move(*v));
  }
  return Value::Record(std::move(values));
}

Result<Value> DataFileToAvro(const avro::Node& record, const DataFile& file,
                             const Type& partition_type) {
  namespace f = entry_field;
  std::vector<Value> out;
  out.reserve(record.fields.size());
  for (const auto& field : record.fields) {
    switch (field.field_id.value_or(-1)) {
      case f::kContent:
        out.push_back(Value::Int(static_cast<int32_t>(file.content)));
        break;
      case f::kFilePath:
        out.push_back(Value::String(file.file_path));
        break;
      case f::kFileFormat:
        out.push_back(Value::String(std::string(FileFormatName(file.file_format))));
        break;
      case f::kPartition: {
        SQE_ASSIGN_OR_RETURN(Value partition, PartitionToAvro(file, partition_type));
        out.push_back(std::move(partition));
        break;
      }
      case f::kRecordCount:
        out.push_back(Value::Long(file.record_count));
        break;
      case f::kFileSizeInBytes:
        out.push_back(Value::Long(file.file_size_in_bytes));
        break;
      case f::kBlockSizeInBytes:
        out.push_back(Value::Long(kV1BlockSize));
        break;
      case f::kColumnSizes:
        out.push_back(IntMap(file.column_sizes));
        break;
      case f::kValueCounts:
        out.push_back(IntMap(file.value_counts));
        break;
      case f::kNullValueCounts:
        out.push_back(IntMap(file.null_value_counts));
        break;
      case f::kNanValueCounts:
        out.push_back(IntMap(file.nan_value_counts));
        break;
      case f::kLowerBounds:
        out.push_back(IntMap(file.lower_bounds));
        break;
      case f::kUpperBounds:
        out.push_back(IntMap(file.upper_bounds));
        break;
      case f::kKeyMetadata:
        out.push_back(OptionalBytes(file.key_metadata));
        break;
      case f::kSplitOffsets: {
        if (file.split_offsets.empty()) {
          out.push_back(Value::Null());
          break;
        }
        std::vector<Value> items;
        for (int64_t offset : file.split_offsets) items.push_back(Value::Long(offset));
        out.push_back(Value::Array(std::move(items)));
        break;
      }
      case f::kEqualityIds: {
        if (file.equality_ids.empty()) {
          out.push_back(Value::Null());
          break;
        }
        std::vector<Value> items;
        for (int32_t id : file.equality_ids) items.push_back(Value::Int(id));
        out.push_back(Value::Array(std::move(items)));
        break;
      }
      case f::kSortOrderId:
        out.push_back(OptionalInt(file.sort_order_id));
        break;
      case f::kFirstRowId:
        out.push_back(OptionalLong(file.first_row_id));
        break;
      case f::kReferencedDataFile:
        out.push_back(file.referenced_data_file.has_value()
                          ? Value::String(*file.referenced_data_file)
                          : Value::Null());
        break;
      case f::kContentOffset:
        out.push_back(OptionalLong(file.content_offset));
        break;
      case f::kContentSizeInBytes:
        out.push_back(OptionalLong(file.content_size_in_bytes));
        break;
      default:
        out.push_back(Value::Null());
        break;
    }
  }
  return Value::Record(std::move(out));
}

Result<Value> EntryToAvro(const avro::Node& root, const ManifestEntry& entry,
                          const Type& partition_type) {
  namespace f = entry_field;
  std::vector<Value> out;
  out.reserve(root.fields.size());
  for (const auto& field : root.fields) {
    switch (field.field_id.value_or(-1)) {
      case f::kStatus:
        out.push_back(Value::Int(static_cast<int32_t>(entry.status)));
        break;
      case f::kSnapshotId:
        out.push_back(OptionalLong(entry.snapshot_id));
        break;
      case f::kSequenceNumber:
        out.push_back(OptionalLong(entry.sequence_number));
        break;
      case f::kFileSequenceNumber:
        out.push_back(OptionalLong(entry.file_sequence_number));
        break;
      case f::kDataFile: {
        SQE_ASSIGN_OR_RETURN(Value file,
                             DataFileToAvro(*field.type, entry.data_file, partition_type));
        out.push_back(std::move(file));
        break;
      }
      default:
        out.push_back(Value::Null());
        break;
    }
  }
  return Value::Record(std::move(out));
}

Value SummariesToAvro(const std::vector<PartitionFieldSummary>& summaries) {
  if (summaries.empty()) return Value::Null();
  std::vector<Value> items;
  for (const auto& s : summaries) {
    items.push_back(Value::Record({
        Value::Boolean(s.contains_null),
        s.contains_nan.has_value() ? Value::Boolean(*s.contains_nan) : Value::Null(),
        OptionalBytes(s.lower_bound),
        OptionalBytes(s.upper_bound),
    }));
  }
  return Value::Array(std::move(items));
}

Value ManifestToAvro(const avro::Node& root, const ManifestFile& m) {
  namespace f = list_field;
  std::vector<Value> out;
  out.reserve(root.fields.size());
  for (const auto& field : root.fields) {
    switch (field.field_id.value_or(-1)) {
      case f::kManifestPath:
        out.push_back(Value::String(m.manifest_path));
        break;
      case f::kManifestLength:
        out.push_back(Value::Long(m.manifest_length));
        break;
      case f::kPartitionSpecId:
        out.push_back(Value::Int(m.partition_spec_id));
        break;
      case f::kContent:
        out.push_back(Value::Int(static_cast<int32_t>(m.content)));
        break;
      case f::kSequenceNumber:
        out.push_back(Value::Long(m.sequence_number));
        break;
      case f::kMinSequenceNumber:
        out.push_back(Value::Long(m.min_sequence_number));
        break;
      case f::kAddedSnapshotId:
        out.push_back(Value::Long(m.added_snapshot_id));
        break;
      case f::kAddedFilesCount:
        out.push_back(OptionalInt(m.added_files_count));
        break;
      case f::kExistingFilesCount:
        out.push_back(OptionalInt(m.existing_files_count));
        break;
      case f::kDeletedFilesCount:
        out.push_back(OptionalInt(m.deleted_files_count));
        break;
      case f::kAddedRowsCount:
        out.push_back(OptionalLong(m.added_rows_count));
        break;
      case f::kExistingRowsCount:
        out.push_back(OptionalLong(m.existing_rows_count));
        break;
      case f::kDeletedRowsCount:
        out.push_back(OptionalLong(m.deleted_rows_count));
        break;
      case f::kPartitions:
        out.push_back(SummariesToAvro(m.partitions));
        break;
      case f::kKeyMetadata:
        out.push_back(OptionalBytes(m.key_metadata));
        break;
      case f::kFirstRowId:
        out.push_back(OptionalLong(m.first_row_id));
        break;
      default:
        out.push_back(Value::Null());
        break;
    }
  }
  return Value::Record(std::move(out));
}

}  // namespace

/// The running summary of one partition field.
struct ManifestWriter::Summary {
  TypePtr type;
  bool contains_null = false;
  bool contains_nan = false;
  std::optional<Literal> lower;
  std::optional<Literal> upper;

  void Update(const std::optional<Literal>& value) {
    if (!value.has_value() || value->is_null()) {
      contains_null = true;
      return;
    }
    if ((value->type() == TypeId::kFloat || value->type() == TypeId::kDouble) &&
        std::isnan(value->double_value())) {
      contains_nan = true;
      return;
    }
    if (!lower.has_value() || Compare(*value, *lower) < 0) lower = value;
    if (!upper.has_value() || Compare(*value, *upper) > 0) upper = value;
  }
};

ManifestWriter::~ManifestWriter() = default;

Result<std::unique_ptr<ManifestWriter>> ManifestWriter::Open(std::shared_ptr<io::OutputStream> out,
                                                             ManifestWriterOptions options) {
  int version = options.format_version;
  if (version == 1 && options.content == ManifestContent::kDeletes) {
    return Status::InvalidArgument("v1 tables have no delete manifests");
  }
  if (version == 1 && !options.snapshot_id.has_value()) {
    return Status::InvalidArgument("a v1 manifest needs the snapshot id of its entries");
  }
  SQE_ASSIGN_OR_RETURN(TypePtr partition_type, options.spec.PartitionType(options.schema));
  SQE_ASSIGN_OR_RETURN(avro::SchemaPtr schema, ManifestEntrySchema(version, *partition_type));

  auto spec_json = Json::parse(WritePartitionSpecJson(options.spec), nullptr, false);
  Json spec_fields =
      spec_json.is_object() && spec_json.contains("fields") ? spec_json["fields"] : Json::array();
  avro::ContainerWriterOptions writer_options;
  writer_options.codec = options.codec;
  writer_options.metadata = {
      {"schema", WriteSchemaJson(options.schema)},
      {"schema-id", std::to_string(options.schema.schema_id())},
      {"partition-spec", spec_fields.dump()},
      {"partition-spec-id", std::to_string(options.spec.spec_id())},
      {"format-version", std::to_string(version)},
  };
  if (version >= 2) {
    writer_options.metadata.emplace_back(
        "content", options.content == ManifestContent::kDeletes ? "deletes" : "data");
  }
  SQE_ASSIGN_OR_RETURN(auto writer, avro::ContainerWriter::Open(out, schema, writer_options));

  auto self = std::unique_ptr<ManifestWriter>(new ManifestWriter());
  for (const auto& field : partition_type->fields()) {
    Summary summary;
    summary.type = field.type;
    self->summaries_.push_back(std::move(summary));
  }
  self->options_ = std::move(options);
  self->partition_type_ = std::move(partition_type);
  self->out_ = std::move(out);
  self->writer_ = std::move(writer);
  return self;
}

Status ManifestWriter::Add(const ManifestEntry& given) {
  if (closed_) return Status::InvalidArgument("manifest writer is closed");
  ManifestEntry entry = given;
  const DataFile& file = entry.data_file;
  bool is_delete = file.content != FileContent::kData;
  bool deletes_manifest = options_.content == ManifestContent::kDeletes;
  if (is_delete != deletes_manifest) {
    return Status::InvalidArgument("data file '" + file.file_path + "' (content " +
                                   std::to_string(static_cast<int>(file.content)) +
                                   ") does not belong in a " +
                                   (deletes_manifest ? "delete" : "data") + " manifest");
  }
  if (entry.status == ManifestStatus::kAdded && !entry.snapshot_id.has_value()) {
    entry.snapshot_id = options_.snapshot_id;
  }
  if (options_.format_version == 1) {
    if (!entry.snapshot_id.has_value()) entry.snapshot_id = options_.snapshot_id;
    entry.sequence_number.reset();
    entry.file_sequence_number.reset();
  } else if (entry.status != ManifestStatus::kAdded && !entry.sequence_number.has_value()) {
    return Status::InvalidArgument("manifest entry for '" + file.file_path +
                                   "' is not ADDED and so needs its data sequence number");
  }
  SQE_ASSIGN_OR_RETURN(Value record,
                       EntryToAvro(writer_->schema()->root(), entry, *partition_type_));
  SQE_RETURN_NOT_OK(writer_->Append(record));

  for (size_t i = 0; i < summaries_.size(); ++i) summaries_[i].Update(file.partition[i]);
  switch (entry.status) {
    case ManifestStatus::kAdded:
      ++added_files_;
      added_rows_ += file.record_count;
      break;
    case ManifestStatus::kExisting:
      ++existing_files_;
      existing_rows_ += file.record_count;
      break;
    case ManifestStatus::kDeleted:
      ++deleted_files_;
      deleted_rows_ += file.record_count;
      break;
  }
  if (entry.status != ManifestStatus::kDeleted && entry.sequence_number.has_value() &&
      (!min_sequence_number_.has_value() || *entry.sequence_number < *min_sequence_number_)) {
    min_sequence_number_ = entry.sequence_number;
  }
  return Status::OK();
}

Status ManifestWriter::AddFile(DataFile file) {
  ManifestEntry entry;
  entry.status = ManifestStatus::kAdded;
  entry.snapshot_id = options_.snapshot_id;
  entry.data_file = std::move(file);
  return Add(entry);
}

Status ManifestWriter::AddExisting(DataFile file, int64_t snapshot_id, int64_t sequence_number,
                                   std::optional<int64_t> file_sequence_number) {
  ManifestEntry entry;
  entry.status = ManifestStatus::kExisting;
  entry.snapshot_id = snapshot_id;
  entry.sequence_number = sequence_number;
  entry.file_sequence_number = file_sequence_number;
  entry.data_file = std::move(file);
  return Add(entry);
}

Status ManifestWriter::AddDeleted(DataFile file, int64_t snapshot_id, int64_t sequence_number,
                                  std::optional<int64_t> file_sequence_number) {
  ManifestEntry entry;
  entry.status = ManifestStatus::kDeleted;
  entry.snapshot_id = snapshot_id;
  entry.sequence_number = sequence_number;
  entry.file_sequence_number = file_sequence_number;
  entry.data_file = std::move(file);
  return Add(entry);
}

Result<ManifestFile> ManifestWriter::Close() {
  if (closed_) return Status::InvalidArgument("manifest writer is closed");
  closed_ = true;
  SQE_RETURN_NOT_OK(writer_->Flush());
  ManifestFile m;
  m.manifest_length = writer_->length();
  SQE_RETURN_NOT_OK(writer_->Close());
  CrashPoint("iceberg.manifest_written");
  m.manifest_path = out_->path();
  m.partition_spec_id = options_.spec.spec_id();
  m.content = options_.content;
  m.sequence_number = kUnassignedSequenceNumber;
  m.min_sequence_number = min_sequence_number_.value_or(kUnassignedSequenceNumber);
  m.added_snapshot_id = options_.snapshot_id.value_or(0);
  m.added_files_count = added_files_;
  m.existing_files_count = existing_files_;
  m.deleted_files_count = deleted_files_;
  m.added_rows_count = added_rows_;
  m.existing_rows_count = existing_rows_;
  m.deleted_rows_count = deleted_rows_;
  for (const auto& s : summaries_) {
    PartitionFieldSummary out;
    out.contains_null = s.contains_null;
    out.contains_nan = s.contains_nan;
    if (s.lower.has_value()) {
      SQE_ASSIGN_OR_RETURN(std::string lower, EncodeSingleValue(*s.lower, *s.type));
      out.lower_bound = std::move(lower);
    }
    if (s.upper.has_value()) {
      SQE_ASSIGN_OR_RETURN(std::string upper, EncodeSingleValue(*s.upper, *s.type));
      out.upper_bound = std::move(upper);
    }
    m.partitions.push_back(std::move(out));
  }
  return m;
}

ManifestListWriter::~ManifestListWriter() = default;

Result<std::unique_ptr<ManifestListWriter>> ManifestListWriter::Open(
    std::shared_ptr<io::OutputStream> out, ManifestListWriterOptions options) {
  int version = options.format_version;
  SQE_ASSIGN_OR_RETURN(avro::SchemaPtr schema, ManifestFileSchema(version));
  avro::ContainerWriterOptions writer_options;
  writer_options.codec = options.codec;
  writer_options.metadata = {
      {"snapshot-id", std::to_string(options.snapshot_id)},
      {"parent-snapshot-id", options.parent_snapshot_id.has_value()
                                 ? std::to_string(*options.parent_snapshot_id)
                                 : std::string("null")},
  };
  if (version >= 2) {
    writer_options.metadata.emplace_back("sequence-number",
                                         std::to_string(options.sequence_number));
  }
  if (version >= 3 && options.first_row_id.has_value()) {
    writer_options.metadata.emplace_back("first-row-id", std::to_string(*options.first_row_id));
  }
  writer_options.metadata.emplace_back("format-version", std::to_string(version));
  SQE_ASSIGN_OR_RETURN(auto writer, avro::ContainerWriter::Open(out, schema, writer_options));
  auto self = std::unique_ptr<ManifestListWriter>(new ManifestListWriter());
  if (version >= 3) self->next_row_id_ = options.first_row_id;
  self->options_ = std::move(options);
  self->writer_ = std::move(writer);
  return self;
}

Status ManifestListWriter::Add(const ManifestFile& given) {
  if (closed_) return Status::InvalidArgument("manifest list writer is closed");
  ManifestFile m = given;
  int version = options_.format_version;
  if (version >= 2) {
    if (!m.added_files_count || !m.existing_files_count || !m.deleted_files_count ||
        !m.added_rows_count || !m.existing_rows_count || !m.deleted_rows_count) {
      return Status::InvalidArgument("manifest '" + m.manifest_path +
                                     "' lacks file or row counts a v" + std::to_string(version) +
                                     " manifest list requires");
    }
    if (m.sequence_number == kUnassignedSequenceNumber) {
      if (m.added_snapshot_id != options_.snapshot_id) {
        return Status::InvalidArgument(
            "manifest '" + m.manifest_path + "' of snapshot " +
            std::to_string(m.added_snapshot_id) +
            " has no sequence number; only the committing snapshot's manifests may be unassigned");
      }
      m.sequence_number = options_.sequence_number;
    }
    if (m.min_sequence_number == kUnassignedSequenceNumber) {
      m.min_sequence_number = options_.sequence_number;
    }
  }
  if (version >= 3 && m.content == ManifestContent::kData && !m.first_row_id.has_value() &&
      next_row_id_.has_value()) {
    m.first_row_id = *next_row_id_;
    *next_row_id_ += m.added_rows_count.value_or(0) + m.existing_rows_count.value_or(0);
  }
  return writer_->Append(ManifestToAvro(writer_->schema()->root(), m));
}

Result<int64_t> ManifestListWriter::Close() {
  if (closed_) return Status::InvalidArgument("manifest list writer is closed");
  closed_ = true;
  SQE_RETURN_NOT_OK(writer_->Flush());
  int64_t length = writer_->length();
  SQE_RETURN_NOT_OK(writer_->Close());
  CrashPoint("iceberg.manifest_list_written");
  return length;
}

}  // namespace sqe::iceberg
