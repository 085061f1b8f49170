#include "iceberg/columnar_schema.h"

namespace sqe::iceberg {
namespace {

Result<columnar::Field> ToColumnarField(const NestedField& field, const std::string& path) {
  SQE_ASSIGN_OR_RETURN(columnar::TypePtr type, ToColumnarType(*field.type, path));
  return columnar::Field(field.name, std::move(type), !field.required, field.id);
}

}  // namespace

Result<columnar::TypePtr> ToColumnarType(const Type& type, const std::string& column) {
  namespace c = columnar;
  switch (type.id()) {
    case TypeId::kBoolean:
      return c::Boolean();
    case TypeId::kInt:
      return c::Int32();
    case TypeId::kLong:
      return c::Int64();
    case TypeId::kFloat:
      return c::Float32();
    case TypeId::kDouble:
      return c::Float64();
    case TypeId::kDecimal:
      return c::MakeDecimal(type.precision(), type.scale());
    case TypeId::kDate:
      return c::Date32();
    case TypeId::kTime:
      return c::Time64(c::TimeUnit::kMicro);
    case TypeId::kTimestamp:
      return c::Timestamp(c::TimeUnit::kMicro);
    case TypeId::kTimestampTz:
      return c::TimestampTz(c::TimeUnit::kMicro);
    case TypeId::kTimestampNs:
      return c::Timestamp(c::TimeUnit::kNano);
    case TypeId::kTimestampTzNs:
      return c::TimestampTz(c::TimeUnit::kNano);
    case TypeId::kString:
      return c::String();
    case TypeId::kUuid:
      return c::Uuid();
    case TypeId::kFixed:
      return c::MakeFixedSizeBinary(type.length());
    case TypeId::kBinary:
      return c::Binary();
    case TypeId::kStruct: {
      std::vector<c::Field> fields;
      for (const NestedField& f : type.fields()) {
        SQE_ASSIGN_OR_RETURN(c::Field cf, ToColumnarField(f, column + "." + f.name));
        fields.push_back(std::move(cf));
      }
      return c::Struct(std::move(fields));
    }
    case TypeId::kList: {
      SQE_ASSIGN_OR_RETURN(c::Field element, ToColumnarField(type.element(), column + ".element"));
      return c::List(std::move(element));
    }
    case TypeId::kMap: {
      SQE_ASSIGN_OR_RETURN(c::Field key, ToColumnarField(type.key(), column + ".key"));
      SQE_ASSIGN_OR_RETURN(c::Field value, ToColumnarField(type.value(), column + ".value"));
      return c::Map(std::move(key), std::move(value));
    }
    default:
      return Status::NotImplemented("column '" + column + "' has type " + type.ToString() +
                                    ", which SQE cannot read or write yet");
  }
}

Result<columnar::SchemaPtr> ToColumnarSchema(const Schema& schema) {
  std::vector<columnar::Field> fields;
  for (const NestedField& f : schema.fields()) {
    SQE_ASSIGN_OR_RETURN(columnar::Field cf, ToColumnarField(f, f.name));
    fields.push_back(std::move(cf));
  }
  return columnar::Schema::Make(std::move(fields));
}

}  // namespace sqe::iceberg
