// sqe-iceberg alter: schema, partition spec, sort order and property evolution, each kind
// committed through CommitTableChange (replayed on fresh metadata after a conflict).
#include <nlohmann/json.hpp>

#include "catalog/catalog_table_operations.h"
#include "catalog/table_file_system.h"
#include "iceberg/schema_update.h"
#include "iceberg/write/metadata_commit.h"
#include "main/iceberg_tool_commands.h"

namespace sqe::tools {
namespace {

using Json = nlohmann::json;

Result<std::pair<std::string, std::string>> SplitOnce(const std::string& text, char sep,
                                                      const char* flag, const char* form) {
  size_t at = text.find(sep);
  if (at == std::string::npos || at == 0 || at + 1 == text.size()) {
    return Status::InvalidArgument(std::string(flag) + " '" + text + "': expected " + form);
  }
  return std::make_pair(text.substr(0, at), text.substr(at + 1));
}

Result<iceberg::TypePtr> ParseColumnType(const std::string& text, const char* flag) {
  auto t = iceberg::Type::ParsePrimitive(text);
  if (!t.ok()) {
    return Status::InvalidArgument(std::string(flag) + ": '" + text +
                                   "' is not an Iceberg primitive type (long, string, "
                                   "decimal(9,2), timestamptz, ...)");
  }
  return *t;
}

Result<iceberg::SchemaUpdate> SchemaChanges(const AlterArgs& a, bool* any) {
  iceberg::SchemaUpdate u;
  for (const std::string& spec : a.add_columns) {
    // "name type" or "parent.child type"
    SQE_ASSIGN_OR_RETURN(auto parts, SplitOnce(spec, ' ', "--add-column", "'NAME TYPE'"));
    SQE_ASSIGN_OR_RETURN(auto type, ParseColumnType(parts.second, "--add-column"));
    size_t dot = parts.first.rfind('.');
    std::string parent = dot == std::string::npos ? "" : parts.first.substr(0, dot);
    std::string name = dot == std::string::npos ? parts.first : parts.first.substr(dot + 1);
    u.AddColumn(parent, name, type);
  }
  for (const std::string& spec : a.rename_columns) {
    SQE_ASSIGN_OR_RETURN(auto parts, SplitOnce(spec, '=', "--rename-column", "OLD=NEW"));
    u.RenameColumn(parts.first, parts.second);
  }
  for (const std::string& spec : a.widen_columns) {
    SQE_ASSIGN_OR_RETURN(auto parts, SplitOnce(spec, '=', "--widen-column", "COLUMN=TYPE"));
    SQE_ASSIGN_OR_RETURN(auto type, ParseColumnType(parts.second, "--widen-column"));
    u.UpdateColumnType(parts.first, type);
  }
  for (const std::string& c : a.make_optional) u.MakeColumnOptional(c);
  for (const std::string& c : a.drop_columns) u.DeleteColumn(c);
  *any = !a.add_columns.empty() || !a.rename_columns.empty() || !a.widen_columns.empty() ||
         !a.make_optional.empty() || !a.drop_columns.empty();
  return u;
}

Result<iceberg::PartitionSpecUpdate> SpecChanges(const AlterArgs& a, bool* any) {
  iceberg::PartitionSpecUpdate u;
  for (const std::string& spec : a.add_partition_fields) {
    // COLUMN:TRANSFORM[:NAME] with Iceberg's transform names (identity, bucket[16], day, ...)
    SQE_ASSIGN_OR_RETURN(auto parts, SplitOnce(spec, ':', "--add-partition-field",
                                               "COLUMN:TRANSFORM[:NAME], e.g. id:bucket[16]"));
    std::string transform_text = parts.second, name;
    if (size_t at = transform_text.find(':'); at != std::string::npos) {
      name = transform_text.substr(at + 1);
      transform_text = transform_text.substr(0, at);
    }
    auto transform = iceberg::Transform::Parse(transform_text);
    if (!transform.ok() || transform->kind() == iceberg::TransformKind::kUnknown) {
      return Status::InvalidArgument("--add-partition-field '" + spec + "': '" + transform_text +
                                     "' is not a transform (identity, bucket[N], truncate[W], "
                                     "year, month, day, hour, void)");
    }
    u.AddField(parts.first, *transform, name);
  }
  for (const std::string& spec : a.rename_partition_fields) {
    SQE_ASSIGN_OR_RETURN(auto parts, SplitOnce(spec, '=', "--rename-partition-field", "OLD=NEW"));
    u.RenameField(parts.first, parts.second);
  }
  for (const std::string& name : a.drop_partition_fields) u.RemoveField(name);
  *any = !a.add_partition_fields.empty() || !a.rename_partition_fields.empty() ||
         !a.drop_partition_fields.empty();
  return u;
}

Result<std::vector<iceberg::SortTerm>> SortTerms(const AlterArgs& a) {
  std::vector<iceberg::SortTerm> terms;
  for (const std::string& spec : a.sort_by) {
    // COLUMN[:asc|desc[:nulls-first|nulls-last]]
    iceberg::SortTerm t;
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
      size_t at = spec.find(':', start);
      parts.push_back(spec.substr(start, at == std::string::npos ? std::string::npos : at - start));
      if (at == std::string::npos) break;
      start = at + 1;
    }
    t.column = parts[0];
    if (parts.size() > 1) {
      if (parts[1] == "desc") {
        t.direction = iceberg::SortDirection::kDesc;
        t.null_order = iceberg::NullOrder::kNullsLast;  // Iceberg's default for desc
      } else if (parts[1] != "asc") {
        return Status::InvalidArgument("--sort-by '" + spec + "': direction must be asc or desc");
      }
    }
    if (parts.size() > 2) {
      if (parts[2] == "nulls-first") {
        t.null_order = iceberg::NullOrder::kNullsFirst;
      } else if (parts[2] == "nulls-last") {
        t.null_order = iceberg::NullOrder::kNullsLast;
      } else {
        return Status::InvalidArgument("--sort-by '" + spec +
                                       "': null order must be nulls-first or nulls-last");
      }
    }
    if (t.column.empty() || parts.size() > 3) {
      return Status::InvalidArgument("--sort-by '" + spec +
                                     "': expected COLUMN[:asc|desc[:nulls-first|nulls-last]]");
    }
    terms.push_back(std::move(t));
  }
  return terms;
}

}  // namespace

Status IcebergAlter(IcebergToolContext& ctx, const std::string& table, const AlterArgs& args,
                    std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  bool schema_changes = false, spec_changes = false;
  // Parse everything before committing anything: a typo in the last flag changes nothing.
  SQE_ASSIGN_OR_RETURN(iceberg::SchemaUpdate schema_update, SchemaChanges(args, &schema_changes));
  SQE_ASSIGN_OR_RETURN(iceberg::PartitionSpecUpdate spec_update, SpecChanges(args, &spec_changes));
  SQE_ASSIGN_OR_RETURN(std::vector<iceberg::SortTerm> sort_terms, SortTerms(args));
  std::map<std::string, std::string> set;
  for (const std::string& kv : args.set_properties) {
    SQE_ASSIGN_OR_RETURN(auto parts, SplitOnce(kv, '=', "--set-property", "KEY=VALUE"));
    set[parts.first] = parts.second;
  }
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  SQE_ASSIGN_OR_RETURN(auto table_fs, catalog::TableFileSystem(*ctx.file_systems, t));
  catalog::CatalogTableOperations ops(*ctx.catalog, id, std::move(table_fs));
  iceberg::TableMetadata m = *t.metadata;
  if (schema_changes) {
    SQE_ASSIGN_OR_RETURN(m, iceberg::CommitTableChange(ops, [&](const iceberg::TableMetadata& b) {
                           return schema_update.Apply(b);
                         }));
  }
  if (spec_changes) {
    SQE_ASSIGN_OR_RETURN(m, iceberg::CommitTableChange(ops, [&](const iceberg::TableMetadata& b) {
                           return spec_update.Apply(b);
                         }));
  }
  if (!sort_terms.empty() || args.unsorted) {
    SQE_ASSIGN_OR_RETURN(m, iceberg::CommitTableChange(ops, [&](const iceberg::TableMetadata& b) {
                           return iceberg::ReplaceSortOrder(b, sort_terms);
                         }));
  }
  if (!set.empty() || !args.unset_properties.empty()) {
    SQE_ASSIGN_OR_RETURN(
        m, iceberg::CommitTableChange(ops, iceberg::PropertiesChange(set, args.unset_properties)));
  }
  Json fields = Json::array();
  for (const iceberg::NestedField& f : m.CurrentSchema()->fields()) {
    fields.push_back({{"id", f.id}, {"name", f.name}, {"type", f.type->ToString()}});
  }
  Json partition = Json::array();
  for (const iceberg::PartitionField& f : m.DefaultSpec()->fields()) {
    partition.push_back({{"field_id", f.field_id},
                         {"name", f.name},
                         {"transform", f.transform.ToString()},
                         {"source_id", f.source_id}});
  }
  out << Json{{"table", table},
              {"schema_id", m.current_schema_id},
              {"fields", fields},
              {"spec_id", m.default_spec_id},
              {"partition", partition},
              {"sort_order_id", m.default_sort_order_id},
              {"properties", m.properties}}
             .dump()
      << "\n";
  return Status::OK();
}

}  // namespace sqe::tools
