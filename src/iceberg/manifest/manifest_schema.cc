#include "iceberg/manifest/manifest_schema.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "iceberg/manifest/single_value.h"

namespace sqe::iceberg {
namespace {

using avro::Json;

// Which fields a schema holds: one writer version, or the read superset.
enum class Shape { kV1, kV2, kV3, kRead };

Result<Shape> ShapeOf(int format_version) {
  switch (format_version) {
    case 1:
      return Shape::kV1;
    case 2:
      return Shape::kV2;
    case 3:
      return Shape::kV3;
    default:
      return Status::InvalidArgument("manifest format version " + std::to_string(format_version) +
                                     " is not supported (expected 1, 2 or 3)");
  }
}

Json Required(const char* name, Json type, int32_t id) {
  Json f = Json::object();
  f["name"] = name;
  f["type"] = std::move(type);
  f["field-id"] = id;
  return f;
}

Json Optional(const char* name, Json type, int32_t id) {
  Json f = Json::object();
  f["name"] = name;
  f["type"] = Json::array({"null", std::move(type)});
  f["default"] = nullptr;
  f["field-id"] = id;
  return f;
}

Json Defaulted(const char* name, Json type, int32_t id, int64_t default_value) {
  Json f = Required(name, std::move(type), id);
  f["default"] = default_value;
  return f;
}

// An optional field in `shape`, or required (as writers of later versions must write it).
Json MaybeRequired(bool required, const char* name, Json type, int32_t id) {
  return required ? Required(name, std::move(type), id) : Optional(name, std::move(type), id);
}

// Iceberg writes maps with int keys as arrays of key/value records.
Json IntMap(int32_t key_id, int32_t value_id, const char* value_type) {
  Json record = Json::object();
  record["type"] = "record";
  record["name"] = "k" + std::to_string(key_id) + "_v" + std::to_string(value_id);
  record["fields"] =
      Json::array({Required("key", "int", key_id), Required("value", value_type, value_id)});
  Json array = Json::object();
  array["type"] = "array";
  array["logicalType"] = "map";
  array["items"] = std::move(record);
  return array;
}

Json ListOf(const char* element_type, int32_t element_id) {
  Json array = Json::object();
  array["type"] = "array";
  array["items"] = element_type;
  array["element-id"] = element_id;
  return array;
}

Json Logical(const char* base, const char* logical) {
  Json t = Json::object();
  t["type"] = base;
  t["logicalType"] = logical;
  return t;
}

Json Fixed(const std::string& name, int32_t size) {
  Json t = Json::object();
  t["type"] = "fixed";
  t["name"] = name;
  t["size"] = size;
  return t;
}

// The smallest fixed size holding every unscaled value of `precision` digits.
int32_t DecimalBytes(int32_t precision) {
  for (int32_t n = 1; n < 16; ++n) {
    if (std::floor(static_cast<double>(8 * n - 1) * std::log10(2.0)) >= precision) return n;
  }
  return 16;
}

// Avro names: [A-Za-z_][A-Za-z0-9_]*; other characters become _x<hex> as Java does.
std::string AvroName(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    auto c = static_cast<unsigned char>(name[i]);
    bool letter = std::isalpha(c) || c == '_';
    bool ok = i == 0 ? letter : (letter || std::isdigit(c));
    if (ok) {
      out.push_back(static_cast<char>(c));
    } else if (i == 0 && std::isdigit(c)) {
      out += "_";
      out.push_back(static_cast<char>(c));
    } else {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "_x%X", c);
      out += hex;
    }
  }
  return out.empty() ? "_" : out;
}

Result<Json> PartitionFieldType(const NestedField& field) {
  const Type& t = *field.type;
  std::string fixed_name = "fixed_" + std::to_string(field.id);
  switch (t.id()) {
    case TypeId::kBoolean:
      return Json("boolean");
    case TypeId::kInt:
      return Json("int");
    case TypeId::kLong:
      return Json("long");
    case TypeId::kFloat:
      return Json("float");
    case TypeId::kDouble:
      return Json("double");
    case TypeId::kDate:
      return Logical("int", "date");
    case TypeId::kTime:
      return Logical("long", "time-micros");
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      Json j = Logical("long", "timestamp-micros");
      j["adjust-to-utc"] = t.id() == TypeId::kTimestampTz;
      return j;
    }
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      Json j = Logical("long", "timestamp-nanos");
      j["adjust-to-utc"] = t.id() == TypeId::kTimestampTzNs;
      return j;
    }
    case TypeId::kString:
      return Json("string");
    case TypeId::kBinary:
      return Json("bytes");
    case TypeId::kUuid: {
      Json j = Fixed("uuid_" + std::to_string(field.id), 16);
      j["logicalType"] = "uuid";
      return j;
    }
    case TypeId::kFixed:
      return Fixed(fixed_name, t.length());
    case TypeId::kDecimal: {
      Json j = Fixed("decimal_" + std::to_string(field.id), DecimalBytes(t.precision()));
      j["logicalType"] = "decimal";
      j["precision"] = t.precision();
      j["scale"] = t.scale();
      return j;
    }
    default:
      return Status::InvalidArgument("partition field '" + field.name + "' of type " +
                                     t.ToString() + " has no Avro form in a manifest");
  }
}

Result<Json> PartitionRecord(const Type& partition_type) {
  if (partition_type.id() != TypeId::kStruct) {
    return Status::InvalidArgument("partition type must be a struct, got " +
                                   partition_type.ToString());
  }
  Json fields = Json::array();
  for (const auto& field : partition_type.fields()) {
    SQE_ASSIGN_OR_RETURN(Json type, PartitionFieldType(field));
    Json f = Json::object();
    f["name"] = AvroName(field.name);
    f["type"] = Json::array({"null", std::move(type)});
    f["default"] = nullptr;
    f["field-id"] = field.id;
    fields.push_back(std::move(f));
  }
  Json record = Json::object();
  record["type"] = "record";
  record["name"] = "r102";
  record["fields"] = std::move(fields);
  return record;
}

Result<Json> DataFileRecord(Shape shape, const Type& partition_type) {
  namespace f = entry_field;
  bool v1 = shape == Shape::kV1;
  bool read = shape == Shape::kRead;
  bool v3 = shape == Shape::kV3 || read;
  Json fields = Json::array();
  if (read) {
    fields.push_back(Defaulted("content", "int", f::kContent, 0));
  } else if (!v1) {
    fields.push_back(Required("content", "int", f::kContent));
  }
  fields.push_back(Required("file_path", "string", f::kFilePath));
  fields.push_back(Required("file_format", "string", f::kFileFormat));
  SQE_ASSIGN_OR_RETURN(Json partition, PartitionRecord(partition_type));
  fields.push_back(Required("partition", std::move(partition), f::kPartition));
  fields.push_back(Required("record_count", "long", f::kRecordCount));
  fields.push_back(Required("file_size_in_bytes", "long", f::kFileSizeInBytes));
  if (v1) fields.push_back(Required("block_size_in_bytes", "long", f::kBlockSizeInBytes));
  fields.push_back(Optional("column_sizes", IntMap(117, 118, "long"), f::kColumnSizes));
  fields.push_back(Optional("value_counts", IntMap(119, 120, "long"), f::kValueCounts));
  fields.push_back(Optional("null_value_counts", IntMap(121, 122, "long"), f::kNullValueCounts));
  fields.push_back(Optional("nan_value_counts", IntMap(138, 139, "long"), f::kNanValueCounts));
  fields.push_back(Optional("lower_bounds", IntMap(126, 127, "bytes"), f::kLowerBounds));
  fields.push_back(Optional("upper_bounds", IntMap(129, 130, "bytes"), f::kUpperBounds));
  fields.push_back(Optional("key_metadata", "bytes", f::kKeyMetadata));
  fields.push_back(
      Optional("split_offsets", ListOf("long", f::kSplitOffsetsElement), f::kSplitOffsets));
  if (!v1) {
    // Read as long: PyIceberg writes list<long> here, and int promotes to long.
    fields.push_back(Optional("equality_ids", ListOf(read ? "long" : "int", f::kEqualityIdsElement),
                              f::kEqualityIds));
  }
  fields.push_back(Optional("sort_order_id", "int", f::kSortOrderId));
  if (v3) fields.push_back(Optional("first_row_id", "long", f::kFirstRowId));
  if (!v1) fields.push_back(Optional("referenced_data_file", "string", f::kReferencedDataFile));
  if (v3) {
    fields.push_back(Optional("content_offset", "long", f::kContentOffset));
    fields.push_back(Optional("content_size_in_bytes", "long", f::kContentSizeInBytes));
  }
  Json record = Json::object();
  record["type"] = "record";
  record["name"] = "r2";
  record["fields"] = std::move(fields);
  return record;
}

Result<avro::SchemaPtr> EntrySchema(Shape shape, const Type& partition_type) {
  namespace f = entry_field;
  Json fields = Json::array();
  fields.push_back(Required("status", "int", f::kStatus));
  if (shape == Shape::kV1) {
    fields.push_back(Required("snapshot_id", "long", f::kSnapshotId));
  } else {
    fields.push_back(Optional("snapshot_id", "long", f::kSnapshotId));
    fields.push_back(Optional("sequence_number", "long", f::kSequenceNumber));
    fields.push_back(Optional("file_sequence_number", "long", f::kFileSequenceNumber));
  }
  SQE_ASSIGN_OR_RETURN(Json data_file, DataFileRecord(shape, partition_type));
  fields.push_back(Required("data_file", std::move(data_file), f::kDataFile));
  Json root = Json::object();
  root["type"] = "record";
  root["name"] = "manifest_entry";
  root["fields"] = std::move(fields);
  return avro::Schema::FromJson(root);
}

Json FieldSummary() {
  namespace f = list_field;
  Json record = Json::object();
  record["type"] = "record";
  record["name"] = "r508";
  record["fields"] = Json::array({
      Required("contains_null", "boolean", f::kContainsNull),
      Optional("contains_nan", "boolean", f::kContainsNan),
      Optional("lower_bound", "bytes", f::kLowerBound),
      Optional("upper_bound", "bytes", f::kUpperBound),
  });
  Json array = Json::object();
  array["type"] = "array";
  array["items"] = std::move(record);
  array["element-id"] = f::kPartitionsElement;
  return array;
}

Result<avro::SchemaPtr> ListSchema(Shape shape) {
  namespace f = list_field;
  bool v1 = shape == Shape::kV1;
  bool read = shape == Shape::kRead;
  bool counts_required = !v1 && !read;
  Json fields = Json::array();
  fields.push_back(Required("manifest_path", "string", f::kManifestPath));
  fields.push_back(Required("manifest_length", "long", f::kManifestLength));
  fields.push_back(Required("partition_spec_id", "int", f::kPartitionSpecId));
  if (read) {
    fields.push_back(Defaulted("content", "int", f::kContent, 0));
    fields.push_back(Defaulted("sequence_number", "long", f::kSequenceNumber, 0));
    fields.push_back(Defaulted("min_sequence_number", "long", f::kMinSequenceNumber, 0));
  } else if (!v1) {
    fields.push_back(Required("content", "int", f::kContent));
    fields.push_back(Required("sequence_number", "long", f::kSequenceNumber));
    fields.push_back(Required("min_sequence_number", "long", f::kMinSequenceNumber));
  }
  fields.push_back(Required("added_snapshot_id", "long", f::kAddedSnapshotId));
  fields.push_back(MaybeRequired(counts_required, "added_files_count", "int", f::kAddedFilesCount));
  fields.push_back(
      MaybeRequired(counts_required, "existing_files_count", "int", f::kExistingFilesCount));
  fields.push_back(
      MaybeRequired(counts_required, "deleted_files_count", "int", f::kDeletedFilesCount));
  fields.push_back(MaybeRequired(counts_required, "added_rows_count", "long", f::kAddedRowsCount));
  fields.push_back(
      MaybeRequired(counts_required, "existing_rows_count", "long", f::kExistingRowsCount));
  fields.push_back(
      MaybeRequired(counts_required, "deleted_rows_count", "long", f::kDeletedRowsCount));
  fields.push_back(Optional("partitions", FieldSummary(), f::kPartitions));
  fields.push_back(Optional("key_metadata", "bytes", f::kKeyMetadata));
  if (shape == Shape::kV3 || read) {
    fields.push_back(Optional("first_row_id", "long", f::kFirstRowId));
  }
  Json root = Json::object();
  root["type"] = "record";
  root["name"] = "manifest_file";
  root["fields"] = std::move(fields);
  return avro::Schema::FromJson(root);
}

Status NotFit(const avro::Value& value, const Type& type) {
  return Status::Corruption("partition value " + value.DebugString() + " does not fit type " +
                            type.ToString());
}

}  // namespace

Result<avro::SchemaPtr> ManifestEntrySchema(int format_version, const Type& partition_type) {
  SQE_ASSIGN_OR_RETURN(Shape shape, ShapeOf(format_version));
  return EntrySchema(shape, partition_type);
}

Result<avro::SchemaPtr> ManifestEntryReadSchema(const Type& partition_type) {
  return EntrySchema(Shape::kRead, partition_type);
}

Result<avro::SchemaPtr> ManifestFileSchema(int format_version) {
  SQE_ASSIGN_OR_RETURN(Shape shape, ShapeOf(format_version));
  return ListSchema(shape);
}

Result<avro::SchemaPtr> ManifestFileReadSchema() { return ListSchema(Shape::kRead); }

Result<avro::Value> PartitionValueToAvro(const std::optional<Literal>& value, const Type& type) {
  if (!value.has_value() || value->is_null()) return avro::Value::Null();
  const Literal& v = *value;
  auto mismatch = [&]() {
    return Status::InvalidArgument("partition value " + v.ToString() + " does not fit type " +
                                   type.ToString());
  };
  switch (type.id()) {
    case TypeId::kBoolean:
      if (v.type() != TypeId::kBoolean) return mismatch();
      return avro::Value::Boolean(v.bool_value());
    case TypeId::kInt:
    case TypeId::kDate:
      if (v.type() != TypeId::kInt && v.type() != TypeId::kDate) return mismatch();
      return avro::Value::Int(static_cast<int32_t>(v.int_value()));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (v.type() == TypeId::kBoolean || v.type() == TypeId::kFloat ||
          v.type() == TypeId::kDouble || v.type() == TypeId::kString ||
          v.type() == TypeId::kBinary || v.type() == TypeId::kFixed || v.type() == TypeId::kUuid ||
          v.type() == TypeId::kDecimal) {
        return mismatch();
      }
      return avro::Value::Long(v.int_value());
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (v.type() != TypeId::kFloat && v.type() != TypeId::kDouble) return mismatch();
      return type.id() == TypeId::kFloat ? avro::Value::Float(static_cast<float>(v.double_value()))
                                         : avro::Value::Double(v.double_value());
    case TypeId::kString:
      if (v.type() != TypeId::kString) return mismatch();
      return avro::Value::String(v.bytes());
    case TypeId::kBinary:
      if (v.type() != TypeId::kBinary && v.type() != TypeId::kFixed) return mismatch();
      return avro::Value::Bytes(v.bytes());
    case TypeId::kUuid:
    case TypeId::kFixed: {
      if (v.type() != TypeId::kUuid && v.type() != TypeId::kFixed && v.type() != TypeId::kBinary) {
        return mismatch();
      }
      size_t want = type.id() == TypeId::kUuid ? 16 : static_cast<size_t>(type.length());
      if (v.bytes().size() != want) return mismatch();
      return avro::Value::Fixed(v.bytes());
    }
    case TypeId::kDecimal: {
      if (v.type() != TypeId::kDecimal || v.scale() != type.scale()) return mismatch();
      SQE_ASSIGN_OR_RETURN(std::string bytes,
                           DecimalToBigEndian(v.decimal_value(), DecimalBytes(type.precision())));
      return avro::Value::Fixed(std::move(bytes));
    }
    default:
      return mismatch();
  }
}

Result<std::optional<Literal>> PartitionValueFromAvro(const avro::Value& value, const Type& type) {
  using K = avro::Value::Kind;
  if (value.is_null()) return std::optional<Literal>();
  switch (type.id()) {
    case TypeId::kBoolean:
      if (value.kind() != K::kBoolean) return NotFit(value, type);
      return std::optional<Literal>(Literal::Boolean(value.boolean()));
    case TypeId::kInt:
    case TypeId::kDate:
      if (value.kind() != K::kInt) return NotFit(value, type);
      return std::optional<Literal>(type.id() == TypeId::kDate ? Literal::Date(value.int_value())
                                                               : Literal::Int(value.int_value()));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      if (value.kind() != K::kLong && value.kind() != K::kInt) return NotFit(value, type);
      int64_t v = value.kind() == K::kLong ? value.long_value() : value.int_value();
      switch (type.id()) {
        case TypeId::kTime:
          return std::optional<Literal>(Literal::Time(v));
        case TypeId::kTimestamp:
          return std::optional<Literal>(Literal::Timestamp(v));
        case TypeId::kTimestampTz:
          return std::optional<Literal>(Literal::TimestampTz(v));
        case TypeId::kTimestampNs:
          return std::optional<Literal>(Literal::TimestampNs(v));
        case TypeId::kTimestampTzNs:
          return std::optional<Literal>(Literal::TimestampTzNs(v));
        default:
          return std::optional<Literal>(Literal::Long(v));
      }
    }
    case TypeId::kFloat:
      if (value.kind() != K::kFloat) return NotFit(value, type);
      return std::optional<Literal>(Literal::Float(value.float_value()));
    case TypeId::kDouble:
      if (value.kind() != K::kDouble && value.kind() != K::kFloat) return NotFit(value, type);
      return std::optional<Literal>(
          Literal::Double(value.kind() == K::kDouble ? value.double_value() : value.float_value()));
    case TypeId::kString:
      if (value.kind() != K::kString && value.kind() != K::kBytes) return NotFit(value, type);
      return std::optional<Literal>(Literal::String(value.bytes()));
    case TypeId::kBinary:
      if (value.kind() != K::kBytes && value.kind() != K::kString) return NotFit(value, type);
      return std::optional<Literal>(Literal::Binary(value.bytes()));
    case TypeId::kUuid:
      if (value.kind() != K::kFixed || value.bytes().size() != 16) return NotFit(value, type);
      return std::optional<Literal>(Literal::Uuid(value.bytes()));
    case TypeId::kFixed:
      if (value.kind() != K::kFixed) return NotFit(value, type);
      return std::optional<Literal>(Literal::Fixed(value.bytes()));
    case TypeId::kDecimal: {
      if (value.kind() != K::kFixed && value.kind() != K::kBytes) return NotFit(value, type);
      auto unscaled = DecimalFromBigEndian(value.bytes());
      if (!unscaled.ok()) return NotFit(value, type);
      return std::optional<Literal>(Literal::Decimal(*unscaled, type.scale()));
    }
    default:
      return NotFit(value, type);
  }
}

}  // namespace sqe::iceberg
