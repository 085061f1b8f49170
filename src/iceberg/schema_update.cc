#include "iceberg/schema_update.h"

#include <algorithm>
#include <map>
#include <set>

namespace sqe::iceberg {
namespace {

Status Invalid(const std::string& what) { return Status::InvalidArgument(what); }

TableRequirement Requirement(TableRequirement::Kind kind, int64_t id) {
  TableRequirement r;
  r.kind = kind;
  r.id = id;
  return r;
}

TableUpdate Update(TableUpdate::Action action) {
  TableUpdate u;
  u.action = action;
  u.id = TableUpdate::kLastAdded;
  return u;
}

/// Gives every field of `type` (recursively) a fresh id above `*last_id`.
TypePtr WithFreshIds(const TypePtr& type, int32_t* last_id) {
  if (!type || !type->is_nested()) return type;
  std::vector<NestedField> fields = type->fields();
  for (NestedField& f : fields) {
    f.id = ++*last_id;
    f.type = WithFreshIds(f.type, last_id);
  }
  switch (type->id()) {
    case TypeId::kStruct:
      return Type::Struct(std::move(fields), type->extra_json());
    case TypeId::kList:
      return Type::List(std::move(fields[0]), type->extra_json());
    case TypeId::kMap:
      return Type::Map(std::move(fields[0]), std::move(fields[1]), type->extra_json());
    default:
      return type;
  }
}

bool IsAllowedPromotion(const Type& from, const Type& to) {
  if (from.Equals(to)) return true;
  if (from.id() == TypeId::kInt && to.id() == TypeId::kLong) return true;
  if (from.id() == TypeId::kFloat && to.id() == TypeId::kDouble) return true;
  return from.id() == TypeId::kDecimal && to.id() == TypeId::kDecimal &&
         from.scale() == to.scale() && to.precision() >= from.precision();
}

/// What a SchemaUpdate does, keyed by field id, resolved against one schema.
struct ResolvedChanges {
  std::set<int32_t> deletes;
  std::map<int32_t, std::string> renames;
  std::map<int32_t, TypePtr> types;
  std::set<int32_t> optional;
  std::map<int32_t, std::string> docs;
  std::map<int32_t, std::vector<NestedField>> adds;  // parent id (0 = top level) -> fields
};

Result<std::vector<NestedField>> Rebuild(const std::vector<NestedField>& fields, int32_t parent,
                                         const std::string& where, const ResolvedChanges& c);

Result<TypePtr> RebuildType(const NestedField& field, const std::string& name,
                            const ResolvedChanges& c) {
  const TypePtr& type = field.type;
  if (!type || !type->is_nested()) return type;
  switch (type->id()) {
    case TypeId::kStruct: {
      SQE_ASSIGN_OR_RETURN(auto fields, Rebuild(type->fields(), field.id, name, c));
      return Type::Struct(std::move(fields), type->extra_json());
    }
    case TypeId::kList: {
      NestedField element = type->element();
      SQE_ASSIGN_OR_RETURN(element.type, RebuildType(element, name + ".element", c));
      if (c.optional.count(element.id)) element.required = false;
      return Type::List(std::move(element), type->extra_json());
    }
    case TypeId::kMap: {
      NestedField key = type->key(), value = type->value();
      SQE_ASSIGN_OR_RETURN(key.type, RebuildType(key, name + ".key", c));
      SQE_ASSIGN_OR_RETURN(value.type, RebuildType(value, name + ".value", c));
      if (c.optional.count(value.id)) value.required = false;
      return Type::Map(std::move(key), std::move(value), type->extra_json());
    }
    default:
      return type;
  }
}

Result<std::vector<NestedField>> Rebuild(const std::vector<NestedField>& fields, int32_t parent,
                                         const std::string& where, const ResolvedChanges& c) {
  std::vector<NestedField> out;
  std::set<std::string> names;
  auto place = [&](NestedField f) -> Status {
    if (!names.insert(f.name).second) {
      return Invalid("column '" + f.name + "' already exists in " +
                     (where.empty() ? std::string("the table") : "'" + where + "'") +
                     ": pick another name or rename the existing column first");
    }
    out.push_back(std::move(f));
    return Status::OK();
  };
  for (const NestedField& original : fields) {
    if (c.deletes.count(original.id)) continue;
    NestedField f = original;
    if (auto it = c.renames.find(f.id); it != c.renames.end()) f.name = it->second;
    if (auto it = c.types.find(f.id); it != c.types.end()) f.type = it->second;
    if (c.optional.count(f.id)) f.required = false;
    if (auto it = c.docs.find(f.id); it != c.docs.end()) f.doc = it->second;
    const std::string name = where.empty() ? f.name : where + "." + f.name;
    SQE_ASSIGN_OR_RETURN(f.type, RebuildType(f, name, c));
    SQE_RETURN_NOT_OK(place(std::move(f)));
  }
  if (auto it = c.adds.find(parent); it != c.adds.end()) {
    for (const NestedField& f : it->second) SQE_RETURN_NOT_OK(place(f));
  }
  return out;
}

std::string SchemaName(const Schema& s) { return "schema " + std::to_string(s.schema_id()); }

}  // namespace

SchemaUpdate& SchemaUpdate::AddColumn(std::string parent, std::string name, TypePtr type,
                                      bool required, std::optional<std::string> doc,
                                      std::optional<std::string> initial_default_json) {
  Op op{Op::Kind::kAdd, std::move(parent), std::move(name), std::move(type)};
  op.required = required;
  op.doc = std::move(doc);
  op.initial_default_json = std::move(initial_default_json);
  ops_.push_back(std::move(op));
  return *this;
}

SchemaUpdate& SchemaUpdate::RenameColumn(std::string column, std::string new_name) {
  ops_.push_back(Op{Op::Kind::kRename, std::move(column), std::move(new_name), nullptr});
  return *this;
}

SchemaUpdate& SchemaUpdate::DeleteColumn(std::string column) {
  ops_.push_back(Op{Op::Kind::kDelete, std::move(column), "", nullptr});
  return *this;
}

SchemaUpdate& SchemaUpdate::UpdateColumnType(std::string column, TypePtr new_type) {
  ops_.push_back(Op{Op::Kind::kType, std::move(column), "", std::move(new_type)});
  return *this;
}

SchemaUpdate& SchemaUpdate::MakeColumnOptional(std::string column) {
  ops_.push_back(Op{Op::Kind::kOptional, std::move(column), "", nullptr});
  return *this;
}

SchemaUpdate& SchemaUpdate::UpdateColumnDoc(std::string column, std::string doc) {
  ops_.push_back(Op{Op::Kind::kDoc, std::move(column), std::move(doc), nullptr});
  return *this;
}

SchemaUpdate& SchemaUpdate::SetIdentifierFields(std::vector<std::string> columns) {
  identifier_fields_ = std::move(columns);
  return *this;
}

Result<Schema> SchemaUpdate::ApplyToSchema(const TableMetadata& base) const {
  const Schema* schema = base.CurrentSchema();
  if (schema == nullptr) return Status::Corruption("table metadata has no current schema");
  ResolvedChanges c;
  std::set<int32_t> touched;  // fields already changed by an earlier delete/rename/type
  int32_t last_id = base.last_column_id;
  auto find = [&](const std::string& column) -> Result<const NestedField*> {
    const NestedField* f = schema->FindFieldByName(column);
    if (f == nullptr) {
      return Invalid("column '" + column + "' does not exist in " + SchemaName(*schema) +
                     " of the table");
    }
    return f;
  };
  const std::vector<int32_t>& identifiers = schema->identifier_field_ids();
  for (const Op& op : ops_) {
    if (op.kind == Op::Kind::kAdd) {
      if (op.name.empty() || op.name.find('.') != std::string::npos) {
        return Invalid("new column name '" + op.name +
                       "' must be non-empty and contain no '.' (give the parent separately)");
      }
      if (!op.type) return Invalid("new column '" + op.name + "' has no type");
      if (op.required && !op.initial_default_json) {
        return Invalid("cannot add required column '" + op.name +
                       "' without an initial default: existing rows would have no value; add "
                       "it as optional or give an initial default");
      }
      int32_t parent = 0;
      if (!op.column.empty()) {
        SQE_ASSIGN_OR_RETURN(const NestedField* p, find(op.column));
        const NestedField* holder = p;
        if (p->type->id() == TypeId::kList) holder = &p->type->element();
        if (p->type->id() == TypeId::kMap) holder = &p->type->value();
        if (holder->type->id() != TypeId::kStruct) {
          return Invalid("cannot add column '" + op.name + "' to '" + op.column + "': it is a " +
                         p->type->ToString() + ", not a struct");
        }
        if (c.deletes.count(p->id)) {
          return Invalid("cannot add column '" + op.name + "' to '" + op.column +
                         "', which this change drops");
        }
        parent = holder->id;
      }
      NestedField f;
      f.id = ++last_id;
      f.name = op.name;
      f.required = op.required;
      f.type = WithFreshIds(op.type, &last_id);
      f.doc = op.doc;
      f.initial_default_json = op.initial_default_json;
      f.write_default_json = op.initial_default_json;
      c.adds[parent].push_back(std::move(f));
      continue;
    }
    SQE_ASSIGN_OR_RETURN(const NestedField* f, find(op.column));
    if (c.deletes.count(f->id)) {
      return Invalid("column '" + op.column + "' is dropped by this change and changed again");
    }
    switch (op.kind) {
      case Op::Kind::kDelete:
        if (std::find(identifiers.begin(), identifiers.end(), f->id) != identifiers.end()) {
          return Invalid("cannot drop column '" + op.column +
                         "': it is an identifier field; change the identifier fields first");
        }
        if (touched.count(f->id)) {
          return Invalid("column '" + op.column + "' is changed and dropped in one change");
        }
        c.deletes.insert(f->id);
        break;
      case Op::Kind::kRename:
        if (op.name.empty() || op.name.find('.') != std::string::npos) {
          return Invalid("cannot rename '" + op.column + "' to '" + op.name +
                         "': names must be non-empty and contain no '.'");
        }
        c.renames[f->id] = op.name;
        touched.insert(f->id);
        break;
      case Op::Kind::kType:
        if (!op.type || !op.type->is_primitive() || !f->type->is_primitive()) {
          return Invalid("cannot change the type of '" + op.column +
                         "': only primitive columns widen");
        }
        if (!IsAllowedPromotion(*f->type, *op.type)) {
          return Invalid("cannot change column '" + op.column + "' from " + f->type->ToString() +
                         " to " + op.type->ToString() +
                         ": Iceberg allows int->long, float->double and widening a "
                         "decimal's precision");
        }
        c.types[f->id] = op.type;
        touched.insert(f->id);
        break;
      case Op::Kind::kOptional:
        c.optional.insert(f->id);
        break;
      case Op::Kind::kDoc:
        c.docs[f->id] = op.name;
        break;
      case Op::Kind::kAdd:
        break;
    }
  }
  SQE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, Rebuild(schema->fields(), 0, "", c));
  std::vector<int32_t> identifier_ids = identifiers;
  if (identifier_fields_) {
    identifier_ids.clear();
    for (const std::string& name : *identifier_fields_) {
      SQE_ASSIGN_OR_RETURN(const NestedField* f, find(name));
      if (!f->type->is_primitive() || !f->required || c.optional.count(f->id) ||
          c.deletes.count(f->id)) {
        return Invalid("identifier field '" + name +
                       "' must be a required primitive column that stays in the schema");
      }
      identifier_ids.push_back(f->id);
    }
  }
  return Schema::Make(0, std::move(fields), std::move(identifier_ids), schema->extra_json());
}

Result<TableChange> SchemaUpdate::Apply(const TableMetadata& base) const {
  SQE_ASSIGN_OR_RETURN(Schema next, ApplyToSchema(base));
  const Schema* current = base.CurrentSchema();
  TableChange change;
  if (current->struct_type()->Equals(*next.struct_type()) &&
      current->identifier_field_ids() == next.identifier_field_ids()) {
    return change;
  }
  change.requirements = {
      TableRequirement::AssertCurrentSchemaId(current->schema_id()),
      Requirement(TableRequirement::Kind::kAssertLastAssignedFieldId, base.last_column_id)};
  change.updates = {TableUpdate::AddSchema(std::move(next)),
                    TableUpdate::SetCurrentSchema(TableUpdate::kLastAdded)};
  return change;
}

std::string DefaultPartitionFieldName(const std::string& column, const Transform& t) {
  switch (t.kind()) {
    case TransformKind::kIdentity:
      return column;
    case TransformKind::kBucket:
      return column + "_bucket_" + std::to_string(t.param());
    case TransformKind::kTruncate:
      return column + "_trunc_" + std::to_string(t.param());
    case TransformKind::kYear:
      return column + "_year";
    case TransformKind::kMonth:
      return column + "_month";
    case TransformKind::kDay:
      return column + "_day";
    case TransformKind::kHour:
      return column + "_hour";
    case TransformKind::kVoid:
      return column + "_null";
    default:
      return column + "_" + t.ToString();
  }
}

PartitionSpecUpdate& PartitionSpecUpdate::AddField(std::string source_column, Transform transform,
                                                   std::string name) {
  ops_.push_back(Op{Op::Kind::kAdd, std::move(source_column), transform, std::move(name)});
  return *this;
}

PartitionSpecUpdate& PartitionSpecUpdate::RemoveField(std::string name) {
  ops_.push_back(Op{Op::Kind::kRemove, std::move(name), Transform::Identity(), ""});
  return *this;
}

PartitionSpecUpdate& PartitionSpecUpdate::RenameField(std::string name, std::string new_name) {
  ops_.push_back(
      Op{Op::Kind::kRename, std::move(name), Transform::Identity(), std::move(new_name)});
  return *this;
}

Result<PartitionSpec> PartitionSpecUpdate::ApplyToSpec(const TableMetadata& base) const {
  const Schema* schema = base.CurrentSchema();
  const PartitionSpec* spec = base.DefaultSpec();
  if (schema == nullptr || spec == nullptr) {
    return Status::Corruption("table metadata has no current schema or default spec");
  }
  std::vector<PartitionField> fields = spec->fields();
  int32_t last_id = std::max(base.last_partition_id, PartitionSpec::kFirstFieldId - 1);
  auto by_name = [&](const std::string& name) -> PartitionField* {
    for (PartitionField& f : fields) {
      if (f.name == name) return &f;
    }
    return nullptr;
  };
  for (const Op& op : ops_) {
    switch (op.kind) {
      case Op::Kind::kAdd: {
        const NestedField* source = schema->FindFieldByName(op.column_or_name);
        if (source == nullptr) {
          return Invalid("cannot partition by '" + op.column_or_name +
                         "': no such column in the table's current schema");
        }
        if (!op.transform.CanTransform(*source->type)) {
          return Invalid("cannot partition by " + op.transform.ToString() + "(" +
                         op.column_or_name + "): the transform does not apply to " +
                         source->type->ToString());
        }
        for (const PartitionField& f : fields) {
          if (f.source_id == source->id && f.transform == op.transform) {
            return Invalid("the table is already partitioned by " + op.transform.ToString() + "(" +
                           op.column_or_name + ") as '" + f.name + "'");
          }
        }
        std::string name =
            op.name.empty() ? DefaultPartitionFieldName(op.column_or_name, op.transform) : op.name;
        if (by_name(name) != nullptr) {
          return Invalid("partition field '" + name + "' already exists; give another name");
        }
        // A field the table had before with the same source and transform keeps its id
        // (Iceberg Java does this, so old and new files agree on the partition field).
        int32_t id = 0;
        for (const PartitionSpec& old : base.partition_specs) {
          for (const PartitionField& f : old.fields()) {
            if (f.source_id == source->id && f.transform == op.transform) id = f.field_id;
          }
        }
        PartitionField field;
        field.source_id = source->id;
        field.field_id = id != 0 ? id : ++last_id;
        field.name = std::move(name);
        field.transform = op.transform;
        fields.push_back(std::move(field));
        break;
      }
      case Op::Kind::kRemove: {
        PartitionField* f = by_name(op.column_or_name);
        if (f == nullptr) {
          return Invalid("no partition field '" + op.column_or_name + "' in the default spec");
        }
        if (base.format_version == 1) {
          f->transform = Transform::Void();  // v1: ids are positional, keep the field
        } else {
          fields.erase(fields.begin() + (f - fields.data()));
        }
        break;
      }
      case Op::Kind::kRename: {
        PartitionField* f = by_name(op.column_or_name);
        if (f == nullptr) {
          return Invalid("no partition field '" + op.column_or_name + "' in the default spec");
        }
        if (op.name.empty() || by_name(op.name) != nullptr) {
          return Invalid("cannot rename partition field '" + op.column_or_name + "' to '" +
                         op.name + "': the name is empty or taken");
        }
        f->name = op.name;
        break;
      }
    }
  }
  PartitionSpec next(0, std::move(fields));
  SQE_RETURN_NOT_OK(next.PartitionType(*schema).status());
  return next;
}

Result<TableChange> PartitionSpecUpdate::Apply(const TableMetadata& base) const {
  SQE_ASSIGN_OR_RETURN(PartitionSpec next, ApplyToSpec(base));
  TableChange change;
  if (next.fields() == base.DefaultSpec()->fields()) return change;
  change.requirements = {
      Requirement(TableRequirement::Kind::kAssertDefaultSpecId, base.default_spec_id),
      Requirement(TableRequirement::Kind::kAssertLastAssignedPartitionId, base.last_partition_id)};
  TableUpdate add = Update(TableUpdate::Action::kAddPartitionSpec);
  add.spec = std::move(next);
  change.updates = {std::move(add), Update(TableUpdate::Action::kSetDefaultSpec)};
  return change;
}

Result<TableChange> ReplaceSortOrder(const TableMetadata& base,
                                     const std::vector<SortTerm>& terms) {
  const Schema* schema = base.CurrentSchema();
  if (schema == nullptr) return Status::Corruption("table metadata has no current schema");
  std::vector<SortField> fields;
  for (const SortTerm& t : terms) {
    const NestedField* source = schema->FindFieldByName(t.column);
    if (source == nullptr) {
      return Invalid("cannot sort by '" + t.column + "': no such column in the current schema");
    }
    if (!t.transform.CanTransform(*source->type)) {
      return Invalid("cannot sort by " + t.transform.ToString() + "(" + t.column +
                     "): the transform does not apply to " + source->type->ToString());
    }
    SortField f;
    f.transform = t.transform;
    f.source_id = source->id;
    f.direction = t.direction;
    f.null_order = t.null_order;
    fields.push_back(std::move(f));
  }
  TableChange change;
  const SortOrder* current = base.DefaultSortOrder();
  if (current != nullptr && current->fields() == fields) return change;
  change.requirements = {
      Requirement(TableRequirement::Kind::kAssertDefaultSortOrderId, base.default_sort_order_id)};
  TableUpdate add = Update(TableUpdate::Action::kAddSortOrder);
  add.sort_order = SortOrder(fields.empty() ? 0 : 1, std::move(fields));
  change.updates = {std::move(add), Update(TableUpdate::Action::kSetDefaultSortOrder)};
  return change;
}

}  // namespace sqe::iceberg
