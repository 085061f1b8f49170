#include "columnar/data_type.h"

#include <cassert>

namespace sqe::columnar {

// Every parameter a type can carry; the factories below fill in the ones they need.
struct TypeParams {
  int32_t precision = 0;
  int32_t scale = 0;
  int32_t byte_width = 0;
  TimeUnit unit = TimeUnit::kMicro;
  bool keys_sorted = false;
  std::string timezone;
  std::vector<Field> fields;
};

struct DataTypeFactory {
  static std::shared_ptr<DataType> New(TypeId id, TypeParams params = {}) {
    std::shared_ptr<DataType> type(new DataType(id));
    type->precision_ = params.precision;
    type->scale_ = params.scale;
    type->byte_width_ = params.byte_width;
    type->unit_ = params.unit;
    type->keys_sorted_ = params.keys_sorted;
    type->timezone_ = std::move(params.timezone);
    type->fields_ = std::move(params.fields);
    return type;
  }
};

namespace {

std::shared_ptr<DataType> New(TypeId id, TypeParams params = {}) {
  return DataTypeFactory::New(id, std::move(params));
}

TypePtr Singleton(TypeId id) {
  // Immutable after construction, so sharing one instance per id is safe.
  static const TypePtr kTypes[] = {
      New(TypeId::kBoolean),
      New(TypeId::kInt8),
      New(TypeId::kInt16),
      New(TypeId::kInt32),
      New(TypeId::kInt64),
      New(TypeId::kFloat32),
      New(TypeId::kFloat64),
      nullptr,
      New(TypeId::kString),
      New(TypeId::kBinary),
      nullptr,
      nullptr,
      New(TypeId::kDate32),
  };
  return kTypes[static_cast<int>(id)];
}

bool IsPlainIdentifier(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(name[0])) return false;
  for (char c : name) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

void AppendFieldName(std::string_view name, std::string* out) {
  if (IsPlainIdentifier(name)) {
    out->append(name);
    return;
  }
  out->push_back('"');
  for (char c : name) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

bool ChildEquals(const Field& a, const Field& b) {
  return a.nullable() == b.nullable() && a.type()->Equals(*b.type());
}

}  // namespace

// ---- Field ------------------------------------------------------------------------

Field::Field(std::string name, TypePtr type, bool nullable, std::optional<int32_t> field_id,
             KeyValueMetadata metadata)
    : name_(std::move(name)),
      type_(std::move(type)),
      nullable_(nullable),
      field_id_(field_id),
      metadata_(std::move(metadata)) {}

Field Field::WithName(std::string name) const {
  Field f = *this;
  f.name_ = std::move(name);
  return f;
}

Field Field::WithType(TypePtr type) const {
  Field f = *this;
  f.type_ = std::move(type);
  return f;
}

Field Field::WithNullable(bool nullable) const {
  Field f = *this;
  f.nullable_ = nullable;
  return f;
}

Field Field::WithFieldId(std::optional<int32_t> field_id) const {
  Field f = *this;
  f.field_id_ = field_id;
  return f;
}

Field Field::WithMetadata(KeyValueMetadata metadata) const {
  Field f = *this;
  f.metadata_ = std::move(metadata);
  return f;
}

std::string Field::ToString() const {
  std::string out;
  AppendFieldName(name_, &out);
  out += ' ';
  out += type_->ToString();
  if (!nullable_) out += " not null";
  return out;
}

bool Field::Equals(const Field& other, bool check_metadata) const {
  if (name_ != other.name_ || nullable_ != other.nullable_ || field_id_ != other.field_id_) {
    return false;
  }
  if (!type_->Equals(*other.type_)) return false;
  return !check_metadata || metadata_ == other.metadata_;
}

// ---- DataType -----------------------------------------------------------------------

Layout DataType::layout() const {
  switch (id_) {
    case TypeId::kBoolean:
      return Layout::kBitmap;
    case TypeId::kString:
    case TypeId::kBinary:
      return Layout::kVarBinary;
    case TypeId::kList:
    case TypeId::kMap:
      return Layout::kList;
    case TypeId::kStruct:
      return Layout::kStruct;
    default:
      return Layout::kFixedWidth;
  }
}

int32_t DataType::byte_width() const {
  switch (id_) {
    case TypeId::kInt8:
      return 1;
    case TypeId::kInt16:
      return 2;
    case TypeId::kInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
      return 4;
    case TypeId::kInt64:
    case TypeId::kFloat64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return 8;
    case TypeId::kDecimal128:
    case TypeId::kUuid:
      return 16;
    case TypeId::kFixedSizeBinary:
      return byte_width_;
    default:
      return 0;
  }
}

const Field& DataType::key_field() const {
  assert(id_ == TypeId::kMap);
  return fields_[0].type()->field(0);
}

const Field& DataType::item_field() const {
  assert(id_ == TypeId::kMap);
  return fields_[0].type()->field(1);
}

std::string DataType::ToString() const {
  switch (id_) {
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInt8:
      return "tinyint";
    case TypeId::kInt16:
      return "smallint";
    case TypeId::kInt32:
      return "integer";
    case TypeId::kInt64:
      return "bigint";
    case TypeId::kFloat32:
      return "real";
    case TypeId::kFloat64:
      return "double";
    case TypeId::kDecimal128:
      return "decimal(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
    case TypeId::kString:
      return "varchar";
    case TypeId::kBinary:
      return "varbinary";
    case TypeId::kFixedSizeBinary:
      return "fixed(" + std::to_string(byte_width_) + ")";
    case TypeId::kUuid:
      return "uuid";
    case TypeId::kDate32:
      return "date";
    case TypeId::kTime64:
      return "time(" + std::to_string(FractionDigits(unit_)) + ")";
    case TypeId::kTimestamp: {
      std::string out = "timestamp(" + std::to_string(FractionDigits(unit_)) + ")";
      if (has_timezone()) out += " with time zone";
      return out;
    }
    case TypeId::kList:
      return "array(" + fields_[0].type()->ToString() + ")";
    case TypeId::kStruct: {
      std::string out = "row(";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i > 0) out += ", ";
        if (!fields_[i].name().empty()) {  // an anonymous field: its type alone (Trino)
          AppendFieldName(fields_[i].name(), &out);
          out += ' ';
        }
        out += fields_[i].type()->ToString();
      }
      out += ")";
      return out;
    }
    case TypeId::kMap:
      return "map(" + key_field().type()->ToString() + ", " + item_field().type()->ToString() + ")";
  }
  return "unknown";
}

bool DataType::Equals(const DataType& other) const {
  if (this == &other) return true;
  if (id_ != other.id_) return false;
  switch (id_) {
    case TypeId::kDecimal128:
      return precision_ == other.precision_ && scale_ == other.scale_;
    case TypeId::kFixedSizeBinary:
      return byte_width_ == other.byte_width_;
    case TypeId::kTime64:
      return unit_ == other.unit_;
    case TypeId::kTimestamp:
      return unit_ == other.unit_ && timezone_ == other.timezone_;
    case TypeId::kList:
      return ChildEquals(fields_[0], other.fields_[0]);
    case TypeId::kMap:
      return keys_sorted_ == other.keys_sorted_ && ChildEquals(key_field(), other.key_field()) &&
             ChildEquals(item_field(), other.item_field());
    case TypeId::kStruct:
      if (fields_.size() != other.fields_.size()) return false;
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (fields_[i].name() != other.fields_[i].name() ||
            !ChildEquals(fields_[i], other.fields_[i])) {
          return false;
        }
      }
      return true;
    default:
      return true;
  }
}

std::string_view TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInt8:
      return "int8";
    case TypeId::kInt16:
      return "int16";
    case TypeId::kInt32:
      return "int32";
    case TypeId::kInt64:
      return "int64";
    case TypeId::kFloat32:
      return "float32";
    case TypeId::kFloat64:
      return "float64";
    case TypeId::kDecimal128:
      return "decimal128";
    case TypeId::kString:
      return "string";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary";
    case TypeId::kUuid:
      return "uuid";
    case TypeId::kDate32:
      return "date32";
    case TypeId::kTime64:
      return "time64";
    case TypeId::kTimestamp:
      return "timestamp";
    case TypeId::kList:
      return "list";
    case TypeId::kStruct:
      return "struct";
    case TypeId::kMap:
      return "map";
  }
  return "unknown";
}

// ---- Factories ----------------------------------------------------------------------

TypePtr Boolean() { return Singleton(TypeId::kBoolean); }
TypePtr Int8() { return Singleton(TypeId::kInt8); }
TypePtr Int16() { return Singleton(TypeId::kInt16); }
TypePtr Int32() { return Singleton(TypeId::kInt32); }
TypePtr Int64() { return Singleton(TypeId::kInt64); }
TypePtr Float32() { return Singleton(TypeId::kFloat32); }
TypePtr Float64() { return Singleton(TypeId::kFloat64); }
TypePtr String() { return Singleton(TypeId::kString); }
TypePtr Binary() { return Singleton(TypeId::kBinary); }
TypePtr Date32() { return Singleton(TypeId::kDate32); }

TypePtr Uuid() {
  static const TypePtr kUuid = [] {
    TypeParams p;
    p.byte_width = 16;
    return New(TypeId::kUuid, std::move(p));
  }();
  return kUuid;
}

Result<TypePtr> MakeDecimal(int32_t precision, int32_t scale) {
  if (precision < 1 || precision > DataType::kMaxDecimalPrecision) {
    return Status::InvalidArgument("decimal precision must be between 1 and 38, got " +
                                   std::to_string(precision));
  }
  if (scale < 0 || scale > precision) {
    return Status::InvalidArgument("decimal scale must be between 0 and the precision (" +
                                   std::to_string(precision) + "), got " + std::to_string(scale));
  }
  TypeParams p;
  p.precision = precision;
  p.scale = scale;
  return TypePtr(New(TypeId::kDecimal128, std::move(p)));
}

TypePtr Decimal(int32_t precision, int32_t scale) {
  auto t = MakeDecimal(precision, scale);
  assert(t.ok() && "Decimal(): precision/scale out of range; use MakeDecimal for input");
  return t.ok() ? *t : nullptr;
}

Result<TypePtr> MakeFixedSizeBinary(int32_t byte_width) {
  if (byte_width < 0) {
    return Status::InvalidArgument("fixed-size binary width must be >= 0, got " +
                                   std::to_string(byte_width));
  }
  TypeParams p;
  p.byte_width = byte_width;
  return TypePtr(New(TypeId::kFixedSizeBinary, std::move(p)));
}

TypePtr FixedSizeBinary(int32_t byte_width) {
  auto t = MakeFixedSizeBinary(byte_width);
  assert(t.ok() && "FixedSizeBinary(): negative width; use MakeFixedSizeBinary for input");
  return t.ok() ? *t : nullptr;
}

TypePtr Time64(TimeUnit unit) {
  auto make = [](TimeUnit u) {
    TypeParams p;
    p.unit = u;
    return New(TypeId::kTime64, std::move(p));
  };
  static const TypePtr kMicro = make(TimeUnit::kMicro);
  static const TypePtr kNano = make(TimeUnit::kNano);
  return unit == TimeUnit::kMicro ? kMicro : kNano;
}

TypePtr Timestamp(TimeUnit unit, std::string timezone) {
  TypeParams p;
  p.unit = unit;
  p.timezone = std::move(timezone);
  return New(TypeId::kTimestamp, std::move(p));
}

TypePtr TimestampTz(TimeUnit unit) { return Timestamp(unit, "UTC"); }

TypePtr List(Field element) {
  TypeParams p;
  p.fields.push_back(std::move(element));
  return New(TypeId::kList, std::move(p));
}

TypePtr List(TypePtr element_type, bool element_nullable) {
  return List(Field("element", std::move(element_type), element_nullable));
}

TypePtr Struct(std::vector<Field> fields) {
  TypeParams p;
  p.fields = std::move(fields);
  return New(TypeId::kStruct, std::move(p));
}

TypePtr Map(Field key, Field value, bool keys_sorted) {
  std::vector<Field> entry_fields;
  entry_fields.push_back(key.WithNullable(false));
  entry_fields.push_back(std::move(value));
  TypeParams p;
  p.keys_sorted = keys_sorted;
  p.fields.emplace_back("entries", Struct(std::move(entry_fields)), /*nullable=*/false);
  return New(TypeId::kMap, std::move(p));
}

TypePtr Map(TypePtr key_type, TypePtr value_type, bool value_nullable) {
  return Map(Field("key", std::move(key_type), false),
             Field("value", std::move(value_type), value_nullable));
}

}  // namespace sqe::columnar
