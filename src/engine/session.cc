// Session: statement dispatch, the per-query context, and running queries.

#include <chrono>

#include "engine/engine_internal.h"
#include "engine/query_slot.h"
#include "exec/pipeline.h"
#include "planner/optimizer.h"
#include "planner/physical_planner.h"
#include "sql/lexer.h"
#include "sql/parser.h"

namespace sqe::engine {

namespace ast = sql::ast;

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::~Session() = default;

const std::string& Session::user() const { return impl_->user; }
const std::string& Session::current_catalog() const { return impl_->catalog; }
const std::string& Session::current_schema() const { return impl_->schema; }

void Session::SetCurrentPath(std::string catalog, std::string schema) {
  std::lock_guard<std::mutex> lock(impl_->run_mutex);
  impl_->catalog = std::move(catalog);
  impl_->schema = std::move(schema);
}

void Session::Cancel() {
  std::lock_guard<std::mutex> lock(impl_->context_mutex);
  if (impl_->running != nullptr) impl_->running->Cancel("Query was canceled");
}

Result<QueryResult> Session::Execute(std::string_view sql) {
  SQE_ASSIGN_OR_RETURN(ast::StatementPtr statement, sql::ParseStatement(sql));
  std::lock_guard<std::mutex> lock(impl_->run_mutex);
  static const std::vector<exec::Value> kNoParameters;
  return impl_->Run(*statement, sql, kNoParameters);
}

Result<std::vector<QueryResult>> Session::ExecuteScript(std::string_view sql) {
  SQE_ASSIGN_OR_RETURN(std::vector<ast::StatementPtr> statements, sql::ParseStatements(sql));
  std::vector<QueryResult> results;
  std::lock_guard<std::mutex> lock(impl_->run_mutex);
  static const std::vector<exec::Value> kNoParameters;
  for (const ast::StatementPtr& s : statements) {
    SQE_ASSIGN_OR_RETURN(QueryResult r, impl_->Run(*s, sql, kNoParameters));
    results.push_back(std::move(r));
  }
  return results;
}

std::unique_ptr<exec::ExecContext> Session::Impl::MakeContext(const std::string& label) {
  auto ctx = std::make_unique<exec::ExecContext>();
  const config::Config& config = engine->config;
  ctx->tracker = engine->process_tracker->CreateChild(MemoryTracker::Options{
      MemoryScope::kQuery, label, static_cast<int64_t>(config.query.max_query_memory),
      "query.max_query_memory"});
  ctx->scheduler = engine->scheduler.get();
  ctx->threads = engine->threads;
  auto threads = properties.find("threads");
  if (threads != properties.end()) ctx->threads = std::max(1, std::atoi(threads->second.c_str()));
  ctx->eval.tracker = ctx->tracker;
  ctx->eval.query_start_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count();
  auto depth = properties.find("max_recursion_depth");
  if (depth != properties.end()) {
    ctx->max_recursion_depth = std::max<int64_t>(0, std::atoll(depth->second.c_str()));
  }
  auto zone = properties.find("time_zone");
  if (zone != properties.end()) ctx->eval.time_zone = zone->second;
  int64_t timeout = config.query.timeout_secs;
  auto t = properties.find("query_max_run_time");
  if (t != properties.end()) timeout = std::atoll(t->second.c_str());
  if (timeout > 0) ctx->SetTimeout(std::chrono::seconds(timeout), "query.timeout_secs");
  if (config.worker.spill_to_disk) ctx->spill_dir = config.worker.spill_dir;
  return ctx;
}

Result<std::vector<columnar::Batch>> Session::Impl::ExecutePlan(const planner::LogicalPtr& plan,
                                                                exec::ExecContext* ctx,
                                                                std::string* explain_analyze) {
  planner::PhysicalPlanOptions options;
  options.max_result_rows = static_cast<int64_t>(engine->config.query.max_result_rows);
  options.target_split_size = static_cast<int64_t>(engine->config.query.target_task_size);
  options.sort_mode = engine->config.query.sort_mode;
  options.trust_sort_order = engine->config.catalog.trust_sort_order;
  SQE_ASSIGN_OR_RETURN(planner::PhysicalPlan physical, planner::CreatePhysicalPlan(plan, options));
  SQE_RETURN_NOT_OK(exec::ExecutePlan(*ctx, *physical.root));
  if (explain_analyze != nullptr)
    *explain_analyze = exec::ExplainPhysicalPlan(*physical.root, true);
  return physical.root->TakeBatches();
}

Result<std::vector<columnar::Batch>> SessionCatalog::Execute(const planner::LogicalPtr& plan) {
  SQE_ASSIGN_OR_RETURN(planner::LogicalPtr optimized, planner::Optimize(plan));
  return session_.ExecutePlan(optimized, ctx_);
}

namespace {

/// The result of a statement that returns no rows.
QueryResult NoRows(std::string statement_type) {
  QueryResult r;
  r.schema = columnar::Schema::Make({});
  r.statement_type = std::move(statement_type);
  return r;
}

/// Registers the running context for Cancel (the caller holds the query's QuerySlot).
class RunningQuery {
 public:
  RunningQuery(Session::Impl& session, exec::ExecContext* ctx) : session_(session) {
    std::lock_guard<std::mutex> lock(session_.context_mutex);
    session_.running = ctx;
  }
  ~RunningQuery() {
    std::lock_guard<std::mutex> lock(session_.context_mutex);
    session_.running = nullptr;
  }

 private:
  Session::Impl& session_;
};

}  // namespace

Result<QueryResult> Session::Impl::RunQuery(const ast::Query& query, std::string_view sql,
                                            const std::vector<exec::Value>& parameters) {
  std::unique_ptr<exec::ExecContext> ctx = MakeContext("query");
  SQE_ASSIGN_OR_RETURN(
      QuerySlot slot,
      QuerySlot::Reserve(engine->running_queries, engine->config.query.max_concurrent_queries));
  RunningQuery running(*this, ctx.get());
  SessionCatalog catalog(*this, ctx.get());
  SQE_ASSIGN_OR_RETURN(planner::BoundQuery bound,
                       planner::BindQuery(query, catalog, sql, parameters));
  SQE_ASSIGN_OR_RETURN(planner::LogicalPtr optimized, planner::Optimize(bound.plan));
  SQE_ASSIGN_OR_RETURN(std::vector<columnar::Batch> batches, ExecutePlan(optimized, ctx.get()));
  QueryResult result;
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < bound.names.size(); ++i) {
    fields.emplace_back(bound.names[i], optimized->output[i].type, true);
  }
  result.schema = columnar::Schema::Make(std::move(fields));
  for (columnar::Batch& b : batches) {
    SQE_ASSIGN_OR_RETURN(columnar::Batch renamed,
                         columnar::Batch::Make(result.schema, b.columns(), b.num_rows()));
    result.batches.push_back(std::move(renamed));
  }
  result.statement_type = "SELECT";
  return result;
}

Result<QueryResult> Session::Impl::Explain(const ast::ExplainStatement& statement,
                                           std::string_view sql,
                                           const std::vector<exec::Value>& parameters) {
  if (statement.statement->kind != ast::StatementKind::kQuery) {
    return Status::NotImplemented(std::string("EXPLAIN of ") +
                                  ast::StatementKindName(statement.statement->kind) +
                                  " is not supported yet");
  }
  const ast::Query& query = *static_cast<const ast::QueryStatement&>(*statement.statement).query;
  bool logical = false;
  for (const ast::ExplainOption& o : statement.options) {
    if (o.name == "TYPE" && o.value == "LOGICAL") logical = true;
  }
  std::unique_ptr<exec::ExecContext> ctx = MakeContext("explain");
  RunningQuery running(*this, ctx.get());
  SessionCatalog catalog(*this, ctx.get());
  SQE_ASSIGN_OR_RETURN(planner::BoundQuery bound,
                       planner::BindQuery(query, catalog, sql, parameters));
  SQE_ASSIGN_OR_RETURN(planner::LogicalPtr optimized, planner::Optimize(bound.plan));
  std::string text;
  if (statement.analyze) {
    SQE_RETURN_NOT_OK(ExecutePlan(optimized, ctx.get(), &text).status());
    const int64_t peak = ctx->tracker->peak();
    text += "peak memory: " + exec::FormatBytes(peak) + " (" + std::to_string(peak) + " bytes)\n";
  } else if (logical) {
    text = planner::ExplainLogicalPlan(*optimized);
  } else {
    planner::PhysicalPlanOptions options;
    options.max_result_rows = static_cast<int64_t>(engine->config.query.max_result_rows);
    options.sort_mode = engine->config.query.sort_mode;
    options.trust_sort_order = engine->config.catalog.trust_sort_order;
    SQE_ASSIGN_OR_RETURN(planner::PhysicalPlan physical,
                         planner::CreatePhysicalPlan(optimized, options));
    text = exec::ExplainPhysicalPlan(*physical.root, false);
  }
  return VarcharResult({"Query Plan"}, {{text}}, statement.analyze ? "EXPLAIN ANALYZE" : "EXPLAIN");
}

Result<std::vector<exec::Value>> Session::Impl::BindParameters(
    const std::vector<ast::ExprPtr>& parameters, std::string_view sql) {
  std::unique_ptr<exec::ExecContext> ctx = MakeContext("execute");
  SessionCatalog binder_catalog(*this, ctx.get());
  std::vector<exec::Value> values;
  for (const ast::ExprPtr& p : parameters) {
    SQE_ASSIGN_OR_RETURN(exec::Value v, planner::BindConstant(*p, binder_catalog, sql));
    values.push_back(std::move(v));
  }
  return values;
}

Result<QueryResult> Session::Impl::Run(const ast::Statement& statement, std::string_view sql,
                                       const std::vector<exec::Value>& parameters) {
  switch (statement.kind) {
    case ast::StatementKind::kQuery:
      return RunQuery(*static_cast<const ast::QueryStatement&>(statement).query, sql, parameters);
    case ast::StatementKind::kExplain:
      return Explain(static_cast<const ast::ExplainStatement&>(statement), sql, parameters);
    case ast::StatementKind::kShowCatalogs:
    case ast::StatementKind::kShowSchemas:
    case ast::StatementKind::kShowTables:
    case ast::StatementKind::kShowColumns:
    case ast::StatementKind::kShowFunctions:
    case ast::StatementKind::kShowSession:
    case ast::StatementKind::kShowCreateTable:
      return Show(statement, sql);
    case ast::StatementKind::kUse: {
      const auto& use = static_cast<const ast::UseStatement&>(statement);
      std::string new_catalog = use.catalog.has_value() ? *use.catalog : catalog;
      SQE_ASSIGN_OR_RETURN(auto cat, engine->Catalog(new_catalog));
      SQE_ASSIGN_OR_RETURN(bool exists, cat->NamespaceExists({use.schema}));
      if (!exists) {
        return sql::SqlErrorAt(
            sql, statement.pos,
            "Schema '" + use.schema + "' does not exist in catalog '" + new_catalog + "'");
      }
      catalog = new_catalog;
      schema = use.schema;
      QueryResult r = NoRows("USE");
      r.set_catalog = catalog;
      r.set_schema = schema;
      return r;
    }
    case ast::StatementKind::kSetSession: {
      const auto& set = static_cast<const ast::SetSessionStatement&>(statement);
      std::unique_ptr<exec::ExecContext> ctx = MakeContext("set session");
      SessionCatalog binder_catalog(*this, ctx.get());
      SQE_ASSIGN_OR_RETURN(exec::Value v, planner::BindConstant(*set.value, binder_catalog, sql));
      std::string text = v.is_null()                                   ? ""
                         : v.type()->id() == columnar::TypeId::kString ? v.string_value()
                                                                       : v.ToSql();
      properties[set.name.ToString()] = text;
      return NoRows("SET SESSION");
    }
    case ast::StatementKind::kResetSession: {
      properties.erase(static_cast<const ast::ResetSessionStatement&>(statement).name.ToString());
      return NoRows("RESET SESSION");
    }
    case ast::StatementKind::kPrepare: {
      const auto& p = static_cast<const ast::PrepareStatement&>(statement);
      prepared[p.name] = p.statement->text;
      return NoRows("PREPARE");
    }
    case ast::StatementKind::kDeallocate: {
      const auto& p = static_cast<const ast::PreparedNameStatement&>(statement);
      if (prepared.erase(p.name) == 0) {
        return sql::SqlErrorAt(sql, statement.pos, "Prepared statement not found: " + p.name);
      }
      return NoRows("DEALLOCATE");
    }
    case ast::StatementKind::kExecute: {
      const auto& e = static_cast<const ast::ExecuteStatement&>(statement);
      auto it = prepared.find(e.name);
      if (it == prepared.end()) {
        return sql::SqlErrorAt(sql, statement.pos, "Prepared statement not found: " + e.name);
      }
      SQE_ASSIGN_OR_RETURN(std::vector<exec::Value> values, BindParameters(e.parameters, sql));
      std::string text = it->second;
      SQE_ASSIGN_OR_RETURN(ast::StatementPtr inner, sql::ParseStatement(text));
      return Run(*inner, text, values);
    }
    case ast::StatementKind::kExecuteImmediate: {
      const auto& e = static_cast<const ast::ExecuteImmediateStatement&>(statement);
      SQE_ASSIGN_OR_RETURN(std::vector<exec::Value> values, BindParameters(e.parameters, sql));
      SQE_ASSIGN_OR_RETURN(ast::StatementPtr inner, sql::ParseStatement(e.sql));
      return Run(*inner, e.sql, values);
    }
    case ast::StatementKind::kStartTransaction:
    case ast::StatementKind::kCommit:
    case ast::StatementKind::kRollback: {
      // Autocommit only: every statement commits on its own.
      return NoRows(ast::StatementKindName(statement.kind));
    }
    case ast::StatementKind::kCreateSchema:
    case ast::StatementKind::kDropSchema:
    case ast::StatementKind::kCreateTable:
    case ast::StatementKind::kDropTable:
    case ast::StatementKind::kAlterTable:
      return RunDdl(statement, sql);
    case ast::StatementKind::kInsert:
    case ast::StatementKind::kCreateTableAsSelect:
      return RunInsert(statement, sql, parameters);
    default:
      break;
  }
  return Status::NotImplemented(
      sql::SqlErrorAt(sql, statement.pos,
                      std::string(ast::StatementKindName(statement.kind)) + " is not supported yet")
          .message());
}

}  // namespace sqe::engine
