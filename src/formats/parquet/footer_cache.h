#pragma once
/// FooterCache ([storage] footer_cache_size): an LRU cache of decoded Parquet footers
/// keyed by file path + file size, so re-opening a file (every query over a table opens
/// its data files again) skips the tail read and the thrift decode. Data files of an
/// Iceberg table are immutable, so path + size identifies their content; a rewritten file
/// of another size misses. Bounded by the encoded footer bytes it holds.
///
/// Thread safety: every method may be called concurrently.

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "formats/parquet/metadata.h"

namespace sqe::parquet {

class FooterCache {
 public:
  /// `capacity_bytes` <= 0 disables caching (every Lookup misses).
  explicit FooterCache(int64_t capacity_bytes) : capacity_(capacity_bytes) {}

  /// The cached footer of `path` with `file_size` bytes, or nullptr.
  std::shared_ptr<const FileMetaData> Lookup(const std::string& path, int64_t file_size);
  /// Caches `metadata`, charged `footer_bytes`; evicts the least recently used entries
  /// to make room. A footer larger than the whole capacity is not cached.
  void Insert(const std::string& path, int64_t file_size,
              std::shared_ptr<const FileMetaData> metadata, int64_t footer_bytes);

  int64_t hits() const;
  int64_t misses() const;
  int64_t bytes() const;
  size_t entries() const;

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const FileMetaData> metadata;
    int64_t charge = 0;
  };
  static std::string Key(const std::string& path, int64_t file_size);

  const int64_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;  // front: most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  int64_t bytes_ = 0;
  int64_t hits_ = 0;
  int64_t misses_ = 0;
};

}  // namespace sqe::parquet
