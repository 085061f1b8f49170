#include "columnar/key_value_metadata.h"

#include <algorithm>

namespace sqe::columnar {

KeyValueMetadata::KeyValueMetadata(
    std::initializer_list<std::pair<std::string, std::string>> pairs) {
  for (const auto& [key, value] : pairs) Set(key, value);
}

void KeyValueMetadata::Set(std::string key, std::string value) {
  for (auto& pair : pairs_) {
    if (pair.first == key) {
      pair.second = std::move(value);
      return;
    }
  }
  pairs_.emplace_back(std::move(key), std::move(value));
}

std::optional<std::string_view> KeyValueMetadata::Get(std::string_view key) const {
  for (const auto& pair : pairs_) {
    if (pair.first == key) return std::string_view(pair.second);
  }
  return std::nullopt;
}

bool KeyValueMetadata::Erase(std::string_view key) {
  auto it = std::find_if(pairs_.begin(), pairs_.end(),
                         [&](const auto& pair) { return pair.first == key; });
  if (it == pairs_.end()) return false;
  pairs_.erase(it);
  return true;
}

bool KeyValueMetadata::operator==(const KeyValueMetadata& other) const {
  if (pairs_.size() != other.pairs_.size()) return false;
  for (const auto& pair : pairs_) {
    auto value = other.Get(pair.first);
    if (!value || *value != pair.second) return false;
  }
  return true;
}

}  // namespace sqe::columnar
