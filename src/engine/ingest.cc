// Session::Ingest: bulk loading of Arrow batches (Flight SQL CommandStatementIngest). The
// batches become a VALUES plan whose rows go through the same projection, TableInsert
// sink and single commit as INSERT ... SELECT (WriteRows).

#include "engine/ddl_internal.h"

namespace sqe::engine {

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
  const catalog::TableIdentifier id = ToIdentifier(name);
  Result<catalog::LoadedTable> loaded = cat->LoadTable(id);
  if (!loaded.ok() && loaded.status().code() != StatusCode::kNotFound) return loaded.status();
  bool create = !loaded.ok();
  if (loaded.ok()) {
    if (options.if_exists == IngestOptions::IfExists::kFail) {
      return Status::AlreadyExists("Table '" + name.ToString() + "' already exists");
    }
    if (options.if_exists == IngestOptions::IfExists::kReplace) {
      SQE_RETURN_NOT_OK(cat->DropTable(id, /*purge=*/true));
      create = true;
    }
  } else if (options.if_missing == IngestOptions::IfMissing::kFail) {
    return Status::NotFound("Table '" + name.ToString() + "' does not exist");
  }
  if (create) {
    NewTableDefinition definition;
    for (const columnar::Field& f : schema->fields()) {
      definition.columns.push_back(ColumnSpec{LowerName(f.name()), f.type(), false, std::nullopt});
    }
    SQE_ASSIGN_OR_RETURN(loaded, CreateTableFromDefinition(session, *cat, name, definition));
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
  Result<int64_t> rows = WriteRows(session, ctx.get(), cat, name, *loaded, bound, {}, bound.names);
  if (!rows.ok() && create) {
    // One unit, as CREATE TABLE AS: a failed load leaves no new table behind.
    (void)cat->DropTable(id, /*purge=*/true);
  }
  return rows;
}

}  // namespace sqe::engine
