// Anonymous ROW fields named by position for Flight SQL clients.

#include "server/flight_sql/client_schema.h"

#include <memory>
#include <string>
#include <vector>

namespace sqe::server::flight_sql {

namespace {

using columnar::Field;
using columnar::TypeId;
using columnar::TypePtr;

bool HasAnonymousField(const TypePtr& type) {
  if (!type->is_nested()) return false;
  for (const Field& f : type->fields()) {
    if ((type->id() == TypeId::kStruct && f.name().empty()) || HasAnonymousField(f.type())) {
      return true;
    }
  }
  return false;
}

TypePtr Named(const TypePtr& type) {
  if (!HasAnonymousField(type)) return type;
  switch (type->id()) {
    case TypeId::kList:
      return columnar::List(type->value_field().WithType(Named(type->value_field().type())));
    case TypeId::kMap:
      return columnar::Map(type->key_field().WithType(Named(type->key_field().type())),
                           type->item_field().WithType(Named(type->item_field().type())),
                           type->keys_sorted());
    case TypeId::kStruct: {
      std::vector<Field> fields;
      for (int i = 0; i < type->num_fields(); ++i) {
        Field f = type->field(i).WithType(Named(type->field(i).type()));
        if (f.name().empty()) f = f.WithName("field" + std::to_string(i));
        fields.push_back(std::move(f));
      }
      return columnar::Struct(std::move(fields));
    }
    default:
      return type;
  }
}

}  // namespace

columnar::SchemaPtr ClientSchema(const columnar::Schema& schema) {
  std::vector<Field> fields;
  bool changed = false;
  for (const Field& f : schema.fields()) {
    TypePtr named = Named(f.type());
    changed = changed || named != f.type();
    fields.push_back(f.WithType(std::move(named)));
  }
  if (!changed) return std::make_shared<const columnar::Schema>(schema);
  return std::make_shared<const columnar::Schema>(std::move(fields), schema.metadata());
}

}  // namespace sqe::server::flight_sql
