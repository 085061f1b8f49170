#include "server/trino/trino_query.h"

#include "columnar/json_value_encoding.h"
#include "server/trino/trino_types.h"
#include "sql/ast.h"
#include "sql/parser.h"

namespace sqe::server::trino {
namespace {

using nlohmann::json;

int64_t MillisBetween(TrinoQuery::SteadyClock::time_point from,
                      TrinoQuery::SteadyClock::time_point to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

/// The value of SET SESSION as the client should store it: the literal as written.
std::optional<std::string> SetSessionValue(const sql::ast::Expr& value) {
  using sql::ast::ExprKind;
  if (value.kind == ExprKind::kLiteral && value.literal_kind != sql::ast::LiteralKind::kNull) {
    return value.text;
  }
  if (value.kind == ExprKind::kUnary && value.op == "-" && value.left != nullptr &&
      value.left->kind == ExprKind::kLiteral) {
    return "-" + value.left->text;
  }
  return std::nullopt;
}

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

HttpResponse Gone(const std::string& message) {
  return HttpResponse::Json(410, Dump(json{{"error", message}}));
}

}  // namespace

const char* StateName(TrinoQuery::State state) {
  switch (state) {
    case TrinoQuery::State::kQueued:
      return "QUEUED";
    case TrinoQuery::State::kRunning:
      return "RUNNING";
    case TrinoQuery::State::kFinished:
      return "FINISHED";
    case TrinoQuery::State::kFailed:
      return "FAILED";
  }
  return "FAILED";
}

TrinoQuery::TrinoQuery(std::string id, std::string slug, std::string user, std::string sql,
                       ClientHeaders headers, PagingOptions paging)
    : id_(std::move(id)),
      slug_(std::move(slug)),
      user_(std::move(user)),
      sql_(std::move(sql)),
      headers_(std::move(headers)),
      paging_(paging),
      created_(SteadyClock::now()),
      created_wall_(std::chrono::system_clock::now()),
      last_access_(created_) {}

TrinoQuery::~TrinoQuery() {
  Cancel();
  if (thread_.joinable()) thread_.join();
}

void TrinoQuery::Start(ClientSessions& sessions) {
  thread_ = std::thread([this, sessions = &sessions] { Run(sessions); });
}

TrinoQuery::State TrinoQuery::state() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_;
}

bool TrinoQuery::done() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_ == State::kFinished || state_ == State::kFailed;
}

TrinoQuery::SteadyClock::time_point TrinoQuery::last_access() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_access_;
}

void TrinoQuery::Fail(TrinoError error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_ == State::kFinished || state_ == State::kFailed) return;
  error_ = std::move(error);
  state_ = State::kFailed;
  ended_ = SteadyClock::now();
  buffer_.clear();
  buffered_rows_ = 0;
  cv_.notify_all();
}

void TrinoQuery::Cancel() {
  std::lock_guard<std::mutex> lock(mu_);
  last_access_ = SteadyClock::now();
  if (cancelled_) return;
  cancelled_ = true;
  if (state_ != State::kFinished && state_ != State::kFailed) {
    error_ = CanceledError();
    state_ = State::kFailed;
    ended_ = SteadyClock::now();
  }
  buffer_.clear();
  buffered_rows_ = 0;
  if (cursor_ != nullptr) cursor_->Cancel();
  if (starting_ && session_ != nullptr) session_->Cancel();
  cv_.notify_all();
}

void TrinoQuery::Run(ClientSessions* sessions) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cancelled_) return;
    state_ = State::kRunning;
    started_ = SteadyClock::now();
  }
  Result<sql::ast::StatementPtr> parsed = sql::ParseStatement(sql_);
  if (!parsed.ok()) return Fail(ToTrinoError(parsed.status(), /*syntax=*/true));

  engine::ResultCursor* cursor = nullptr;
  Status failure;
  {
    Result<ClientSessions::Lease> lease = sessions->Acquire(user_, headers_);
    if (!lease.ok()) return Fail(ToTrinoError(lease.status()));
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (cancelled_) return;
      starting_ = true;
      session_ = lease->session;
    }
    Result<std::unique_ptr<engine::ResultCursor>> started = lease->session->Start(sql_);
    std::lock_guard<std::mutex> lock(mu_);
    starting_ = false;
    session_.reset();
    if (!started.ok()) {
      failure = started.status();
    } else {
      NoteSessionChanges(**parsed, *lease->session, *lease->applied);
      cursor_ = std::move(*started);
      cursor = cursor_.get();
      schema_ = cursor_->schema();
      update_count_ = cursor_->update_count();
      bool has_columns = schema_ != nullptr && schema_->num_fields() > 0;
      is_update_ = !has_columns || update_count_ >= 0;
      if (is_update_) update_type_ = cursor_->statement_type();
      if (cancelled_) cursor_->Cancel();
    }
  }  // the session is free again once Start returned
  if (!failure.ok()) return Fail(ToTrinoError(failure));

  while (true) {
    Result<std::optional<columnar::Batch>> next = cursor->Next();
    std::unique_lock<std::mutex> lock(mu_);
    if (cancelled_) return;
    if (!next.ok()) {
      lock.unlock();
      return Fail(ToTrinoError(next.status()));
    }
    if (!next->has_value()) {
      producer_done_ = true;
      cv_.notify_all();
      return;
    }
    if (is_update_ || (*next)->num_rows() == 0) continue;
    buffered_rows_ += (*next)->num_rows();
    buffer_.push_back(std::move(**next));
    cv_.notify_all();
    cv_.wait(lock, [&] { return cancelled_ || buffered_rows_ < paging_.max_buffered_rows; });
    if (cancelled_) return;
  }
}

void TrinoQuery::NoteSessionChanges(const sql::ast::Statement& statement,
                                    const engine::Session& session, AppliedState& applied) {
  using sql::ast::StatementKind;
  const std::string& p = headers_.prefix;
  switch (statement.kind) {
    case StatementKind::kUse:
      response_headers_[p + "Set-Catalog"] = session.current_catalog();
      response_headers_[p + "Set-Schema"] = session.current_schema();
      break;
    case StatementKind::kSetSession: {
      const auto& set = static_cast<const sql::ast::SetSessionStatement&>(statement);
      std::string name = set.name.ToString();
      std::optional<std::string> value =
          set.value != nullptr ? SetSessionValue(*set.value) : std::nullopt;
      if (value && IsPlainName(name)) {
        response_headers_[p + "Set-Session"] = name + "=" + PercentEncode(*value);
        applied.properties[name] = *value;
      }
      break;
    }
    case StatementKind::kResetSession: {
      const auto& reset = static_cast<const sql::ast::ResetSessionStatement&>(statement);
      std::string name = reset.name.ToString();
      response_headers_[p + "Clear-Session"] = name;
      applied.properties.erase(name);
      break;
    }
    case StatementKind::kPrepare: {
      const auto& prepare = static_cast<const sql::ast::PrepareStatement&>(statement);
      if (prepare.statement == nullptr) break;
      response_headers_[p + "Added-Prepare"] =
          prepare.name + "=" + PercentEncode(prepare.statement->text);
      applied.prepared[prepare.name] = prepare.statement->text;
      break;
    }
    case StatementKind::kStartTransaction:
      // Autocommit only: the transaction is a name the client carries until COMMIT or
      // ROLLBACK; every statement inside it commits on its own.
      response_headers_[p + "Started-Transaction-Id"] = id_;
      break;
    case StatementKind::kCommit:
    case StatementKind::kRollback:
      response_headers_[p + "Clear-Transaction-Id"] = "true";
      break;
    case StatementKind::kDeallocate: {
      const auto& deallocate = static_cast<const sql::ast::PreparedNameStatement&>(statement);
      response_headers_[p + "Deallocated-Prepare"] = deallocate.name;
      applied.prepared.erase(deallocate.name);
      break;
    }
    default:
      break;
  }
}

std::string TrinoQuery::NextUri(const std::string& base_uri, uint64_t token) const {
  return base_uri + "/v1/statement/executing/" + id_ + "/" + slug_ + "/" + std::to_string(token);
}

json TrinoQuery::Stats() const {
  SteadyClock::time_point now = SteadyClock::now();
  SteadyClock::time_point end = ended_.value_or(now);
  int64_t elapsed = MillisBetween(created_, end);
  int64_t queued = MillisBetween(created_, started_.value_or(end));
  bool finished = state_ == State::kFinished;
  json stats = {{"state", StateName(state_)},
                {"queued", state_ == State::kQueued},
                {"scheduled", state_ != State::kQueued},
                {"nodes", 1},
                {"totalSplits", 1},
                {"queuedSplits", state_ == State::kQueued ? 1 : 0},
                {"runningSplits", state_ == State::kRunning ? 1 : 0},
                {"completedSplits", state_ == State::kQueued || state_ == State::kRunning ? 0 : 1},
                {"cpuTimeMillis", cursor_ != nullptr ? cursor_->cpu_nanos() / 1'000'000 : 0},
                {"wallTimeMillis", elapsed - queued},
                {"queuedTimeMillis", queued},
                {"elapsedTimeMillis", elapsed},
                {"processedRows", rows_out_},
                {"processedBytes", bytes_out_},
                {"physicalInputBytes", 0},
                {"physicalWrittenBytes", 0},
                {"peakMemoryBytes", cursor_ != nullptr ? cursor_->peak_memory_bytes() : 0},
                {"spilledBytes", cursor_ != nullptr ? cursor_->spilled_bytes() : 0}};
  if (finished) stats["progressPercentage"] = 100.0;
  return stats;
}

HttpResponse TrinoQuery::Respond(const std::string& base_uri, const std::string& data_json,
                                 bool has_data, std::optional<uint64_t> next_token) {
  json body = {{"id", id_}, {"infoUri", base_uri + "/v1/query/" + id_}};
  if (next_token) {
    body["nextUri"] = NextUri(base_uri, *next_token);
    body["partialCancelUri"] = base_uri + "/v1/query/" + id_;
  }
  if (state_ != State::kFailed) {
    if (!is_update_ && schema_ != nullptr && schema_->num_fields() > 0) {
      body["columns"] = TrinoColumns(*schema_);
    } else if (is_update_ && has_data) {
      // As Trino: a row count in a `rows` bigint column, other statements (DDL, USE, SET
      // SESSION, ...) one `result` boolean true, which JDBC's execute() waits for.
      const char* name = update_count_ >= 0 ? "rows" : "result";
      const char* type = update_count_ >= 0 ? "bigint" : "boolean";
      body["columns"] =
          json::array({json{{"name", name},
                            {"type", type},
                            {"typeSignature", {{"rawType", type}, {"arguments", json::array()}}}}});
    }
  }
  body["stats"] = Stats();
  if (error_) body["error"] = error_->ToJson();
  body["warnings"] = json::array();
  if (!update_type_.empty() && state_ != State::kFailed) {
    body["updateType"] = update_type_;
    if (update_count_ >= 0) body["updateCount"] = update_count_;
  }
  std::string text = Dump(body);
  if (has_data) {
    text.pop_back();  // the closing '}'
    text += ",\"data\":";
    text += data_json;
    text += '}';
  }
  HttpResponse response = HttpResponse::Json(200, std::move(text));
  if (state_ != State::kFailed) response.headers = response_headers_;
  return response;
}

HttpResponse TrinoQuery::Accepted(const std::string& base_uri) {
  std::lock_guard<std::mutex> lock(mu_);
  json body = {{"id", id_},
               {"infoUri", base_uri + "/v1/query/" + id_},
               {"nextUri", NextUri(base_uri, 0)},
               {"stats", Stats()},
               {"warnings", json::array()}};
  body["stats"]["state"] = "QUEUED";
  body["stats"]["queued"] = true;
  return HttpResponse::Json(200, Dump(body));
}

HttpResponse TrinoQuery::Page(uint64_t token, const std::string& base_uri) {
  std::unique_lock<std::mutex> lock(mu_);
  last_access_ = SteadyClock::now();
  if (last_page_ && token + 1 == next_token_ && state_ != State::kFailed) return *last_page_;
  if (token != next_token_ && state_ != State::kFailed) {
    return Gone("query " + id_ + ": page " + std::to_string(token) + " is gone");
  }
  auto ready = [&] { return state_ == State::kFailed || buffered_rows_ > 0 || producer_done_; };
  cv_.wait_for(lock, paging_.max_wait, ready);

  if (state_ == State::kFailed) return Respond(base_uri, "", false, std::nullopt);

  std::string data = "[";
  int64_t rows = 0;
  while (!buffer_.empty() && rows < paging_.max_page_rows && data.size() < paging_.max_page_bytes) {
    const columnar::Batch& batch = buffer_.front();
    if (rows > 0) data += ',';
    if (Status st = columnar::AppendTrinoRowArray(batch, buffer_offset_, &data); !st.ok()) {
      error_ = ToTrinoError(st);
      state_ = State::kFailed;
      ended_ = SteadyClock::now();
      buffer_.clear();
      buffered_rows_ = 0;
      cv_.notify_all();
      return Respond(base_uri, "", false, std::nullopt);
    }
    ++rows;
    if (++buffer_offset_ >= batch.num_rows()) {
      buffer_.pop_front();
      buffer_offset_ = 0;
    }
  }
  data += ']';
  buffered_rows_ -= rows;
  rows_out_ += rows;
  if (rows > 0) bytes_out_ += static_cast<int64_t>(data.size());
  cv_.notify_all();  // room in the buffer

  bool last = producer_done_ && buffer_.empty();
  bool has_data = rows > 0;
  if (last && is_update_) {
    data = update_count_ >= 0 ? "[[" + std::to_string(update_count_) + "]]" : "[[true]]";
    has_data = true;
  }
  if (last) {
    state_ = State::kFinished;
    ended_ = SteadyClock::now();
  }
  HttpResponse response = Respond(base_uri, data, has_data,
                                  last ? std::nullopt : std::optional<uint64_t>(next_token_ + 1));
  ++next_token_;
  last_page_ = response;
  return response;
}

json TrinoQuery::Info(const std::string& base_uri) {
  std::lock_guard<std::mutex> lock(mu_);
  json info = {{"queryId", id_},
               {"state", StateName(state_)},
               {"query", sql_},
               {"self", base_uri + "/v1/query/" + id_},
               {"session", {{"user", user_}, {"source", headers_.source}}},
               {"queryStats", Stats()}};
  if (error_) {
    info["errorCode"] = {{"code", error_->code}, {"name", error_->name}, {"type", error_->type}};
    info["failureInfo"] = error_->ToJson()["failureInfo"];
  }
  return info;
}

engine::RuntimeQuery TrinoQuery::Runtime() const {
  std::lock_guard<std::mutex> lock(mu_);
  engine::RuntimeQuery q;
  q.query_id = id_;
  q.state = StateName(state_);
  q.user = user_;
  q.source = headers_.source;
  q.query = sql_;
  auto wall_ms = [&](SteadyClock::time_point t) {
    auto since = std::chrono::duration_cast<std::chrono::system_clock::duration>(t - created_);
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               (created_wall_ + since).time_since_epoch())
        .count();
  };
  q.created_ms = wall_ms(created_);
  if (ended_) q.end_ms = wall_ms(*ended_);
  if (error_) {
    q.error_type = error_->type;
    q.error_code = error_->name;
  }
  return q;
}

}  // namespace sqe::server::trino
