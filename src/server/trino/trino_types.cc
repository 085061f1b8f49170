#include "server/trino/trino_types.h"

#include <cstdint>

namespace sqe::server::trino {
namespace {

using columnar::DataType;
using columnar::TypeId;
using nlohmann::json;

/// Trino's unbounded varchar length (VarcharType.UNBOUNDED_LENGTH).
constexpr int64_t kUnboundedVarcharLength = 2147483647;

int Precision(const DataType& type) { return type.unit() == columnar::TimeUnit::kNano ? 9 : 6; }

json LongArgument(int64_t value) { return json{{"kind", "LONG"}, {"value", value}}; }
json TypeArgument(const DataType& type) {
  return json{{"kind", "TYPE"}, {"value", TrinoTypeSignature(type)}};
}

/// The base name without parameters: "timestamp with time zone", "decimal", "array".
std::string RawTypeName(const DataType& type) {
  switch (type.id()) {
    case TypeId::kDecimal128:
      return "decimal";
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
      return "varbinary";
    case TypeId::kTime64:
      return "time";
    case TypeId::kTimestamp:
      return type.has_timezone() ? "timestamp with time zone" : "timestamp";
    case TypeId::kList:
      return "array";
    case TypeId::kStruct:
      return "row";
    case TypeId::kMap:
      return "map";
    default:
      return type.ToString();  // the parameterless types, spelled as Trino does
  }
}

}  // namespace

std::string TrinoTypeName(const DataType& type) {
  // DataType::ToString is Trino's spelling except for fixed(n), which Trino has not: it
  // is varbinary here, also inside nested types.
  switch (type.id()) {
    case TypeId::kFixedSizeBinary:
      return "varbinary";
    case TypeId::kList:
      return "array(" + TrinoTypeName(*type.value_field().type()) + ")";
    case TypeId::kMap:
      return "map(" + TrinoTypeName(*type.key_field().type()) + ", " +
             TrinoTypeName(*type.item_field().type()) + ")";
    case TypeId::kStruct: {
      std::string out = "row(";
      for (int i = 0; i < type.num_fields(); ++i) {
        if (i > 0) out += ", ";
        if (!type.field(i).name().empty()) out += type.field(i).name() + " ";  // else anonymous
        out += TrinoTypeName(*type.field(i).type());
      }
      return out + ")";
    }
    default:
      return type.ToString();
  }
}

json TrinoTypeSignature(const DataType& type) {
  json arguments = json::array();
  switch (type.id()) {
    case TypeId::kString:
      arguments.push_back(LongArgument(kUnboundedVarcharLength));
      break;
    case TypeId::kDecimal128:
      arguments.push_back(LongArgument(type.precision()));
      arguments.push_back(LongArgument(type.scale()));
      break;
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      arguments.push_back(LongArgument(Precision(type)));
      break;
    case TypeId::kList:
      arguments.push_back(TypeArgument(*type.value_field().type()));
      break;
    case TypeId::kMap:
      arguments.push_back(TypeArgument(*type.key_field().type()));
      arguments.push_back(TypeArgument(*type.item_field().type()));
      break;
    case TypeId::kStruct:
      for (const columnar::Field& field : type.fields()) {
        json named = {{"typeSignature", TrinoTypeSignature(*field.type())}};
        // An anonymous field (ROW(1, 'a')) has no fieldName, as Trino sends it.
        if (!field.name().empty()) {
          named["fieldName"] = {{"name", field.name()}, {"delimited", false}};
        }
        arguments.push_back(json{{"kind", "NAMED_TYPE"}, {"value", std::move(named)}});
      }
      break;
    default:
      break;
  }
  return json{{"rawType", RawTypeName(type)}, {"arguments", std::move(arguments)}};
}

json TrinoColumns(const columnar::Schema& schema) {
  json columns = json::array();
  for (const columnar::Field& field : schema.fields()) {
    columns.push_back(json{{"name", field.name()},
                           {"type", TrinoTypeName(*field.type())},
                           {"typeSignature", TrinoTypeSignature(*field.type())}});
  }
  return columns;
}

}  // namespace sqe::server::trino
