#include "io/io_stats.h"

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
  auto field = [](const char* name, int64_t v) {
    return std::string("\"") + name + "\":" + std::to_string(v);
  };
  return "{" + field("requests", requests) + "," + field("get_requests", get_requests) + "," +
         field("head_requests", head_requests) + "," + field("put_requests", put_requests) + "," +
         field("list_requests", list_requests) + "," + field("delete_requests", delete_requests) +
         "," + field("retries", retries) + "," + field("bytes_read", bytes_read) + "," +
         field("bytes_written", bytes_written) + "," + field("cache_hits", cache_hits) + "}";
}

}  // namespace sqe::io
