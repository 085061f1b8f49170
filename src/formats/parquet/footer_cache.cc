#include "formats/parquet/footer_cache.h"

namespace sqe::parquet {

std::string FooterCache::Key(const std::string& path, int64_t file_size) {
  return std::to_string(file_size) + ":" + path;
}

std::shared_ptr<const FileMetaData> FooterCache::Lookup(const std::string& path,
                                                        int64_t file_size) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = index_.find(Key(path, file_size));
  if (it == index_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->metadata;
}

void FooterCache::Insert(const std::string& path, int64_t file_size,
                         std::shared_ptr<const FileMetaData> metadata, int64_t footer_bytes) {
  if (capacity_ <= 0 || footer_bytes > capacity_ || metadata == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::string key = Key(path, file_size);
  auto it = index_.find(key);
  if (it != index_.end()) {
    bytes_ -= it->second->charge;
    lru_.erase(it->second);
    index_.erase(it);
  }
  while (!lru_.empty() && bytes_ + footer_bytes > capacity_) {
    bytes_ -= lru_.back().charge;
    index_.erase(lru_.back().key);
    lru_.pop_back();
  }
  lru_.push_front(Entry{key, std::move(metadata), footer_bytes});
  index_[key] = lru_.begin();
  bytes_ += footer_bytes;
}

int64_t FooterCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}
int64_t FooterCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}
int64_t FooterCache::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}
size_t FooterCache::entries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lru_.size();
}

}  // namespace sqe::parquet
