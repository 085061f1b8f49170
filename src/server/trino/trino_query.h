#pragma once
/// TrinoQuery: one statement submitted by POST /v1/statement, from QUEUED to FINISHED or
/// FAILED. A thread of its own acquires the user's session (ClientSessions), starts the
/// statement (Session::Start) and pulls the result batches into a bounded buffer; the
/// client's GETs of nextUri take pages off that buffer (bounded in rows and JSON bytes,
/// returned early when no data comes within `max_wait`). The session changes a statement
/// makes (USE, SET/RESET SESSION, PREPARE, DEALLOCATE) become response headers.
///
/// Thread safety: every public method may be called from any thread. The destructor
/// cancels the statement and joins the thread.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "columnar/batch.h"
#include "engine/result_cursor.h"
#include "engine/runtime_queries.h"
#include "server/http/http_types.h"
#include "server/trino/client_headers.h"
#include "server/trino/client_sessions.h"
#include "server/trino/trino_error.h"

namespace sqe::sql::ast {
struct Statement;
}  // namespace sqe::sql::ast

namespace sqe::server::trino {

/// Limits of one query's paging.
struct PagingOptions {
  int64_t max_page_rows = 50000;
  size_t max_page_bytes = 1 << 20;  ///< JSON bytes of "data"
  std::chrono::milliseconds max_wait{1000};
  /// The producer waits while this many rows are buffered and not yet paged out.
  int64_t max_buffered_rows = 200000;
};

class TrinoQuery {
 public:
  enum class State { kQueued, kRunning, kFinished, kFailed };
  using SteadyClock = std::chrono::steady_clock;

  TrinoQuery(std::string id, std::string slug, std::string user, std::string sql,
             ClientHeaders headers, PagingOptions paging);
  ~TrinoQuery();
  TrinoQuery(const TrinoQuery&) = delete;
  TrinoQuery& operator=(const TrinoQuery&) = delete;

  /// Starts the statement on the query's thread. `sessions` must outlive the query.
  void Start(ClientSessions& sessions);

  /// The POST answer: id, infoUri, nextUri (token 0), stats with state QUEUED.
  HttpResponse Accepted(const std::string& base_uri);

  /// The answer to GET of nextUri `token`: the next page (or the last one again when the
  /// client repeats a token), 410 for a token that is neither.
  HttpResponse Page(uint64_t token, const std::string& base_uri);

  /// Stops the statement; later pages answer FAILED with USER_CANCELED.
  void Cancel();
  /// Cancels a query its client stopped polling (ABANDONED_QUERY is reported as cancel).
  void Abandon() { Cancel(); }

  /// /v1/query JSON: queryId, state, query, self, user, stats.
  nlohmann::json Info(const std::string& base_uri);
  /// The query as system.runtime.queries shows it.
  engine::RuntimeQuery Runtime() const;

  const std::string& id() const { return id_; }
  const std::string& slug() const { return slug_; }
  const std::string& user() const { return user_; }
  State state() const;
  /// Whether the query reached FINISHED or FAILED (nothing more to page).
  bool done() const;
  /// When the client last touched the query (POST, GET, DELETE).
  SteadyClock::time_point last_access() const;

 private:
  void Run(ClientSessions* sessions);
  /// Records the session change `statement` (just run) made as response headers, and in
  /// `applied` so the client's next headers are not applied again. Caller holds mu_.
  void NoteSessionChanges(const sql::ast::Statement& statement, const engine::Session& session,
                          AppliedState& applied);
  void Fail(TrinoError error);
  /// The response for the current state with `data_json` (already-encoded rows, maybe
  /// empty) and `next_token` (nullopt for the last page). Caller holds mu_.
  HttpResponse Respond(const std::string& base_uri, const std::string& data_json, bool has_data,
                       std::optional<uint64_t> next_token);
  nlohmann::json Stats() const;  ///< caller holds mu_
  std::string NextUri(const std::string& base_uri, uint64_t token) const;

  const std::string id_;
  const std::string slug_;
  const std::string user_;
  const std::string sql_;
  const ClientHeaders headers_;
  const PagingOptions paging_;
  const SteadyClock::time_point created_;
  const std::chrono::system_clock::time_point created_wall_;

  mutable std::mutex mu_;
  std::condition_variable cv_;  // data arrived, the producer ended, or space freed
  State state_ = State::kQueued;
  SteadyClock::time_point last_access_;
  std::optional<SteadyClock::time_point> started_;
  std::optional<SteadyClock::time_point> ended_;
  bool cancelled_ = false;
  bool starting_ = false;                     // inside Session::Start (cancel through the session)
  std::shared_ptr<engine::Session> session_;  // while starting
  std::unique_ptr<engine::ResultCursor> cursor_;
  bool producer_done_ = false;
  std::optional<TrinoError> error_;

  columnar::SchemaPtr schema_;  // set once started
  bool is_update_ = false;
  std::string update_type_;
  int64_t update_count_ = -1;
  std::map<std::string, std::string> response_headers_;

  std::deque<columnar::Batch> buffer_;
  int64_t buffer_offset_ = 0;  // rows of buffer_.front() already paged out
  int64_t buffered_rows_ = 0;
  int64_t rows_out_ = 0;
  int64_t bytes_out_ = 0;

  uint64_t next_token_ = 0;                // the token a new page answers
  std::optional<HttpResponse> last_page_;  // the answer to token next_token_ - 1

  std::thread thread_;
};

/// "QUEUED", "RUNNING", "FINISHED", "FAILED".
const char* StateName(TrinoQuery::State state);

}  // namespace sqe::server::trino
