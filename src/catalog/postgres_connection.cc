#include <libpq-fe.h>

#include "catalog/sql_connection.h"

namespace sqe::catalog {
namespace {

// `?` placeholders to PostgreSQL's $1, $2, ... (outside single-quoted literals).
std::string NumberPlaceholders(const std::string& sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int next = 1;
  bool in_literal = false;
  for (char c : sql) {
    if (c == '\'') in_literal = !in_literal;
    if (c == '?' && !in_literal) {
      out += "$" + std::to_string(next++);
    } else {
      out += c;
    }
  }
  return out;
}

// One libpq connection.
class PostgresConnection final : public SqlConnection {
 public:
  explicit PostgresConnection(PGconn* conn) : conn_(conn) {
    where_ = std::string("PostgreSQL catalog database ") + PQdb(conn_) + " at " + PQhost(conn_) +
             ":" + PQport(conn_);
  }
  ~PostgresConnection() override { PQfinish(conn_); }

  const char* dialect() const override { return "postgresql"; }

  Result<SqlResult> Execute(const std::string& sql,
                            const std::vector<std::optional<std::string>>& params) override {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
    std::string numbered = NumberPlaceholders(sql);
    PGresult* res = PQexecParams(conn_, numbered.c_str(), static_cast<int>(values.size()), nullptr,
                                 values.data(), nullptr, nullptr, 0);
    std::unique_ptr<PGresult, void (*)(PGresult*)> guard(res, PQclear);
    ExecStatusType status = PQresultStatus(res);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return Error(res);
    SqlResult result;
    int rows = PQntuples(res), columns = PQnfields(res);
    for (int r = 0; r < rows; ++r) {
      SqlRow row;
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(res, r, c)) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(
              std::string(PQgetvalue(res, r, c), static_cast<size_t>(PQgetlength(res, r, c))));
        }
      }
      result.rows.push_back(std::move(row));
    }
    const char* changed = PQcmdTuples(res);
    result.changed_rows = (changed && *changed) ? std::stoll(changed) : 0;
    return result;
  }

  Status InTransaction(const std::function<Status()>& body) override {
    return RunTransaction("BEGIN", body);
  }

 private:
  Status Error(PGresult* res) {
    std::string message = where_ + ": " + PQresultErrorMessage(res);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    const char* state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    std::string sqlstate = state ? state : "";
    if (sqlstate == "23505") return Status::AlreadyExists(std::move(message));
    if (sqlstate == "40001" || sqlstate == "40P01") return Status::Conflict(std::move(message));
    if (PQstatus(conn_) != CONNECTION_OK) return Status::IOError(std::move(message));
    return Status::IOError(std::move(message));
  }

  PGconn* conn_;
  std::string where_;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& conninfo) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr) return Status::ResourceExhausted("cannot allocate a PostgreSQL connection");
  if (PQstatus(conn) != CONNECTION_OK) {
    // libpq's message names host and port; it never echoes the password.
    std::string message = PQerrorMessage(conn);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    PQfinish(conn);
    return Status::IOError("cannot connect to the PostgreSQL catalog database: " + message);
  }
  return std::unique_ptr<SqlConnection>(std::make_unique<PostgresConnection>(conn));
}

}  // namespace sqe::catalog
