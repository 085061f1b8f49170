#pragma once
/// KeyValueMetadata: the ordered string pairs Arrow attaches to fields and schemas
/// (e.g. "ARROW:extension:name", "iceberg.schema"). A plain value type: copyable, not
/// synchronized. Keys are unique; Set replaces, insertion order is kept for IPC.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sqe::columnar {

class KeyValueMetadata {
 public:
  KeyValueMetadata() = default;
  KeyValueMetadata(std::initializer_list<std::pair<std::string, std::string>> pairs);

  /// Adds or replaces `key`.
  void Set(std::string key, std::string value);
  /// The value of `key`, if present.
  std::optional<std::string_view> Get(std::string_view key) const;
  bool Contains(std::string_view key) const { return Get(key).has_value(); }
  /// Removes `key`; returns whether it was present.
  bool Erase(std::string_view key);

  const std::vector<std::pair<std::string, std::string>>& pairs() const { return pairs_; }
  size_t size() const { return pairs_.size(); }
  bool empty() const { return pairs_.empty(); }

  /// Equal when both hold the same pairs, in any order.
  bool operator==(const KeyValueMetadata& other) const;

 private:
  std::vector<std::pair<std::string, std::string>> pairs_;
};

}  // namespace sqe::columnar
