#pragma once
/// Engine and Session: the in-process entry to SQL (ARCHITECTURE.md, src/engine). An
/// Engine owns what every query shares: the configuration, the catalogs (the configured
/// one under `catalog.name`, default `iceberg`), the file system, the scheduler and the
/// process memory tracker. A Session is one user's state: current catalog and schema,
/// session properties, prepared statements. sqe-shell, the Flight SQL server and the
/// Trino server all run statements through Session::Execute.
///
/// Thread safety: Engine is thread-safe; a Session runs one statement at a time (calls
/// from several threads are serialized), but Cancel may be called from any thread.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/batch.h"
#include "columnar/schema.h"
#include "common/result.h"
#include "config/config.h"
#include "exec/value.h"

namespace sqe::engine {

class ResultCursor;  // engine/result_cursor.h

/// What a statement returned.
struct QueryResult {
  /// Result columns (also set for statements without rows: then empty).
  columnar::SchemaPtr schema;
  std::vector<columnar::Batch> batches;
  /// "SELECT", "INSERT", "CREATE TABLE", "SET SESSION", ... (Trino's updateType).
  std::string statement_type;
  /// Rows written by INSERT / CTAS / DELETE ...; -1 for queries.
  int64_t update_count = -1;
  /// Session changes for protocols to report (Trino's X-Trino-Set-Catalog etc.).
  std::optional<std::string> set_catalog;
  std::optional<std::string> set_schema;

  int64_t num_rows() const;
};

struct EngineOptions {
  config::Config config;
  /// Shell: a warehouse directory for an embedded catalog (overrides config's catalog).
  std::string warehouse;
  /// Query threads (0 = config's / number of cores).
  int threads = 0;
};

/// What a statement would return, found without running it (Session::Describe): what a
/// protocol reports for a prepared statement before any execution.
struct StatementDescription {
  /// Result columns; empty for statements that return no rows.
  columnar::SchemaPtr schema;
  /// True for statements that return a row count or nothing (INSERT, DDL, SET, USE...).
  bool is_update = false;
  /// One entry per `?` in order; nullptr where the type is not known before binding values.
  std::vector<columnar::TypePtr> parameter_types;
};

/// Where Session::Ingest loads rows, and what it does when the table is missing or exists
/// (Flight SQL's CommandStatementIngest table definition options).
struct IngestOptions {
  /// Unset: the session's current catalog / schema.
  std::optional<std::string> catalog;
  std::optional<std::string> schema;
  std::string table;
  enum class IfMissing { kCreate, kFail };
  enum class IfExists { kFail, kAppend, kReplace };
  IfMissing if_missing = IfMissing::kFail;
  IfExists if_exists = IfExists::kFail;
};

class Session;

class Engine : public std::enable_shared_from_this<Engine> {
 public:
  static Result<std::shared_ptr<Engine>> Open(EngineOptions options);
  ~Engine();

  /// A new session for `user` in the default catalog (config catalog.name) and schema.
  std::unique_ptr<Session> NewSession(std::string user = "sqe");

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  explicit Engine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class Session {
 public:
  ~Session();
  /// Parses, binds, optimizes and runs one statement (a trailing ';' is allowed).
  /// Errors carry the SQL position ("line 1:8: column 'x' cannot be resolved ...").
  Result<QueryResult> Execute(std::string_view sql);
  /// Splits `sql` on top-level ';' and runs each statement; stops at the first error.
  Result<std::vector<QueryResult>> ExecuteScript(std::string_view sql);
  /// Stops the running statement (from any thread): it fails with Cancelled within 1 s.
  void Cancel();

  /// Execute with values for the statement's `?` placeholders, in order.
  Result<QueryResult> ExecuteWithParameters(std::string_view sql,
                                            const std::vector<exec::Value>& parameters);
  /// Starts one statement and returns a cursor over its result, pulled batch by batch: a
  /// query runs on its own thread into a bounded queue (it waits while the consumer is
  /// behind), so a result is never held whole; other statements run at once and the
  /// cursor hands out what they returned. The session is free again once Start returns:
  /// the cursor keeps what it needs (and the engine) alive. Cancel it or drop it to stop.
  Result<std::unique_ptr<ResultCursor>> Start(std::string_view sql,
                                              const std::vector<exec::Value>& parameters = {});
  /// The result schema, whether the statement is an update, and its parameters, without
  /// running it (queries are bound, not executed; SHOW-like statements, which only read
  /// metadata, are run for their schema).
  Result<StatementDescription> Describe(std::string_view sql);

  /// Bulk load (engine/ingest.cc): writes `batches` (rows of `schema`, columns matched to
  /// the table's by name) into the table `options` names through the INSERT path, in one
  /// commit, first creating it from `schema` (or dropping and re-creating it) as `options`
  /// ask. The number of rows written.
  Result<int64_t> Ingest(const IngestOptions& options, const columnar::SchemaPtr& schema,
                         const std::vector<columnar::Batch>& batches);

  /// Sets the current catalog and schema without checking that they exist (USE does):
  /// for protocols whose clients send them with every request (Trino's X-Trino-Catalog
  /// and -Schema), where a missing schema only matters to names it must resolve. Waits
  /// for a running statement.
  void SetCurrentPath(std::string catalog, std::string schema);

  const std::string& user() const;
  const std::string& current_catalog() const;
  const std::string& current_schema() const;

  struct Impl;

 private:
  friend class Engine;
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sqe::engine
