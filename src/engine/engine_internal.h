#pragma once
/// The engine's private state: Engine::Impl (what every session shares) and
/// Session::Impl (one user's state and the running statement), used by the files of
/// src/engine that implement the statements.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "common/memory_tracker.h"
#include "common/task_scheduler.h"
#include "engine/distinct_bounds.h"
#include "engine/engine.h"
#include "engine/runtime_queries.h"
#include "exec/exec_context.h"
#include "formats/parquet/footer_cache.h"
#include "io/s3/storage_file_systems.h"
#include "planner/binder.h"
#include "sql/ast.h"

namespace sqe::engine {

struct Engine::Impl {
  config::Config config;
  /// Catalogs by SQL name (the configured one; ATTACH adds more later).
  std::map<std::string, std::shared_ptr<catalog::Catalog>> catalogs;
  std::string default_catalog;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems;
  std::unique_ptr<TaskScheduler> scheduler;
  int threads = 1;
  std::shared_ptr<MemoryTracker> process_tracker;
  std::shared_ptr<parquet::FooterCache> footer_cache;
  /// Column distinct-value bounds per table snapshot (the optimizer's join statistics).
  DistinctBoundsCache distinct_bounds;
  std::atomic<int64_t> running_queries{0};
  /// What system.runtime.* lists (engine/runtime_queries.h), by registration id.
  std::mutex runtime_listers_mutex;
  std::map<int, std::function<RuntimeSnapshot()>> runtime_listers;
  int next_runtime_lister = 0;

  /// The catalog named `name`, or NotFound listing the catalogs.
  Result<std::shared_ptr<catalog::Catalog>> Catalog(const std::string& name) const;
};

/// A statement's value of a session property (SET SESSION).
using SessionProperties = std::map<std::string, std::string>;

struct Session::Impl {
  std::shared_ptr<Engine> engine_owner;  // keeps the engine alive
  Engine::Impl* engine = nullptr;
  std::string user;
  std::string catalog;
  std::string schema;
  SessionProperties properties;
  /// PREPARE name FROM ...: the statement's text.
  std::map<std::string, std::string> prepared;

  std::mutex run_mutex;  // one statement at a time
  std::mutex context_mutex;
  exec::ExecContext* running = nullptr;  // for Cancel

  /// Runs a parsed statement; `sql` is the text its positions refer to.
  Result<QueryResult> Run(const sql::ast::Statement& statement, std::string_view sql,
                          const std::vector<exec::Value>& parameters);
  /// A fresh ExecContext with the session's limits (timeout, memory, threads).
  std::unique_ptr<exec::ExecContext> MakeContext(const std::string& label);
  /// Binds, optimizes, plans and runs a query: the result batches.
  Result<QueryResult> RunQuery(const sql::ast::Query& query, std::string_view sql,
                               const std::vector<exec::Value>& parameters);
  /// Runs a bound logical plan to completion (also for subqueries during binding).
  Result<std::vector<columnar::Batch>> ExecutePlan(const planner::LogicalPtr& plan,
                                                   exec::ExecContext* ctx,
                                                   std::string* explain_analyze = nullptr);
  Result<QueryResult> Explain(const sql::ast::ExplainStatement& statement, std::string_view sql,
                              const std::vector<exec::Value>& parameters);
  /// EXECUTE ... USING values, folded to constants.
  Result<std::vector<exec::Value>> BindParameters(const std::vector<sql::ast::ExprPtr>& parameters,
                                                  std::string_view sql);
  Result<QueryResult> Show(const sql::ast::Statement& statement, std::string_view sql);
  Result<QueryResult> RunDdl(const sql::ast::Statement& statement, std::string_view sql);
  Result<QueryResult> RunInsert(const sql::ast::Statement& statement, std::string_view sql,
                                const std::vector<exec::Value>& parameters);
};

/// The BinderCatalog of one session: resolves names against the engine's catalogs.
class SessionCatalog : public planner::BinderCatalog {
 public:
  SessionCatalog(Session::Impl& session, exec::ExecContext* ctx) : session_(session), ctx_(ctx) {}

  const std::string& current_catalog() const override { return session_.catalog; }
  const std::string& current_schema() const override { return session_.schema; }
  const std::string& user() const override { return session_.user; }
  Result<std::shared_ptr<const planner::ScanSource>> LoadTable(
      const planner::TableName& name, const planner::TimeTravel& travel) override;
  Result<std::shared_ptr<const planner::ScanSource>> ReadParquet(
      const std::vector<std::string>& paths) override;
  Result<std::shared_ptr<const planner::ScanSource>> IcebergScan(
      const std::string& path, const std::string& metadata_version,
      const planner::TimeTravel& travel) override;
  Result<std::optional<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>>> SystemTable(
      const planner::TableName& name) override;
  Result<std::vector<columnar::Batch>> Execute(const planner::LogicalPtr& plan) override;
  const exec::EvalContext& eval_context() const override { return ctx_->eval; }

 private:
  Session::Impl& session_;
  exec::ExecContext* ctx_;
};

/// A schema of varchar columns named `names`.
columnar::SchemaPtr VarcharSchema(const std::vector<std::string>& names);
/// A result of varchar rows (SHOW, DESCRIBE, EXPLAIN).
Result<QueryResult> VarcharResult(const std::vector<std::string>& names,
                                  const std::vector<std::vector<std::string>>& rows,
                                  std::string statement_type);
/// The Trino-style name of a SQL pattern match for SHOW ... LIKE.
bool LikeMatch(std::string_view value, std::string_view pattern,
               std::optional<char> escape = std::nullopt);

}  // namespace sqe::engine
