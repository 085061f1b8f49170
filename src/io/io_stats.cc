#include "io/io_stats.h"

#include <utility>

namespace sqe::io {

void IoStats::AddRequest(Request kind) {
  requests_.fetch_add(1, std::memory_order_relaxed);
  std::atomic<int64_t>* counter = &get_;
  switch (kind) {
    case Request::kGet:
      counter = &get_;
      break;
    case Request::kHead:
      counter = &head_;
      break;
    case Request::kPut:
      counter = &put_;
      break;
    case Request::kList:
      counter = &list_;
      break;
    case Request::kDelete:
      counter = &delete_;
      break;
  }
  counter->fetch_add(1, std::memory_order_relaxed);
}

IoStatsSnapshot IoStats::Snapshot() const {
  IoStatsSnapshot s;
  s.requests = requests_.load();
  s.get_requests = get_.load();
  s.head_requests = head_.load();
  s.put_requests = put_.load();
  s.list_requests = list_.load();
  s.delete_requests = delete_.load();
  s.retries = retries_.load();
  s.bytes_read = bytes_read_.load();
  s.bytes_written = bytes_written_.load();
  s.cache_hits = cache_hits_.load();
  return s;
}

void IoStats::Add(const IoStatsSnapshot& o) {
  requests_ += o.requests;
  get_ += o.get_requests;
  head_ += o.head_requests;
  put_ += o.put_requests;
  list_ += o.list_requests;
  delete_ += o.delete_requests;
  retries_ += o.retries;
  bytes_read_ += o.bytes_read;
  bytes_written_ += o.bytes_written;
  cache_hits_ += o.cache_hits;
}

std::string IoStatsSnapshot::ToJson() const {
  const std::pair<const char*, int64_t> fields[] = {
      {"requests", requests},           {"get_requests", get_requests},
      {"head_requests", head_requests}, {"put_requests", put_requests},
      {"list_requests", list_requests}, {"delete_requests", delete_requests},
      {"retries", retries},             {"bytes_read", bytes_read},
      {"bytes_written", bytes_written}, {"cache_hits", cache_hits}};
  std::string out = "{";
  for (const auto& [name, value] : fields) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += name;
    out += "\":";
    out += std::to_string(value);
  }
  out += '}';
  return out;
}

}  // namespace sqe::io
