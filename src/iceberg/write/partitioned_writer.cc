#include "iceberg/write/partitioned_writer.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "columnar/civil_time.h"
#include "columnar/take.h"
#include "common/hex.h"
#include "common/uuid.h"
#include "formats/avro/avro_json.h"
#include "iceberg/column_literal.h"
#include "iceberg/manifest/single_value.h"
#include "iceberg/murmur3.h"
#include "net/url_encoding.h"

// GCC 12 reports the std::variant inside Literal as "maybe uninitialized" when a Literal
// is copied into an optional (the false positive transforms.cc notes too).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace sqe::iceberg {

namespace {

constexpr int64_t kMicrosPerHour = 3600LL * 1000 * 1000;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
// Rows written between two checks of a file's size against the target.
constexpr int64_t kRollCheckRows = 1024;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool IsNanos(TypeId id) { return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs; }

bool IsTimestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || IsNanos(id);
}

// Types whose columnar values are int32 or int64 and whose literals hold int_value().
bool IsInt32Physical(TypeId id) { return id == TypeId::kInt || id == TypeId::kDate; }
bool IsIntPhysical(TypeId id) {
  return IsInt32Physical(id) || id == TypeId::kLong || id == TypeId::kTime || IsTimestamp(id);
}
bool IsVarBinary(TypeId id) { return id == TypeId::kString || id == TypeId::kBinary; }
bool IsFixedBinary(TypeId id) { return id == TypeId::kUuid || id == TypeId::kFixed; }

Literal IntLiteral(TypeId type, int64_t v) {
  switch (type) {
    case TypeId::kInt:
      return Literal::Int(static_cast<int32_t>(v));
    case TypeId::kDate:
      return Literal::Date(static_cast<int32_t>(v));
    case TypeId::kTime:
      return Literal::Time(v);
    case TypeId::kTimestamp:
      return Literal::Timestamp(v);
    case TypeId::kTimestampTz:
      return Literal::TimestampTz(v);
    case TypeId::kTimestampNs:
      return Literal::TimestampNs(v);
    case TypeId::kTimestampTzNs:
      return Literal::TimestampTzNs(v);
    default:
      return Literal::Long(v);
  }
}

Literal BytesLiteral(TypeId type, std::string_view v) {
  switch (type) {
    case TypeId::kString:
      return Literal::String(std::string(v));
    case TypeId::kUuid:
      return Literal::Uuid(std::string(v));
    case TypeId::kFixed:
      return Literal::Fixed(std::string(v));
    default:
      return Literal::Binary(std::string(v));
  }
}

int32_t HashLong(int64_t v) {
  char bytes[8];
  uint64_t u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((u >> (8 * i)) & 0xff);
  return static_cast<int32_t>(Murmur3X86_32(std::string_view(bytes, 8)));
}

int32_t BucketOf(int32_t hash, int32_t n) {
  return (hash & std::numeric_limits<int32_t>::max()) % n;
}

// The first `width` code points of UTF-8 text, as a view into it.
std::string_view TruncateUtf8(std::string_view s, int32_t width) {
  int64_t points = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) != 0x80) {
      if (points == width) return s.substr(0, i);
      ++points;
    }
  }
  return s;
}

// A partition source column of a batch: the leaf aligned with the batch's rows and the
// structs around it (a null struct makes its fields null).
struct SourceColumn {
  columnar::Column column;
  std::vector<columnar::Column> parents;
  TypePtr type;
};

// The path of struct field indexes from the schema's top level down to field `id`.
bool FindPath(const std::vector<NestedField>& fields, int32_t id, std::vector<int>* path) {
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    path->push_back(i);
    if (fields[i].id == id) return true;
    if (fields[i].type && fields[i].type->id() == TypeId::kStruct &&
        FindPath(fields[i].type->fields(), id, path)) {
      return true;
    }
    path->pop_back();
  }
  return false;
}

Result<SourceColumn> LocateSource(const Schema& schema, const PartitionField& field,
                                  const columnar::Batch& batch) {
  std::vector<int> path;
  if (!FindPath(schema.fields(), field.source_id, &path)) {
    return Status::InvalidArgument("partition field '" + field.name + "' has source column id " +
                                   std::to_string(field.source_id) +
                                   ", which is not a column of the table outside lists and maps");
  }
  if (path[0] >= batch.num_columns()) {
    return Status::InvalidArgument("batch has " + std::to_string(batch.num_columns()) +
                                   " columns; the table schema has " +
                                   std::to_string(schema.fields().size()));
  }
  SourceColumn s;
  s.column = batch.column(path[0]);
  const NestedField* f = &schema.fields()[path[0]];
  for (size_t k = 1; k < path.size(); ++k) {
    s.parents.push_back(s.column);
    s.column = s.column.StructField(path[k]);
    f = &f->type->fields()[path[k]];
  }
  s.type = f->type;
  return s;
}

// One partition field's values over a batch: a dense id per row and the partition value
// each id stands for (ids are handed out in order of first appearance).
struct FieldKeys {
  std::vector<uint32_t> ids;
  std::vector<std::optional<Literal>> values;
};

// Hands out dense ids to values of type K; nulls share one id.
template <typename K, typename MakeValue>
class Densifier {
 public:
  Densifier(FieldKeys* keys, MakeValue make) : keys_(keys), make_(std::move(make)) {}

  uint32_t Null() {
    if (null_id_ < 0) {
      null_id_ = static_cast<int64_t>(keys_->values.size());
      keys_->values.emplace_back(std::nullopt);
    }
    return static_cast<uint32_t>(null_id_);
  }
  uint32_t Of(const K& v) {
    if (has_last_ && v == last_) return last_id_;
    auto [it, inserted] = map_.try_emplace(v, static_cast<uint32_t>(keys_->values.size()));
    if (inserted) keys_->values.emplace_back(make_(v));
    has_last_ = true;
    last_ = v;
    last_id_ = it->second;
    return it->second;
  }

 private:
  FieldKeys* keys_;
  MakeValue make_;
  std::unordered_map<K, uint32_t> map_;
  int64_t null_id_ = -1;
  bool has_last_ = false;
  K last_{};
  uint32_t last_id_ = 0;
};

std::vector<uint8_t> RowValidity(const SourceColumn& s, int64_t n) {
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
  auto apply = [&](const columnar::Column& c) {
    if (c.null_count() == 0) return;
    for (int64_t r = 0; r < n; ++r) {
      if (c.IsNull(r)) valid[r] = 0;
    }
  };
  for (const columnar::Column& p : s.parents) apply(p);
  apply(s.column);
  return valid;
}

// The transform of int-backed source values (int, long, date, time, timestamps) into
// `out` (rows not valid are left 0) and the type id of the result.
Status TransformInts(const Transform& t, TypeId type, const columnar::Column& col,
                     const std::vector<uint8_t>& valid, std::vector<int64_t>* out, TypeId* result) {
  const int64_t n = static_cast<int64_t>(valid.size());
  const bool narrow = IsInt32Physical(type);
  auto value = [&](int64_t r) -> int64_t {
    return narrow ? col.Value<int32_t>(r) : col.Value<int64_t>(r);
  };
  auto micros = [&](int64_t v) { return IsNanos(type) ? FloorDiv(v, 1000) : v; };
  auto days = [&](int64_t v) {
    return type == TypeId::kDate ? v : FloorDiv(micros(v), kMicrosPerDay);
  };
  out->assign(static_cast<size_t>(n), 0);
  int64_t* o = out->data();
  switch (t.kind()) {
    case TransformKind::kIdentity:
      *result = type;
      for (int64_t r = 0; r < n; ++r) o[r] = valid[r] ? value(r) : 0;
      return Status::OK();
    case TransformKind::kBucket:
      *result = TypeId::kInt;
      for (int64_t r = 0; r < n; ++r) {
        if (valid[r]) o[r] = BucketOf(HashLong(micros(value(r))), t.param());
      }
      return Status::OK();
    case TransformKind::kTruncate: {
      *result = type;
      const __int128 w = t.param();
      for (int64_t r = 0; r < n; ++r) {
        if (!valid[r]) continue;
        __int128 v = value(r);
        __int128 truncated = v - (((v % w) + w) % w);
        // Java wraps a result that falls below the type's minimum; so does Transform::Apply.
        o[r] = narrow
                   ? static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(truncated)))
                   : static_cast<int64_t>(static_cast<uint64_t>(truncated));
      }
      return Status::OK();
    }
    case TransformKind::kYear:
    case TransformKind::kMonth: {
      *result = TypeId::kInt;
      const bool year = t.kind() == TransformKind::kYear;
      int64_t last_days = std::numeric_limits<int64_t>::min();
      int64_t last = 0;
      for (int64_t r = 0; r < n; ++r) {
        if (!valid[r]) continue;
        int64_t d = days(value(r));
        if (d != last_days) {
          columnar::CivilDate c = columnar::CivilFromDays(d);
          last = year ? c.year - 1970 : (c.year - 1970) * 12 + (c.month - 1);
          last_days = d;
        }
        o[r] = last;
      }
      return Status::OK();
    }
    case TransformKind::kDay:
      *result = TypeId::kDate;
      for (int64_t r = 0; r < n; ++r) {
        if (!valid[r]) continue;
        o[r] = days(value(r));
        if (o[r] < std::numeric_limits<int32_t>::min() ||
            o[r] > std::numeric_limits<int32_t>::max()) {
          return Status::InvalidArgument("day value out of range");
        }
      }
      return Status::OK();
    case TransformKind::kHour:
      *result = TypeId::kInt;
      for (int64_t r = 0; r < n; ++r) {
        if (!valid[r]) continue;
        o[r] = FloorDiv(micros(value(r)), kMicrosPerHour);
        if (o[r] < std::numeric_limits<int32_t>::min() ||
            o[r] > std::numeric_limits<int32_t>::max()) {
          return Status::InvalidArgument("hour value " + std::to_string(o[r]) +
                                         " does not fit an int partition value");
        }
      }
      return Status::OK();
    default:
      return Status::Internal("transform " + t.ToString() + " has no int path");
  }
}

void DensifyInts(const std::vector<int64_t>& values, const std::vector<uint8_t>& valid,
                 TypeId result, FieldKeys* keys) {
  Densifier<int64_t, std::function<Literal(int64_t)>> d(
      keys, [result](int64_t v) { return IntLiteral(result, v); });
  for (size_t r = 0; r < values.size(); ++r) keys->ids[r] = valid[r] ? d.Of(values[r]) : d.Null();
}

// Row `r` of a string/binary or fixed/uuid column.
std::string_view BytesAt(const columnar::Column& col, TypeId type, int64_t r) {
  return IsVarBinary(type) ? col.StringAt(r) : col.FixedSizeBinaryAt(r);
}

// A canonical byte key of a non-null literal of `type` (its Appendix D bytes).
Result<std::string> LiteralKey(const Literal& v, const Type& type) {
  return EncodeSingleValue(v, type);
}

Result<FieldKeys> ComputeFieldKeys(const PartitionField& field, const TypePtr& result_type,
                                   const SourceColumn& src, int64_t n) {
  FieldKeys keys;
  keys.ids.assign(static_cast<size_t>(n), 0);
  const Transform& t = field.transform;
  const TypeId type = src.type->id();
  if (t.kind() == TransformKind::kVoid) {
    if (n > 0) keys.values.emplace_back(std::nullopt);
    return keys;
  }
  std::vector<uint8_t> valid = RowValidity(src, n);
  if (IsIntPhysical(type)) {
    std::vector<int64_t> values;
    TypeId result = TypeId::kUnknown;
    SQE_RETURN_NOT_OK(TransformInts(t, type, src.column, valid, &values, &result));
    DensifyInts(values, valid, result, &keys);
    return keys;
  }
  if (IsVarBinary(type) || IsFixedBinary(type)) {
    if (t.kind() == TransformKind::kBucket) {
      std::vector<int64_t> values(static_cast<size_t>(n), 0);
      for (int64_t r = 0; r < n; ++r) {
        if (valid[r]) {
          values[r] = BucketOf(static_cast<int32_t>(Murmur3X86_32(BytesAt(src.column, type, r))),
                               t.param());
        }
      }
      DensifyInts(values, valid, TypeId::kInt, &keys);
      return keys;
    }
    if (t.kind() == TransformKind::kIdentity || t.kind() == TransformKind::kTruncate) {
      const bool truncate = t.kind() == TransformKind::kTruncate;
      const size_t width = static_cast<size_t>(t.param());
      Densifier<std::string_view, std::function<Literal(std::string_view)>> d(
          &keys, [type](std::string_view v) { return BytesLiteral(type, v); });
      for (int64_t r = 0; r < n; ++r) {
        if (!valid[r]) {
          keys.ids[r] = d.Null();
          continue;
        }
        std::string_view v = BytesAt(src.column, type, r);
        if (truncate) {
          v = type == TypeId::kString ? TruncateUtf8(v, t.param()) : v.substr(0, width);
        }
        keys.ids[r] = d.Of(v);
      }
      return keys;
    }
  }
  // Everything else (boolean, float, double, decimal) goes value by value.
  std::unordered_map<std::string, uint32_t> ids;
  int64_t null_id = -1;
  for (int64_t r = 0; r < n; ++r) {
    if (!valid[r]) {
      if (null_id < 0) {
        null_id = static_cast<int64_t>(keys.values.size());
        keys.values.emplace_back(std::nullopt);
      }
      keys.ids[r] = static_cast<uint32_t>(null_id);
      continue;
    }
    SQE_ASSIGN_OR_RETURN(Literal in, LiteralAt(src.column, r, *src.type));
    SQE_ASSIGN_OR_RETURN(Literal out, t.Apply(in));
    SQE_ASSIGN_OR_RETURN(std::string key, LiteralKey(out, *result_type));
    auto [it, inserted] =
        ids.try_emplace(std::move(key), static_cast<uint32_t>(keys.values.size()));
    if (inserted) keys.values.emplace_back(std::move(out));
    keys.ids[r] = it->second;
  }
  return keys;
}

std::string Two(int64_t v) {
  std::string s = std::to_string(v);
  return s.size() < 2 ? "0" + s : s;
}

// Java's human form of a timestamp: "2024-01-15T10:00:00", fraction only when present.
std::string HumanTimestamp(int64_t ticks, bool nanos, bool zoned) {
  const int64_t per_second = nanos ? 1000000000 : 1000000;
  int64_t seconds = FloorDiv(ticks, per_second);
  int64_t fraction = ticks - seconds * per_second;
  int64_t days = FloorDiv(seconds, 86400);
  int64_t in_day = seconds - days * 86400;
  std::string out = columnar::FormatDate(days) + "T" + Two(in_day / 3600) + ":" +
                    Two(in_day / 60 % 60) + ":" + Two(in_day % 60);
  if (fraction != 0) {
    std::string f = std::to_string(fraction);
    f.insert(0, (nanos ? 9 : 6) - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    out += "." + f;
  }
  if (zoned) out += "Z";
  return out;
}

// Iceberg's Transform.toHumanString for a partition value.
std::string HumanValue(const Transform& t, const std::optional<Literal>& value) {
  if (!value || value->is_null()) return "null";
  const Literal& v = *value;
  switch (t.kind()) {
    case TransformKind::kYear:
      return std::to_string(1970 + v.int_value());
    case TransformKind::kMonth: {
      int64_t m = v.int_value();
      int64_t year = 1970 + FloorDiv(m, 12);
      return std::to_string(year) + "-" + Two(m - FloorDiv(m, 12) * 12 + 1);
    }
    case TransformKind::kHour: {
      int64_t h = v.int_value();
      int64_t days = FloorDiv(h, 24);
      return columnar::FormatDate(days) + "-" + Two(h - days * 24);
    }
    default:
      break;
  }
  switch (v.type()) {
    case TypeId::kDate:
      return columnar::FormatDate(v.int_value());
    case TypeId::kTime: {
      std::string s = HumanTimestamp(v.int_value(), false, false);
      return s.substr(s.find('T') + 1);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampTzNs:
      return HumanTimestamp(v.int_value(), IsNanos(v.type()),
                            v.type() == TypeId::kTimestampTz || v.type() == TypeId::kTimestampTzNs);
    case TypeId::kString:
      return v.bytes();
    case TypeId::kUuid:
      return UuidText(v.bytes());
    case TypeId::kBinary:
    case TypeId::kFixed:
      return avro::Base64Encode(v.bytes());
    case TypeId::kFloat:
    case TypeId::kDouble: {
      char buf[64];
      auto [end, ec] =
          v.type() == TypeId::kFloat
              ? std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v.double_value()))
              : std::to_chars(buf, buf + sizeof(buf), v.double_value());
      return ec == std::errc() ? std::string(buf, end) : v.ToString();
    }
    default:
      return v.ToString();
  }
}

// A byte key that is equal for two partition tuples exactly when they are equal.
std::string TupleKey(const std::vector<std::optional<Literal>>& partition) {
  std::string key;
  for (const std::optional<Literal>& v : partition) {
    if (!v || v->is_null()) {
      key.push_back('\0');
      continue;
    }
    key.push_back('\1');
    key.push_back(static_cast<char>(v->type()));
    std::string bytes;
    switch (v->type()) {
      case TypeId::kBoolean:
        bytes = v->bool_value() ? "1" : "0";
        break;
      case TypeId::kFloat:
      case TypeId::kDouble: {
        double d = v->double_value();
        bytes.assign(reinterpret_cast<const char*>(&d), sizeof(d));
        break;
      }
      case TypeId::kDecimal: {
        columnar::Decimal128 d = v->decimal_value();
        bytes = std::to_string(v->scale()) + ":" + d.ToString(0);
        break;
      }
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kFixed:
      case TypeId::kUuid:
        bytes = v->bytes();
        break;
      default: {
        int64_t i = v->int_value();
        bytes.assign(reinterpret_cast<const char*>(&i), sizeof(i));
      }
    }
    uint32_t size = static_cast<uint32_t>(bytes.size());
    key.append(reinterpret_cast<const char*>(&size), sizeof(size));
    key += bytes;
  }
  return key;
}

}  // namespace

Result<std::vector<PartitionGroup>> GroupByPartition(const Schema& schema,
                                                     const PartitionSpec& spec,
                                                     const columnar::Batch& batch) {
  const int64_t n = batch.num_rows();
  std::vector<PartitionGroup> groups;
  if (n == 0) return groups;
  if (n > std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("a batch of " + std::to_string(n) + " rows is too large");
  }
  if (spec.fields().empty()) {
    groups.push_back({{}, columnar::SelectionVector::Range(0, static_cast<uint32_t>(n))});
    return groups;
  }
  SQE_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  std::vector<FieldKeys> fields;
  for (size_t f = 0; f < spec.fields().size(); ++f) {
    const PartitionField& field = spec.fields()[f];
    SQE_ASSIGN_OR_RETURN(SourceColumn src, LocateSource(schema, field, batch));
    SQE_ASSIGN_OR_RETURN(FieldKeys keys,
                         ComputeFieldKeys(field, partition_type->fields()[f].type, src, n));
    fields.push_back(std::move(keys));
  }
  // Combine the fields' ids into one dense id per row, field by field.
  std::vector<uint32_t> combined = fields[0].ids;
  uint32_t count = static_cast<uint32_t>(fields[0].values.size());
  for (size_t f = 1; f < fields.size(); ++f) {
    if (fields[f].values.size() == 1) continue;  // one value: nothing to split
    std::unordered_map<uint64_t, uint32_t> pairs;
    for (int64_t r = 0; r < n; ++r) {
      uint64_t key = (static_cast<uint64_t>(combined[r]) << 32) | fields[f].ids[r];
      combined[r] = pairs.try_emplace(key, static_cast<uint32_t>(pairs.size())).first->second;
    }
    count = static_cast<uint32_t>(pairs.size());
  }
  groups.resize(count);
  std::vector<uint8_t> seen(count, 0);
  for (int64_t r = 0; r < n; ++r) {
    PartitionGroup& g = groups[combined[r]];
    if (!seen[combined[r]]) {
      seen[combined[r]] = 1;
      for (const FieldKeys& k : fields) g.partition.push_back(k.values[k.ids[r]]);
    }
    g.rows.Append(static_cast<uint32_t>(r));
  }
  return groups;
}

Result<std::string> PartitionPath(const PartitionSpec& spec, const Schema& schema,
                                  const std::vector<std::optional<Literal>>& partition) {
  (void)schema;
  if (partition.size() != spec.fields().size()) {
    return Status::InvalidArgument("partition tuple has " + std::to_string(partition.size()) +
                                   " values; spec " + std::to_string(spec.spec_id()) + " has " +
                                   std::to_string(spec.fields().size()) + " fields");
  }
  std::string path;
  for (size_t f = 0; f < partition.size(); ++f) {
    const PartitionField& field = spec.fields()[f];
    if (f > 0) path += "/";
    path += net::FormUrlEncode(field.name) + "=" +
            net::FormUrlEncode(HumanValue(field.transform, partition[f]));
  }
  return path;
}

Result<std::unique_ptr<PartitionedWriter>> PartitionedWriter::Make(
    io::FileSystem& fs, const std::string& table_location, const Schema& schema,
    const PartitionSpec& spec, PartitionedWriterOptions options) {
  if (options.max_open_writers < 1) {
    return Status::InvalidArgument("max_open_writers must be at least 1, not " +
                                   std::to_string(options.max_open_writers));
  }
  if (!spec.fields().empty()) SQE_RETURN_NOT_OK(spec.PartitionType(schema).status());
  for (const PartitionField& field : spec.fields()) {
    std::vector<int> path;
    if (!FindPath(schema.fields(), field.source_id, &path)) {
      return Status::InvalidArgument(
          "partition field '" + field.name + "' has a source column (id " +
          std::to_string(field.source_id) + ") outside the table's top-level columns and structs");
    }
  }
  std::unique_ptr<PartitionedWriter> w(new PartitionedWriter(fs, schema, spec, std::move(options)));
  const auto& props = w->options_.file.table_properties;
  if (w->options_.target_file_size_bytes > 0) {
    w->target_file_size_ = w->options_.target_file_size_bytes;
  } else if (auto it = props.find("write.target-file-size-bytes"); it != props.end()) {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
    if (ec != std::errc() || end != it->second.data() + it->second.size() || v <= 0) {
      return Status::InvalidArgument("table property write.target-file-size-bytes = '" +
                                     it->second + "' is not a positive number of bytes");
    }
    w->target_file_size_ = v;
  }
  if (auto it = props.find("write.data.path"); it != props.end() && !it->second.empty()) {
    w->data_location_ = it->second;
  } else {
    std::string location = table_location;
    while (!location.empty() && location.back() == '/') location.pop_back();
    w->data_location_ = location + "/data";
  }
  while (!w->data_location_.empty() && w->data_location_.back() == '/') {
    w->data_location_.pop_back();
  }
  if (!w->options_.file_name) w->options_.file_name = [] { return RandomUuid(); };
  return w;
}

PartitionedWriter::~PartitionedWriter() = default;

Status PartitionedWriter::Write(const columnar::Batch& batch) {
  if (closed_) return Status::InvalidArgument("the partitioned writer is already closed");
  if (batch.num_rows() == 0) return Status::OK();
  if (spec_.fields().empty()) return WriteToPartition("", {}, batch);
  SQE_ASSIGN_OR_RETURN(std::vector<PartitionGroup> groups, GroupByPartition(schema_, spec_, batch));
  if (groups.size() == 1) {
    return WriteToPartition(TupleKey(groups[0].partition), groups[0].partition, batch);
  }
  for (const PartitionGroup& g : groups) {
    SQE_ASSIGN_OR_RETURN(columnar::Batch rows, columnar::Take(batch, g.rows, options_.tracker));
    SQE_RETURN_NOT_OK(WriteToPartition(TupleKey(g.partition), g.partition, rows));
  }
  return Status::OK();
}

Status PartitionedWriter::WriteToPartition(const std::string& key,
                                           const std::vector<std::optional<Literal>>& part,
                                           const columnar::Batch& rows) {
  int64_t offset = 0;
  while (offset < rows.num_rows()) {
    SQE_ASSIGN_OR_RETURN(OpenFile * file, FileFor(key, part));
    int64_t n = std::min(kRollCheckRows, rows.num_rows() - offset);
    SQE_RETURN_NOT_OK(
        file->writer->Write(offset == 0 && n == rows.num_rows() ? rows : rows.Slice(offset, n)));
    offset += n;
    if (file->writer->EstimatedBytes() >= target_file_size_) SQE_RETURN_NOT_OK(Finish(key));
  }
  return Status::OK();
}

Result<PartitionedWriter::OpenFile*> PartitionedWriter::FileFor(
    const std::string& key, const std::vector<std::optional<Literal>>& part) {
  auto it = open_.find(key);
  if (it == open_.end()) {
    if (static_cast<int>(open_.size()) >= options_.max_open_writers) {
      auto oldest = open_.begin();
      for (auto o = open_.begin(); o != open_.end(); ++o) {
        if (o->second.last_used < oldest->second.last_used) oldest = o;
      }
      ++evictions_;
      SQE_RETURN_NOT_OK(Finish(oldest->first));
    }
    std::string dir = data_location_;
    if (!spec_.fields().empty()) {
      SQE_ASSIGN_OR_RETURN(std::string partition_path, PartitionPath(spec_, schema_, part));
      dir += "/" + partition_path;
    }
    std::string path = dir + "/" + options_.file_name() + ".parquet";
    OpenFile file;
    file.partition = part;
    SQE_ASSIGN_OR_RETURN(file.writer,
                         DataFileWriter::Open(fs_, path, schema_, part, options_.file));
    ++files_opened_;
    it = open_.emplace(key, std::move(file)).first;
  }
  it->second.last_used = ++use_clock_;
  return &it->second;
}

Status PartitionedWriter::Finish(const std::string& key) {
  auto it = open_.find(key);
  if (it == open_.end()) return Status::OK();
  std::unique_ptr<DataFileWriter> writer = std::move(it->second.writer);
  open_.erase(it);
  SQE_ASSIGN_OR_RETURN(DataFile f, writer->Close());
  finished_.push_back(std::move(f));
  return Status::OK();
}

Result<std::vector<DataFile>> PartitionedWriter::Close() {
  if (closed_) return Status::InvalidArgument("the partitioned writer is already closed");
  // Least recently used first, so the order does not depend on the map's keys.
  std::vector<std::pair<uint64_t, std::string>> order;
  for (const auto& [key, file] : open_) order.emplace_back(file.last_used, key);
  std::sort(order.begin(), order.end());
  for (const auto& [used, key] : order) SQE_RETURN_NOT_OK(Finish(key));
  closed_ = true;
  return std::move(finished_);
}

void PartitionedWriter::Abort() {
  open_.clear();  // destroying an unclosed DataFileWriter aborts its stream
  std::vector<std::string> paths;
  for (const DataFile& f : finished_) paths.push_back(f.file_path);
  if (!paths.empty()) (void)fs_.Delete(paths);
  finished_.clear();
  closed_ = true;
}

}  // namespace sqe::iceberg
