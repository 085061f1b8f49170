#include "server/trino/client_sessions.h"

#include <cctype>

#include "common/logging.h"

namespace sqe::server::trino {
namespace {

Status Run(engine::Session& session, const std::string& sql) {
  Result<engine::QueryResult> result = session.Execute(sql);
  return result.ok() ? Status::OK() : result.status();
}

}  // namespace

bool IsPlainName(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '.' && name[i - 1] == '.') return false;
    if (!std::isalnum(c) && c != '_' && c != '.') return false;
  }
  return true;
}

std::string SqlStringLiteral(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

ClientSessions::ClientSessions(std::shared_ptr<engine::Engine> engine,
                               std::chrono::seconds idle_ttl)
    : sessions_(std::move(engine), idle_ttl) {}

Result<ClientSessions::Lease> ClientSessions::Acquire(const std::string& user,
                                                      const ClientHeaders& headers) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::shared_ptr<Slot>& entry = slots_[user];
    if (entry == nullptr) entry = std::make_shared<Slot>();
    slot = entry;
  }
  Lease lease;
  lease.lock = std::unique_lock<std::mutex>(slot->mu);
  lease.session = sessions_.ForUser(user);
  // A session made anew (the old one idled out) starts from nothing applied.
  if (slot->applied.session != lease.session.get()) {
    slot->applied = AppliedState{};
    slot->applied.session = lease.session.get();
  }
  SQE_RETURN_NOT_OK(Apply(*lease.session, slot->applied, headers));
  lease.applied = &slot->applied;
  // The slot outlives the lease: slots are never erased (one small entry per user).
  return lease;
}

Status ClientSessions::Apply(engine::Session& session, AppliedState& applied,
                             const ClientHeaders& headers) {
  // Trino clients send the catalog and schema with every request, whether or not the
  // schema exists yet (a CLI started with --schema before CREATE SCHEMA): set them as
  // sent; only names they must resolve fail.
  if (headers.catalog || headers.schema) {
    std::string catalog = headers.catalog.value_or(session.current_catalog());
    std::string schema = headers.schema.value_or("");
    if (catalog != session.current_catalog() || schema != session.current_schema()) {
      session.SetCurrentPath(std::move(catalog), std::move(schema));
    }
  }

  std::map<std::string, std::string> wanted = headers.session_properties;
  if (headers.time_zone && wanted.count("time_zone") == 0) wanted["time_zone"] = *headers.time_zone;
  for (auto it = applied.properties.begin(); it != applied.properties.end();) {
    if (wanted.count(it->first) == 0) {
      SQE_RETURN_NOT_OK(Run(session, "RESET SESSION " + it->first));
      it = applied.properties.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& [name, value] : wanted) {
    if (!IsPlainName(name))
      return Status::InvalidArgument("invalid session property name: " + name);
    auto it = applied.properties.find(name);
    if (it != applied.properties.end() && it->second == value) continue;
    SQE_RETURN_NOT_OK(Run(session, "SET SESSION " + name + " = " + SqlStringLiteral(value)));
    applied.properties[name] = value;
  }

  for (auto it = applied.prepared.begin(); it != applied.prepared.end();) {
    if (headers.prepared_statements.count(it->first) == 0) {
      // Already gone (DEALLOCATE through another client) is fine.
      Status st = Run(session, "DEALLOCATE PREPARE " + it->first);
      if (!st.ok()) log::Debug("trino.deallocate_failed", {{"error", st.message()}});
      it = applied.prepared.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& [name, sql] : headers.prepared_statements) {
    // A statement this session prepared stays as it was: the copy the client sends back
    // went through form encoding and cannot be trusted to be byte-equal ('+' and ' ').
    if (applied.prepared.count(name) != 0) continue;
    if (!IsPlainName(name) || name.find('.') != std::string::npos) {
      return Status::InvalidArgument("invalid prepared statement name: " + name);
    }
    // One prepared elsewhere (another server, an idled-out session): best effort; if it
    // does not parse, EXECUTE says the statement is not found.
    Status st = Run(session, "PREPARE " + name + " FROM " + sql);
    if (!st.ok()) {
      log::Debug("trino.prepare_from_header_failed", {{"name", name}, {"error", st.message()}});
      continue;
    }
    applied.prepared[name] = sql;
  }
  return Status::OK();
}

}  // namespace sqe::server::trino
