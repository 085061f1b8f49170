#include <sqlite3.h>

#include <chrono>
#include <thread>

#include "catalog/sql_connection.h"

namespace sqe::catalog {

namespace {

// A SQLite database handle (one connection; SQLite serializes writers with its locks).
class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteConnection() override { sqlite3_close_v2(db_); }

  const char* dialect() const override { return "sqlite"; }

  Result<SqlResult> Execute(const std::string& sql,
                            const std::vector<std::optional<std::string>>& params) override {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) return Error("prepare", rc);
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(stmt, sqlite3_finalize);
    for (size_t i = 0; i < params.size(); ++i) {
      int index = static_cast<int>(i) + 1;
      rc = params[i] ? sqlite3_bind_text(stmt, index, params[i]->data(),
                                         static_cast<int>(params[i]->size()), SQLITE_TRANSIENT)
                     : sqlite3_bind_null(stmt, index);
      if (rc != SQLITE_OK) return Error("bind", rc);
    }
    SqlResult result;
    while (true) {
      rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) {
        int columns = sqlite3_column_count(stmt);
        SqlRow row;
        row.reserve(static_cast<size_t>(columns));
        for (int c = 0; c < columns; ++c) {
          if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
            row.emplace_back(std::nullopt);
          } else {
            const unsigned char* text = sqlite3_column_text(stmt, c);
            int n = sqlite3_column_bytes(stmt, c);
            row.emplace_back(
                std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(n)));
          }
        }
        result.rows.push_back(std::move(row));
        continue;
      }
      if (rc == SQLITE_DONE) break;
      return Error("execute", rc);
    }
    result.changed_rows = sqlite3_changes(db_);
    return result;
  }

  Status InTransaction(const std::function<Status()>& body) override {
    // BEGIN IMMEDIATE takes the write lock up front, so two committers serialize here
    // instead of failing at COMMIT.
    return RunTransaction("BEGIN IMMEDIATE", body);
  }

 private:
  Status Error(const char* step, int rc) {
    std::string message = std::string("SQLite catalog database ") + path_ + ": " + step +
                          " failed: " + sqlite3_errmsg(db_);
    int primary = rc & 0xff;
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY || rc == SQLITE_CONSTRAINT_UNIQUE) {
      return Status::AlreadyExists(std::move(message));
    }
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
      return Status::Conflict(std::move(message));
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
      return Status::Corruption(std::move(message));
    }
    return Status::IOError(std::move(message));
  }

  sqlite3* db_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close_v2(db);
    return Status::IOError("cannot open the SQLite catalog database " + path + ": " + message);
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, 30'000);
  auto connection = std::make_unique<SqliteConnection>(db, path);
  SQE_RETURN_NOT_OK(connection->Execute("PRAGMA journal_mode=WAL", {}).status());
  SQE_RETURN_NOT_OK(connection->Execute("PRAGMA foreign_keys=ON", {}).status());
  // Reading the schema proves the file is a database (not a text file named .db).
  SQE_RETURN_NOT_OK(connection->Execute("SELECT count(*) FROM sqlite_master", {}).status());
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

}  // namespace sqe::catalog
