#include "catalog/sql_connection.h"

namespace sqe::catalog {

SqlConnection::~SqlConnection() = default;

Status SqlConnection::RunTransaction(const char* begin_sql, const std::function<Status()>& body) {
  SQE_RETURN_NOT_OK(Execute(begin_sql, {}).status());
  Status status = body();
  if (status.ok()) {
    auto commit = Execute("COMMIT", {});
    if (commit.ok()) return Status::OK();
    status = commit.status();
  }
  (void)Execute("ROLLBACK", {});
  return status;
}

}  // namespace sqe::catalog
