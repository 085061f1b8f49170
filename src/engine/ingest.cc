// Session::Ingest: bulk loading of Arrow batches (Flight SQL CommandStatementIngest). The
// batches become a VALUES plan whose rows go through the same projection, TableInsert
// sink and single commit as INSERT ... SELECT (WriteRows). REPLACE loads into a staging
// table first and swaps it in only once the load has committed, so a failed load never
// loses the table it was meant to replace.

#include <random>

#include "engine/ddl_internal.h"

namespace sqe::engine {
namespace {

/// A table name beside `name` that no user picks: `<table>__sqe_ingest_<16 hex digits>`.
planner::TableName StagingName(const planner::TableName& name) {
  std::random_device random;
  const uint64_t tag = (uint64_t{random()} << 32) | random();
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(tag));
  planner::TableName staging = name;
  staging.table = name.table + "__sqe_ingest_" + hex;
  return staging;
}

/// Puts the loaded `staging` table in place of `target`: target -> backup, staging ->
/// target, then the backup is purged. A failed step renames back, so `target` keeps
/// either its old or its new rows.
Status SwapIn(catalog::Catalog& cat, const planner::TableName& staging,
              const planner::TableName& target) {
  const catalog::TableIdentifier target_id = ToIdentifier(target);
  const catalog::TableIdentifier backup_id = ToIdentifier(StagingName(target));
  SQE_RETURN_NOT_OK(cat.RenameTable(target_id, backup_id));
  Status moved = cat.RenameTable(ToIdentifier(staging), target_id);
  if (!moved.ok()) {
    (void)cat.RenameTable(backup_id, target_id);
    return moved;
  }
  return cat.DropTable(backup_id, /*purge=*/true);
}

}  // namespace

Result<int64_t> Session::Ingest(const IngestOptions& options, const columnar::SchemaPtr& schema,
                                const std::vector<columnar::Batch>& batches) {
  std::lock_guard<std::mutex> lock(impl_->run_mutex);
  Impl& session = *impl_;
  if (options.table.empty()) return Status::InvalidArgument("the table to load has no name");
  if (schema == nullptr || schema->num_fields() == 0) {
    return Status::InvalidArgument("the rows to load have no columns");
  }
  planner::TableName name{LowerName(options.catalog.value_or(session.catalog)),
                          LowerName(options.schema.value_or(session.schema)),
                          LowerName(options.table)};
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<catalog::Catalog> cat,
                       session.engine->Catalog(name.catalog));
  SQE_RETURN_NOT_OK(CheckSchemaExists(*cat, name));
  Result<catalog::LoadedTable> loaded = cat->LoadTable(ToIdentifier(name));
  if (!loaded.ok() && loaded.status().code() != StatusCode::kNotFound) return loaded.status();
  bool create = !loaded.ok();
  bool replace = false;
  planner::TableName target = name;  // where the rows are written
  if (loaded.ok()) {
    if (options.if_exists == IngestOptions::IfExists::kFail) {
      return Status::AlreadyExists("Table '" + name.ToString() + "' already exists");
    }
    if (options.if_exists == IngestOptions::IfExists::kReplace) {
      replace = create = true;
      target = StagingName(name);
    }
  } else if (options.if_missing == IngestOptions::IfMissing::kFail) {
    return Status::NotFound("Table '" + name.ToString() + "' does not exist");
  }
  if (create) {
    NewTableDefinition definition;
    for (const columnar::Field& f : schema->fields()) {
      definition.columns.push_back(ColumnSpec{LowerName(f.name()), f.type(), false, std::nullopt});
    }
    SQE_ASSIGN_OR_RETURN(loaded, CreateTableFromDefinition(session, *cat, target, definition));
  }

  // The rows as a VALUES plan, its columns named as the stream's.
  auto values = std::make_shared<planner::LogicalNode>();
  values->kind = planner::LogicalKind::kValues;
  values->rows = batches;
  planner::BoundQuery bound;
  for (int i = 0; i < schema->num_fields(); ++i) {
    const columnar::Field& f = schema->field(i);
    values->output.push_back(planner::ColumnInfo{i, f.name(), f.type(), true});
    bound.names.push_back(f.name());
  }
  bound.plan = values;
  std::unique_ptr<exec::ExecContext> ctx = session.MakeContext("ingest");
  RunningStatement running(session, ctx.get());
  Result<int64_t> rows =
      WriteRows(session, ctx.get(), cat, target, *loaded, bound, {}, bound.names);
  if (!rows.ok() && create) {
    // One unit, as CREATE TABLE AS: a failed load leaves no new table behind.
    (void)cat->DropTable(ToIdentifier(target), /*purge=*/true);
    return rows;
  }
  if (rows.ok() && replace) {
    Status swapped = SwapIn(*cat, target, name);
    if (!swapped.ok()) {
      (void)cat->DropTable(ToIdentifier(target), /*purge=*/true);
      return swapped.WithContext("replacing '" + name.ToString() + "' with the loaded rows");
    }
  }
  return rows;
}

}  // namespace sqe::engine
