#pragma once
/// SqlConnection: the small SQL surface the JDBC-layout catalogs need (SQLite for the
/// embedded and JDBC-SQLite catalogs, PostgreSQL through libpq for JDBC-PostgreSQL):
/// run a statement with text parameters, read rows of nullable text, count changed rows,
/// and run a function inside a transaction. Statements use `?` placeholders; the
/// PostgreSQL implementation rewrites them to $1, $2, ...
///
/// Errors are Status values naming the statement's purpose (never its parameters: they
/// may carry locations with credentials); a unique-key violation is AlreadyExists, a
/// serialization/lock conflict is Conflict.
///
/// Thread safety: one connection per thread at a time; callers hold a mutex or a pool.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace sqe::catalog {

using SqlRow = std::vector<std::optional<std::string>>;

struct SqlResult {
  std::vector<SqlRow> rows;
  int64_t changed_rows = 0;
};

class SqlConnection {
 public:
  virtual ~SqlConnection();

  /// Runs one statement. `params` bind to the `?` placeholders in order (nullopt: NULL).
  virtual Result<SqlResult> Execute(const std::string& sql,
                                    const std::vector<std::optional<std::string>>& params) = 0;

  /// Runs `body` in a transaction: committed when it returns OK, rolled back otherwise.
  virtual Status InTransaction(const std::function<Status()>& body) = 0;

  /// "sqlite" or "postgresql" (for dialect differences such as LIKE escapes).
  virtual const char* dialect() const = 0;

 protected:
  /// InTransaction for implementations: `begin_sql`, the body, then COMMIT, or ROLLBACK
  /// when the body or the commit fails.
  Status RunTransaction(const char* begin_sql, const std::function<Status()>& body);
};

/// Opens (creating) the SQLite database file `path` with WAL journaling and a busy
/// timeout, so several processes can share one embedded catalog.
Result<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path);

/// Connects to PostgreSQL with a libpq connection string or URI
/// ("postgresql://user@127.0.0.1:5432/db"). The password never appears in errors.
Result<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& conninfo);

}  // namespace sqe::catalog
