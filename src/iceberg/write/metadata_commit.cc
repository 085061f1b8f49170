#include "iceberg/write/metadata_commit.h"

#include <chrono>
#include <random>
#include <thread>

namespace sqe::iceberg {
namespace {

int RetriesOf(const TableMetadata& metadata) {
  auto it = metadata.properties.find("commit.retry.num-retries");
  if (it == metadata.properties.end()) return 4;
  try {
    return std::clamp(std::stoi(it->second), 0, 100);
  } catch (...) {
    return 4;
  }
}

}  // namespace

Result<TableMetadata> CommitTableChange(TableOperations& table, const TableChangeBuilder& make) {
  SQE_ASSIGN_OR_RETURN(TableMetadata base, table.Refresh());
  const int retries = RetriesOf(base);
  thread_local std::mt19937_64 rng{std::random_device{}()};
  for (int attempt = 0;; ++attempt) {
    SQE_ASSIGN_OR_RETURN(TableChange change, make(base));
    if (change.empty()) return base;
    Result<TableMetadata> committed = table.Commit(change.requirements, change.updates);
    if (committed.ok() || committed.status().code() != StatusCode::kConflict ||
        attempt >= retries) {
      if (!committed.ok() && committed.status().code() == StatusCode::kConflict) {
        return Status::Conflict("gave up after " + std::to_string(attempt + 1) +
                                " conflicting commits (commit.retry.num-retries = " +
                                std::to_string(retries) + "): " + committed.status().message());
      }
      return committed;
    }
    const int64_t cap = std::min<int64_t>(2000, int64_t{100} << std::min(attempt, 5));
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::uniform_int_distribution<int64_t>(10, cap)(rng)));
    SQE_ASSIGN_OR_RETURN(base, table.Refresh());
  }
}

TableChangeBuilder PropertiesChange(std::map<std::string, std::string> set,
                                    std::vector<std::string> remove) {
  return [set = std::move(set),
          remove = std::move(remove)](const TableMetadata& base) -> Result<TableChange> {
    TableChange change;
    std::map<std::string, std::string> changed;
    for (const auto& [k, v] : set) {
      auto it = base.properties.find(k);
      if (it == base.properties.end() || it->second != v) changed[k] = v;
    }
    if (!changed.empty()) change.updates.push_back(TableUpdate::SetProperties(std::move(changed)));
    std::vector<std::string> present;
    for (const std::string& k : remove) {
      if (set.count(k)) {
        return Status::InvalidArgument("property '" + k + "' is both set and removed");
      }
      if (base.properties.count(k)) present.push_back(k);
    }
    if (!present.empty()) {
      TableUpdate u;
      u.action = TableUpdate::Action::kRemoveProperties;
      u.removals = std::move(present);
      change.updates.push_back(std::move(u));
    }
    return change;
  };
}

}  // namespace sqe::iceberg
