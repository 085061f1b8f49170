#include "engine/iceberg_types.h"

#include <algorithm>
#include <set>

namespace sqe::engine {

namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

Status Unsupported(const std::string& column, const columnar::DataType& type,
                   const std::string& fix) {
  return Status::InvalidArgument("Column '" + column + "': type " + type.ToString() +
                                 " is not supported by Iceberg tables; " + fix);
}

/// The fields of a nested type converted with ids assigned first to every field of this
/// level, then to their children (Iceberg's fresh-id order).
Result<std::vector<iceberg::NestedField>> ConvertFields(const std::vector<columnar::Field>& fields,
                                                        int format_version,
                                                        const FieldIdSource& next_id,
                                                        const std::string& column) {
  std::vector<iceberg::NestedField> out(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    out[i].id = next_id();
    out[i].name = fields[i].name();
    out[i].required = !fields[i].nullable();
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    SQE_ASSIGN_OR_RETURN(out[i].type, ToIcebergType(*fields[i].type(), format_version, next_id,
                                                    column + "." + fields[i].name()));
  }
  return out;
}

}  // namespace

Result<iceberg::TypePtr> ToIcebergType(const columnar::DataType& type, int format_version,
                                       const FieldIdSource& next_id, const std::string& column) {
  using iceberg::Type;
  using iceberg::TypeId;
  switch (type.id()) {
    case columnar::TypeId::kBoolean:
      return Type::Primitive(TypeId::kBoolean);
    case columnar::TypeId::kInt8:
    case columnar::TypeId::kInt16:
    case columnar::TypeId::kInt32:
      return Type::Primitive(TypeId::kInt);
    case columnar::TypeId::kInt64:
      return Type::Primitive(TypeId::kLong);
    case columnar::TypeId::kFloat32:
      return Type::Primitive(TypeId::kFloat);
    case columnar::TypeId::kFloat64:
      return Type::Primitive(TypeId::kDouble);
    case columnar::TypeId::kDecimal128:
      return Type::Decimal(type.precision(), type.scale());
    case columnar::TypeId::kString:
      return Type::Primitive(TypeId::kString);
    case columnar::TypeId::kBinary:
      return Type::Primitive(TypeId::kBinary);
    case columnar::TypeId::kFixedSizeBinary:
      return Type::Fixed(type.byte_width());
    case columnar::TypeId::kUuid:
      return Type::Primitive(TypeId::kUuid);
    case columnar::TypeId::kDate32:
      return Type::Primitive(TypeId::kDate);
    case columnar::TypeId::kTime64:
      if (type.unit() != columnar::TimeUnit::kMicro) {
        return Unsupported(column, type, "use time(6)");
      }
      return Type::Primitive(TypeId::kTime);
    case columnar::TypeId::kTimestamp:
      if (type.unit() == columnar::TimeUnit::kMicro) {
        return Type::Primitive(type.has_timezone() ? TypeId::kTimestampTz : TypeId::kTimestamp);
      }
      if (format_version < 3) {
        return Unsupported(column, type,
                           "nanosecond timestamps need format_version = 3 (or use timestamp(6))");
      }
      return Type::Primitive(type.has_timezone() ? TypeId::kTimestampTzNs : TypeId::kTimestampNs);
    case columnar::TypeId::kList: {
      const columnar::Field& e = type.value_field();
      iceberg::NestedField element;
      element.id = next_id();
      element.name = "element";
      element.required = !e.nullable();
      SQE_ASSIGN_OR_RETURN(element.type,
                           ToIcebergType(*e.type(), format_version, next_id, column + ".element"));
      return Type::List(std::move(element));
    }
    case columnar::TypeId::kMap: {
      const columnar::Field& k = type.key_field();
      const columnar::Field& v = type.item_field();
      iceberg::NestedField key, value;
      key.id = next_id();
      key.name = "key";
      key.required = true;
      value.id = next_id();
      value.name = "value";
      value.required = !v.nullable();
      SQE_ASSIGN_OR_RETURN(key.type,
                           ToIcebergType(*k.type(), format_version, next_id, column + ".key"));
      SQE_ASSIGN_OR_RETURN(value.type,
                           ToIcebergType(*v.type(), format_version, next_id, column + ".value"));
      return Type::Map(std::move(key), std::move(value));
    }
    case columnar::TypeId::kStruct: {
      std::set<std::string> seen;
      for (const columnar::Field& f : type.fields()) {
        if (f.name().empty()) {  // ROW(1, 'a') has anonymous fields: Trino's error
          return Status::InvalidArgument("Row type field does not have a name: " +
                                         type.ToString() + " (column '" + column +
                                         "'; CAST it to ROW(name type, ...))");
        }
        if (!seen.insert(Lower(f.name())).second) {
          return Status::InvalidArgument("Column '" + column + "': row field '" + f.name() +
                                         "' appears more than once; give the fields distinct "
                                         "names");
        }
      }
      SQE_ASSIGN_OR_RETURN(std::vector<iceberg::NestedField> fields,
                           ConvertFields(type.fields(), format_version, next_id, column));
      return Type::Struct(std::move(fields));
    }
  }
  return Unsupported(column, type, "choose another type");
}

Result<iceberg::Schema> ToIcebergSchema(const std::vector<ColumnSpec>& columns,
                                        int format_version) {
  std::set<std::string> seen;
  for (const ColumnSpec& c : columns) {
    if (c.type == nullptr) {
      return Status::InvalidArgument("Column type is unknown: " + c.name +
                                     " (cast it, e.g. CAST(NULL AS varchar))");
    }
    if (!seen.insert(Lower(c.name)).second) {
      return Status::InvalidArgument("Column name '" + c.name +
                                     "' specified more than once; rename one of them");
    }
  }
  int32_t last_id = 0;
  FieldIdSource next_id = [&last_id]() { return ++last_id; };
  std::vector<iceberg::NestedField> out(columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    out[i].id = next_id();
    out[i].name = columns[i].name;
    out[i].required = columns[i].not_null;
    out[i].doc = columns[i].comment;
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    SQE_ASSIGN_OR_RETURN(out[i].type,
                         ToIcebergType(*columns[i].type, format_version, next_id, columns[i].name));
  }
  return iceberg::Schema::Make(0, std::move(out));
}

}  // namespace sqe::engine
