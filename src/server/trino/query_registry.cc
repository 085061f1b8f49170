#include "server/trino/query_registry.h"

#include <cstdio>
#include <ctime>
#include <random>

namespace sqe::server::trino {
namespace {

std::string RandomText(size_t length, const char* alphabet, size_t alphabet_size) {
  thread_local std::mt19937_64 generator(std::random_device{}());
  std::uniform_int_distribution<size_t> pick(0, alphabet_size - 1);
  std::string out;
  for (size_t i = 0; i < length; ++i) out += alphabet[pick(generator)];
  return out;
}

}  // namespace

QueryRegistry::QueryRegistry(std::chrono::seconds retention, std::chrono::seconds abandon_after)
    : retention_(retention),
      abandon_after_(abandon_after),
      suffix_(RandomText(5, "abcdefghijklmnopqrstuvwxyz0123456789", 36)) {}

QueryRegistry::~QueryRegistry() {
  std::map<std::string, std::shared_ptr<TrinoQuery>> queries;
  {
    std::lock_guard<std::mutex> lock(mu_);
    queries.swap(queries_);
  }
  for (auto& [id, query] : queries) query->Cancel();
  queries.clear();  // joins each query's thread
}

std::string QueryRegistry::NewId() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d%02d%02d_%02d%02d%02d_%05llu_", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<unsigned long long>(++counter_ % 100000));
  return buf + suffix_;
}

std::string QueryRegistry::NewSlug() { return RandomText(16, "0123456789abcdef", 16); }

void QueryRegistry::Add(std::shared_ptr<TrinoQuery> query) {
  std::lock_guard<std::mutex> lock(mu_);
  queries_[query->id()] = std::move(query);
}

std::shared_ptr<TrinoQuery> QueryRegistry::Find(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = queries_.find(id);
  return it == queries_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<TrinoQuery>> QueryRegistry::All() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<TrinoQuery>> out;
  for (const auto& [id, query] : queries_) out.push_back(query);
  return out;
}

void QueryRegistry::Sweep() {
  auto now = TrinoQuery::SteadyClock::now();
  std::vector<std::shared_ptr<TrinoQuery>> forgotten;
  std::vector<std::shared_ptr<TrinoQuery>> abandoned;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = queries_.begin(); it != queries_.end();) {
      const std::shared_ptr<TrinoQuery>& query = it->second;
      auto idle = now - query->last_access();
      if (query->done() && idle > retention_) {
        forgotten.push_back(query);
        it = queries_.erase(it);
        continue;
      }
      if (!query->done() && idle > abandon_after_) abandoned.push_back(query);
      ++it;
    }
  }
  for (auto& query : abandoned) query->Abandon();
  // `forgotten` goes out of scope here, outside the lock: a query's destructor joins its
  // thread, which has ended (or ends within a second of its cancel).
}

}  // namespace sqe::server::trino
