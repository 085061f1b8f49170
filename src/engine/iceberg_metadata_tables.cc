// The Iceberg metadata tables ("t$snapshots", ...): rows built from TableMetadata and the
// current snapshot's manifests, as typed Values, then materialized into one batch.

#include "engine/iceberg_metadata_tables.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/civil_time.h"
#include "columnar/column_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"
#include "common/hex.h"
#include "exec/value.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/manifest/single_value.h"
#include "iceberg/scan/file_manifest_source.h"

namespace sqe::engine {

namespace {

using columnar::Field;
using columnar::TypeId;
using columnar::TypePtr;
using exec::Value;

/// A metadata table under construction: its columns and rows of Values.
struct Rows {
  std::vector<Field> fields;
  std::vector<std::vector<Value>> rows;
};

// --- Values of the types metadata tables use ---

Value Text(std::string s) { return Value::Varchar(std::move(s)); }
Value Long(int64_t v) { return Value::BigInt(v); }
Value Int(int32_t v) { return Value::Integer(v); }
Value OptionalLong(std::optional<int64_t> v) {
  return v ? Long(*v) : Value::Null(columnar::Int64());
}
Value OptionalInt(std::optional<int32_t> v) { return v ? Int(*v) : Value::Null(columnar::Int32()); }
Value Millis(int64_t ms) { return Value(columnar::TimestampTz(), ms * 1000); }

Value Nested(TypePtr type, std::vector<Value> elements) {
  return Value(std::move(type), std::make_shared<const Value::Elements>(std::move(elements)));
}

/// A map Value: entries are two-element structs {key, value}.
Value MapOf(const TypePtr& type, std::vector<std::pair<Value, Value>> entries) {
  const TypePtr& entry_type = type->value_field().type();
  std::vector<Value> out;
  out.reserve(entries.size());
  for (auto& [k, v] : entries) out.push_back(Nested(entry_type, {std::move(k), std::move(v)}));
  return Nested(type, std::move(out));
}

/// map(integer, bigint) of per-column metrics; NULL when the file has none (as Trino).
Value CountsMap(const std::map<int32_t, int64_t>& counts) {
  static const TypePtr kType = columnar::Map(columnar::Int32(), columnar::Int64());
  if (counts.empty()) return Value::Null(kType);
  std::vector<std::pair<Value, Value>> entries;
  for (const auto& [id, n] : counts) entries.emplace_back(Int(id), Long(n));
  return MapOf(kType, std::move(entries));
}

template <typename T>
Value ListOf(const TypePtr& element, const std::vector<T>& values) {
  const TypePtr type = columnar::List(element);
  if (values.empty()) return Value::Null(type);
  std::vector<Value> out;
  for (T v : values) out.push_back(Value(element, static_cast<int64_t>(v)));
  return Nested(type, std::move(out));
}

/// A literal as text the way Trino prints a value of its type (dates, timestamps, decimals,
/// hex for binary) for lower_bounds / upper_bounds and partition summaries.
std::string LiteralText(const iceberg::Literal& l) {
  using IT = iceberg::TypeId;
  if (l.is_null()) return "null";
  switch (l.type()) {
    case IT::kBoolean:
      return l.bool_value() ? "true" : "false";
    case IT::kInt:
    case IT::kLong:
      return std::to_string(l.int_value());
    case IT::kFloat:
    case IT::kDouble: {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%.17g", l.double_value());
      // The shortest text that reads back to the same value.
      for (int p = 1; p <= 17; ++p) {
        char shorter[64];
        std::snprintf(shorter, sizeof(shorter), "%.*g", p, l.double_value());
        if (std::strtod(shorter, nullptr) == l.double_value()) return shorter;
      }
      return buf;
    }
    case IT::kDecimal:
      return l.decimal_value().ToString(l.scale());
    case IT::kDate:
      return columnar::FormatDate(l.int_value());
    case IT::kTime:
      return columnar::FormatTimeOfDay(l.int_value(), columnar::TimeUnit::kMicro);
    case IT::kTimestamp:
      return columnar::FormatTimestamp(l.int_value(), columnar::TimeUnit::kMicro);
    case IT::kTimestampTz:
      return columnar::FormatTimestamp(l.int_value(), columnar::TimeUnit::kMicro) + " UTC";
    case IT::kTimestampNs:
      return columnar::FormatTimestamp(l.int_value(), columnar::TimeUnit::kNano);
    case IT::kTimestampTzNs:
      return columnar::FormatTimestamp(l.int_value(), columnar::TimeUnit::kNano) + " UTC";
    case IT::kString:
      return l.bytes();
    case IT::kUuid: {
      std::string hex = HexLower(l.bytes());
      if (hex.size() != 32) return hex;
      return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
             hex.substr(16, 4) + "-" + hex.substr(20);
    }
    default:
      return HexLower(l.bytes());
  }
}

/// Appendix D bytes of a value of `type` as text; the hex bytes when they do not decode.
std::string BoundText(std::string_view bytes, const iceberg::Type* type) {
  if (type == nullptr) return HexLower(bytes);
  auto decoded = iceberg::DecodeSingleValue(bytes, *type);
  if (!decoded.ok()) return HexLower(bytes);
  return LiteralText(*decoded);
}

/// map(integer, varchar) of bounds, decoded with the current schema's column types.
Value BoundsMap(const std::map<int32_t, std::string>& bounds, const iceberg::Schema& schema) {
  static const TypePtr kType = columnar::Map(columnar::Int32(), columnar::String());
  if (bounds.empty()) return Value::Null(kType);
  std::vector<std::pair<Value, Value>> entries;
  for (const auto& [id, bytes] : bounds) {
    const iceberg::NestedField* f = schema.FindFieldById(id);
    entries.emplace_back(Int(id), Text(BoundText(bytes, f ? f->type.get() : nullptr)));
  }
  return MapOf(kType, std::move(entries));
}

/// A partition value as a Value of the columnar type of its partition field.
Value LiteralValue(const std::optional<iceberg::Literal>& l, const TypePtr& type) {
  if (!l.has_value() || l->is_null()) return Value::Null(type);
  switch (type->id()) {
    case TypeId::kBoolean:
      return Value(type, l->bool_value());
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kDate32:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return Value(type, l->int_value());
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return Value(type, l->double_value());
    case TypeId::kDecimal128:
      return Value(type, l->decimal_value());
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      return Value(type, l->bytes());
    default:
      return Value::Null(type);
  }
}

// --- materializing ---

Status AppendValue(columnar::ColumnBuilder& b, const Value& v) {
  if (v.is_null()) return b.AppendNull();
  const TypePtr& type = b.type();
  switch (type->id()) {
    case TypeId::kBoolean:
      return static_cast<columnar::BooleanBuilder&>(b).Append(v.bool_value());
    case TypeId::kInt32:
    case TypeId::kDate32:
      return static_cast<columnar::Int32Builder&>(b).Append(static_cast<int32_t>(v.int_value()));
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return static_cast<columnar::Int64Builder&>(b).Append(v.int_value());
    case TypeId::kInt8:
      return static_cast<columnar::Int8Builder&>(b).Append(static_cast<int8_t>(v.int_value()));
    case TypeId::kInt16:
      return static_cast<columnar::Int16Builder&>(b).Append(static_cast<int16_t>(v.int_value()));
    case TypeId::kFloat32:
      return static_cast<columnar::Float32Builder&>(b).Append(static_cast<float>(v.double_value()));
    case TypeId::kFloat64:
      return static_cast<columnar::Float64Builder&>(b).Append(v.double_value());
    case TypeId::kDecimal128:
      return static_cast<columnar::Decimal128Builder&>(b).Append(v.decimal_value());
    case TypeId::kString:
    case TypeId::kBinary:
      return static_cast<columnar::BinaryBuilder&>(b).Append(v.string_value());
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      return static_cast<columnar::FixedSizeBinaryBuilder&>(b).Append(v.string_value());
    case TypeId::kList: {
      auto& list = static_cast<columnar::ListBuilder&>(b);
      SQE_RETURN_NOT_OK(list.Append());
      for (const Value& e : v.elements()) SQE_RETURN_NOT_OK(AppendValue(*list.value_builder(), e));
      return Status::OK();
    }
    case TypeId::kStruct: {
      auto& row = static_cast<columnar::StructBuilder&>(b);
      SQE_RETURN_NOT_OK(row.Append());
      const Value::Elements& e = v.elements();
      for (int i = 0; i < row.num_fields(); ++i) {
        SQE_RETURN_NOT_OK(AppendValue(*row.field_builder(i), e.at(static_cast<size_t>(i))));
      }
      return Status::OK();
    }
    case TypeId::kMap: {
      auto& map = static_cast<columnar::MapBuilder&>(b);
      SQE_RETURN_NOT_OK(map.Append());
      for (const Value& entry : v.elements()) {
        SQE_RETURN_NOT_OK(AppendValue(*map.key_builder(), entry.elements().at(0)));
        SQE_RETURN_NOT_OK(AppendValue(*map.item_builder(), entry.elements().at(1)));
      }
      return Status::OK();
    }
    default:
      break;
  }
  return Status::NotImplemented("metadata table values of type " + type->ToString());
}

Result<MetadataTableRows> Materialize(const Rows& table) {
  std::vector<Field> fields;
  for (const Field& f : table.fields) fields.push_back(f.WithNullable(true));
  columnar::SchemaPtr schema = columnar::Schema::Make(std::move(fields));
  std::vector<columnar::Column> columns;
  for (size_t c = 0; c < table.fields.size(); ++c) {
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<columnar::ColumnBuilder> b,
                         columnar::MakeBuilder(table.fields[c].type()));
    for (const std::vector<Value>& row : table.rows) SQE_RETURN_NOT_OK(AppendValue(*b, row[c]));
    SQE_ASSIGN_OR_RETURN(columnar::Column column, b->Finish());
    columns.push_back(std::move(column));
  }
  SQE_ASSIGN_OR_RETURN(
      columnar::Batch batch,
      columnar::Batch::Make(schema, std::move(columns), static_cast<int64_t>(table.rows.size())));
  std::vector<columnar::Batch> batches;
  if (batch.num_rows() > 0) batches.push_back(std::move(batch));
  return MetadataTableRows(schema, std::move(batches));
}

// --- the tables ---

Rows Snapshots(const iceberg::TableMetadata& m) {
  static const TypePtr kSummary = columnar::Map(columnar::String(), columnar::String());
  Rows t;
  t.fields = {
      Field("committed_at", columnar::TimestampTz()), Field("snapshot_id", columnar::Int64()),
      Field("parent_id", columnar::Int64()),          Field("operation", columnar::String()),
      Field("manifest_list", columnar::String()),     Field("summary", kSummary)};
  for (const iceberg::Snapshot& s : m.snapshots) {
    std::vector<std::pair<Value, Value>> summary;
    for (const auto& [k, v] : s.summary) {
      if (k != "operation") summary.emplace_back(Text(k), Text(v));
    }
    const std::string operation = s.Operation();
    t.rows.push_back(
        {Millis(s.timestamp_ms), Long(s.snapshot_id), OptionalLong(s.parent_snapshot_id),
         operation.empty() ? Value::Null(columnar::String()) : Text(operation),
         s.manifest_list.empty() ? Value::Null(columnar::String()) : Text(s.manifest_list),
         MapOf(kSummary, std::move(summary))});
  }
  return t;
}

/// The current snapshot and its ancestors (parent links followed while they exist).
std::set<int64_t> CurrentAncestors(const iceberg::TableMetadata& m) {
  std::set<int64_t> out;
  for (const iceberg::Snapshot* s = m.CurrentSnapshot(); s != nullptr;) {
    if (!out.insert(s->snapshot_id).second) break;  // a cycle in corrupt metadata
    s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr;
  }
  return out;
}

Rows History(const iceberg::TableMetadata& m) {
  Rows t;
  t.fields = {Field("made_current_at", columnar::TimestampTz()),
              Field("snapshot_id", columnar::Int64()), Field("parent_id", columnar::Int64()),
              Field("is_current_ancestor", columnar::Boolean())};
  const std::set<int64_t> ancestors = CurrentAncestors(m);
  for (const iceberg::SnapshotLogEntry& e : m.snapshot_log) {
    const iceberg::Snapshot* s = m.SnapshotById(e.snapshot_id);
    t.rows.push_back({Millis(e.timestamp_ms), Long(e.snapshot_id),
                      OptionalLong(s ? s->parent_snapshot_id : std::nullopt),
                      Value::Boolean(ancestors.count(e.snapshot_id) > 0)});
  }
  return t;
}

Rows Refs(const iceberg::TableMetadata& m) {
  Rows t;
  t.fields = {Field("name", columnar::String()),
              Field("type", columnar::String()),
              Field("snapshot_id", columnar::Int64()),
              Field("max_reference_age_in_ms", columnar::Int64()),
              Field("min_snapshots_to_keep", columnar::Int32()),
              Field("max_snapshot_age_in_ms", columnar::Int64())};
  for (const auto& [name, ref] : m.refs) {
    t.rows.push_back({Text(name), Text(ref.is_branch() ? "BRANCH" : "TAG"), Long(ref.snapshot_id),
                      OptionalLong(ref.max_ref_age_ms), OptionalInt(ref.min_snapshots_to_keep),
                      OptionalLong(ref.max_snapshot_age_ms)});
  }
  return t;
}

Rows Properties(const iceberg::TableMetadata& m) {
  Rows t;
  t.fields = {Field("key", columnar::String()), Field("value", columnar::String())};
  for (const auto& [k, v] : m.properties) t.rows.push_back({Text(k), Text(v)});
  return t;
}

/// Reads the current snapshot's manifest list (empty for a table without snapshots).
Result<std::vector<iceberg::ManifestFile>> CurrentManifests(const iceberg::TableMetadata& m,
                                                            iceberg::ManifestSource& source) {
  const iceberg::Snapshot* s = m.CurrentSnapshot();
  if (s == nullptr) return std::vector<iceberg::ManifestFile>();
  return source.ReadManifestList(*s);
}

Result<Rows> Manifests(const iceberg::TableMetadata& m, iceberg::ManifestSource& source) {
  static const TypePtr kSummary = columnar::Struct(
      {Field("contains_null", columnar::Boolean()), Field("contains_nan", columnar::Boolean()),
       Field("lower_bound", columnar::String()), Field("upper_bound", columnar::String())});
  static const TypePtr kSummaries = columnar::List(kSummary);
  Rows t;
  t.fields = {Field("content", columnar::Int32()),
              Field("path", columnar::String()),
              Field("length", columnar::Int64()),
              Field("partition_spec_id", columnar::Int32()),
              Field("added_snapshot_id", columnar::Int64()),
              Field("added_data_files_count", columnar::Int32()),
              Field("added_rows_count", columnar::Int64()),
              Field("existing_data_files_count", columnar::Int32()),
              Field("existing_rows_count", columnar::Int64()),
              Field("deleted_data_files_count", columnar::Int32()),
              Field("deleted_rows_count", columnar::Int64()),
              Field("added_delete_files_count", columnar::Int32()),
              Field("existing_delete_files_count", columnar::Int32()),
              Field("deleted_delete_files_count", columnar::Int32()),
              Field("partition_summaries", kSummaries)};
  SQE_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestFile> manifests, CurrentManifests(m, source));
  const iceberg::Schema* schema = m.CurrentSchema();
  for (const iceberg::ManifestFile& f : manifests) {
    const bool data = f.content == iceberg::ManifestContent::kData;
    const Value zero = Int(0);
    // The summaries' bounds are values of the partition fields' result types.
    std::vector<const iceberg::Type*> types;
    iceberg::TypePtr partition_type;
    const iceberg::PartitionSpec* spec = m.SpecById(f.partition_spec_id);
    if (spec != nullptr && schema != nullptr) {
      auto pt = spec->PartitionType(*schema);
      if (pt.ok()) partition_type = *pt;
    }
    std::vector<Value> summaries;
    for (size_t i = 0; i < f.partitions.size(); ++i) {
      const iceberg::PartitionFieldSummary& p = f.partitions[i];
      const iceberg::Type* type = partition_type && i < partition_type->fields().size()
                                      ? partition_type->fields()[i].type.get()
                                      : nullptr;
      summaries.push_back(Nested(
          kSummary,
          {Value::Boolean(p.contains_null),
           p.contains_nan ? Value::Boolean(*p.contains_nan) : Value::Null(columnar::Boolean()),
           p.lower_bound ? Text(BoundText(*p.lower_bound, type)) : Value::Null(columnar::String()),
           p.upper_bound ? Text(BoundText(*p.upper_bound, type))
                         : Value::Null(columnar::String())}));
    }
    t.rows.push_back(
        {Int(static_cast<int32_t>(f.content)), Text(f.manifest_path), Long(f.manifest_length),
         Int(f.partition_spec_id), Long(f.added_snapshot_id),
         data ? OptionalInt(f.added_files_count) : zero, OptionalLong(f.added_rows_count),
         data ? OptionalInt(f.existing_files_count) : zero, OptionalLong(f.existing_rows_count),
         data ? OptionalInt(f.deleted_files_count) : zero, OptionalLong(f.deleted_rows_count),
         data ? zero : OptionalInt(f.added_files_count),
         data ? zero : OptionalInt(f.existing_files_count),
         data ? zero : OptionalInt(f.deleted_files_count),
         Nested(kSummaries, std::move(summaries))});
  }
  return t;
}

/// The partition row of every spec of the table: the union of their partition fields by
/// field id (as Iceberg's Partitioning.partitionType), typed against the current schema.
/// Empty when no spec has a field.
struct PartitionRow {
  std::vector<int32_t> field_ids;
  TypePtr type;  // struct, nullptr when unpartitioned

  /// The row of `file`'s partition tuple written with `spec`.
  Value Of(const iceberg::DataFile& file, const iceberg::PartitionSpec* spec) const {
    std::vector<Value> values;
    for (size_t i = 0; i < field_ids.size(); ++i) {
      const TypePtr& ft = type->field(static_cast<int>(i)).type();
      std::optional<iceberg::Literal> v;
      if (spec != nullptr) {
        const auto& fields = spec->fields();
        for (size_t k = 0; k < fields.size() && k < file.partition.size(); ++k) {
          if (fields[k].field_id == field_ids[i]) v = file.partition[k];
        }
      }
      values.push_back(LiteralValue(v, ft));
    }
    return Nested(type, std::move(values));
  }
};

PartitionRow TablePartitionRow(const iceberg::TableMetadata& m) {
  PartitionRow row;
  const iceberg::Schema* schema = m.CurrentSchema();
  if (schema == nullptr) return row;
  std::vector<Field> fields;
  for (const iceberg::PartitionSpec& spec : m.partition_specs) {
    auto pt = spec.PartitionType(*schema);
    if (!pt.ok()) continue;  // a spec over a dropped column
    for (const iceberg::NestedField& f : (*pt)->fields()) {
      if (std::find(row.field_ids.begin(), row.field_ids.end(), f.id) != row.field_ids.end()) {
        continue;
      }
      auto type = iceberg::ToColumnarType(*f.type, f.name);
      if (!type.ok()) continue;
      row.field_ids.push_back(f.id);
      fields.emplace_back(f.name, *type, true);
    }
  }
  if (!fields.empty()) row.type = columnar::Struct(std::move(fields));
  return row;
}

/// The live entries (ADDED or EXISTING) of every manifest of the current snapshot, with the
/// spec id of the manifest each came from.
Result<std::vector<std::pair<iceberg::ManifestEntry, int32_t>>> LiveEntries(
    const iceberg::TableMetadata& m, iceberg::ManifestSource& source) {
  std::vector<std::pair<iceberg::ManifestEntry, int32_t>> out;
  const iceberg::Schema* schema = m.CurrentSchema();
  if (schema == nullptr) return out;
  SQE_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestFile> manifests, CurrentManifests(m, source));
  for (const iceberg::ManifestFile& f : manifests) {
    const iceberg::PartitionSpec* spec = m.SpecById(f.partition_spec_id);
    if (spec == nullptr) {
      return Status::Corruption("manifest " + f.manifest_path + " names partition spec " +
                                std::to_string(f.partition_spec_id) + ", which the table lacks");
    }
    SQE_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestEntry> entries,
                         source.ReadEntries(f, *spec, *schema));
    for (iceberg::ManifestEntry& e : entries) {
      if (e.status == iceberg::ManifestStatus::kDeleted) continue;
      out.emplace_back(std::move(e), f.partition_spec_id);
    }
  }
  return out;
}

Result<Rows> Files(const iceberg::TableMetadata& m, iceberg::ManifestSource& source) {
  const PartitionRow partition = TablePartitionRow(m);
  Rows t;
  t.fields = {Field("content", columnar::Int32()), Field("file_path", columnar::String()),
              Field("file_format", columnar::String()), Field("spec_id", columnar::Int32())};
  if (partition.type) t.fields.emplace_back("partition", partition.type);
  const TypePtr counts = columnar::Map(columnar::Int32(), columnar::Int64());
  const TypePtr bounds = columnar::Map(columnar::Int32(), columnar::String());
  for (Field f : {Field("record_count", columnar::Int64()),
                  Field("file_size_in_bytes", columnar::Int64()), Field("column_sizes", counts),
                  Field("value_counts", counts), Field("null_value_counts", counts),
                  Field("nan_value_counts", counts), Field("lower_bounds", bounds),
                  Field("upper_bounds", bounds), Field("key_metadata", columnar::Binary()),
                  Field("split_offsets", columnar::List(columnar::Int64())),
                  Field("equality_ids", columnar::List(columnar::Int32())),
                  Field("sort_order_id", columnar::Int32())}) {
    t.fields.push_back(std::move(f));
  }
  SQE_ASSIGN_OR_RETURN(auto entries, LiveEntries(m, source));
  const iceberg::Schema& schema = *m.CurrentSchema();
  for (const auto& [entry, spec_id] : entries) {
    const iceberg::DataFile& d = entry.data_file;
    std::vector<Value> row = {Int(static_cast<int32_t>(d.content)), Text(d.file_path),
                              Text(std::string(iceberg::FileFormatName(d.file_format))),
                              Int(spec_id)};
    if (partition.type) row.push_back(partition.Of(d, m.SpecById(spec_id)));
    row.push_back(Long(d.record_count));
    row.push_back(Long(d.file_size_in_bytes));
    row.push_back(CountsMap(d.column_sizes));
    row.push_back(CountsMap(d.value_counts));
    row.push_back(CountsMap(d.null_value_counts));
    row.push_back(CountsMap(d.nan_value_counts));
    row.push_back(BoundsMap(d.lower_bounds, schema));
    row.push_back(BoundsMap(d.upper_bounds, schema));
    row.push_back(d.key_metadata ? Value(columnar::Binary(), *d.key_metadata)
                                 : Value::Null(columnar::Binary()));
    row.push_back(ListOf(columnar::Int64(), d.split_offsets));
    row.push_back(ListOf(columnar::Int32(), d.equality_ids));
    row.push_back(OptionalInt(d.sort_order_id));
    t.rows.push_back(std::move(row));
  }
  return t;
}

Result<Rows> Partitions(const iceberg::TableMetadata& m, iceberg::ManifestSource& source) {
  const PartitionRow partition = TablePartitionRow(m);
  Rows t;
  if (partition.type) t.fields.emplace_back("partition", partition.type);
  t.fields.emplace_back("record_count", columnar::Int64());
  t.fields.emplace_back("file_count", columnar::Int64());
  t.fields.emplace_back("total_size", columnar::Int64());
  SQE_ASSIGN_OR_RETURN(auto entries, LiveEntries(m, source));
  struct Totals {
    Value partition;
    int64_t records = 0;
    int64_t files = 0;
    int64_t bytes = 0;
  };
  // Keyed by the partition row's SQL text, which is unique per value.
  std::map<std::string, Totals> groups;
  for (const auto& [entry, spec_id] : entries) {
    const iceberg::DataFile& d = entry.data_file;
    if (d.content != iceberg::FileContent::kData) continue;
    Value p = partition.type ? partition.Of(d, m.SpecById(spec_id)) : Value();
    std::string key = partition.type ? p.ToSql() : "";
    Totals& g = groups[key];
    if (g.files == 0) g.partition = std::move(p);
    g.records += d.record_count;
    g.files += 1;
    g.bytes += d.file_size_in_bytes;
  }
  for (auto& [key, g] : groups) {
    std::vector<Value> row;
    if (partition.type) row.push_back(g.partition);
    row.push_back(Long(g.records));
    row.push_back(Long(g.files));
    row.push_back(Long(g.bytes));
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

std::optional<std::pair<std::string, std::string>> SplitMetadataTableName(std::string_view name) {
  const size_t dollar = name.find('$');
  if (dollar == std::string_view::npos) return std::nullopt;
  return std::make_pair(std::string(name.substr(0, dollar)), std::string(name.substr(dollar + 1)));
}

const std::vector<std::string>& MetadataTableKinds() {
  static const std::vector<std::string> kKinds = {"snapshots",  "history", "manifests", "files",
                                                  "partitions", "refs",    "properties"};
  return kKinds;
}

Result<MetadataTableRows> IcebergMetadataTable(const catalog::LoadedTable& table,
                                               io::FileSystem& fs, const std::string& kind,
                                               const std::string& shown) {
  if (!table.metadata) return Status::Internal("table '" + shown + "' was not loaded");
  const iceberg::TableMetadata& m = *table.metadata;
  iceberg::FileManifestSource source(fs);
  auto build = [&]() -> Result<Rows> {
    if (kind == "snapshots") return Snapshots(m);
    if (kind == "history") return History(m);
    if (kind == "refs") return Refs(m);
    if (kind == "properties") return Properties(m);
    if (kind == "manifests") return Manifests(m, source);
    if (kind == "files") return Files(m, source);
    if (kind == "partitions") return Partitions(m, source);
    std::string kinds;
    for (const std::string& k : MetadataTableKinds()) kinds += (kinds.empty() ? "$" : ", $") + k;
    return Status::NotFound("Iceberg metadata table '$" + kind + "' of table '" + shown +
                            "' does not exist (metadata tables: " + kinds + ")");
  };
  Result<Rows> rows = build();
  if (!rows.ok() && rows.status().code() == StatusCode::kNotFound) return rows.status();
  if (!rows.ok()) return rows.status().WithContext("metadata table " + shown + "$" + kind);
  return Materialize(*rows);
}

}  // namespace sqe::engine
