// The api-keys file of the api_key provider:
//
//   [[keys]]
//   key = "sqe_abc123def456"
//   user = "service-account-etl"
//   roles = ["writer"]
//
// Errors name the entry and the problem but never a key: keys are secrets.

#ifndef TOML_HEADER_ONLY
#define TOML_HEADER_ONLY 0
#endif
#include <toml++/toml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/logging.h"
#include "config/config_loader.h"
#include "config/name_suggestion_internal.h"

namespace sqe::config {
namespace {

std::string At(const std::string& path, const toml::source_region& where) {
  return path + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column);
}

void ParseEntries(const std::string& path, const toml::table& doc, const std::string& prefix,
                  std::vector<ApiKeyEntry>* keys, std::vector<std::string>* problems) {
  for (const auto& [name, node] : doc) {
    if (name.str() != "keys") {
      std::string hint = ClosestName(name.str(), {"keys"});
      problems->push_back(At(path, name.source()) + ": unknown key '" + std::string(name.str()) +
                          "'" + (hint.empty() ? "" : "; did you mean 'keys'?") +
                          " (the file holds [[keys]] entries)");
    }
  }
  const toml::node* keys_node = doc.get("keys");
  if (keys_node == nullptr) return;
  const toml::array* entries = keys_node->as_array();
  if (entries == nullptr || !entries->is_array_of_tables()) {
    if (!(entries != nullptr && entries->empty())) {
      problems->push_back(At(path, keys_node->source()) +
                          ": 'keys' must be an array of tables ([[keys]])");
    }
    return;
  }
  const std::vector<std::string> kFields = {"key", "user", "roles"};
  std::map<std::string, size_t> seen;  // key -> first entry index
  for (size_t i = 0; i < entries->size(); ++i) {
    const toml::table& t = *entries->get(i)->as_table();
    const std::string where = At(path, t.source()) + ": keys[" + std::to_string(i) + "]";
    for (const auto& [name, node] : t) {
      std::string field(name.str());
      if (field == "key" || field == "user" || field == "roles") continue;
      std::string hint = ClosestName(field, kFields);
      problems->push_back(where + ": unknown field '" + field + "'" +
                          (hint.empty() ? "" : "; did you mean '" + hint + "'?") +
                          " (accepted: key, user, roles)");
    }
    ApiKeyEntry entry;
    bool ok = true;
    const toml::node* key = t.get("key");
    if (key == nullptr || !key->is_string() || key->as_string()->get().empty()) {
      problems->push_back(where + ": 'key' must be a non-empty string");
      ok = false;
    } else {
      const std::string& value = key->as_string()->get();
      log::RegisterSecret(value);
      if (value.rfind(prefix, 0) != 0) {
        problems->push_back(where + ": the key does not start with the provider's key_prefix '" +
                            prefix + "'");
        ok = false;
      }
      auto [it, inserted] = seen.emplace(value, i);
      if (!inserted) {
        problems->push_back(where + ": duplicate key (the same key as keys[" +
                            std::to_string(it->second) + "])");
        ok = false;
      }
      entry.key = SecretString(value);
    }
    const toml::node* user = t.get("user");
    if (user == nullptr || !user->is_string() || user->as_string()->get().empty()) {
      problems->push_back(where + ": 'user' must be a non-empty string");
      ok = false;
    } else {
      entry.user = user->as_string()->get();
    }
    if (const toml::node* roles = t.get("roles")) {
      const toml::array* list = roles->as_array();
      bool strings = list != nullptr;
      if (list != nullptr) {
        for (const toml::node& r : *list) {
          if (!r.is_string()) {
            strings = false;
            break;
          }
          entry.roles.push_back(r.as_string()->get());
        }
      }
      if (!strings) {
        problems->push_back(where + ": 'roles' must be an array of strings");
        ok = false;
      }
    }
    if (ok) keys->push_back(std::move(entry));
  }
}

Result<std::vector<ApiKeyEntry>> Load(const std::string& path, const std::string& prefix) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::InvalidArgument("cannot read api-keys file '" + path +
                                   "': " + std::strerror(errno));
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  toml::table doc;
  try {
    doc = toml::parse(buffer.str(), path);
  } catch (const toml::parse_error& e) {
    return Status::InvalidArgument(At(path, e.source()) +
                                   ": invalid TOML: " + std::string(e.description()));
  }
  std::vector<ApiKeyEntry> keys;
  std::vector<std::string> problems;
  ParseEntries(path, doc, prefix, &keys, &problems);
  if (!problems.empty()) {
    std::string msg = "api-keys file '" + path + "' has " + std::to_string(problems.size()) +
                      (problems.size() == 1 ? " problem: " : " problems: ");
    for (size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
    return Status::InvalidArgument(msg);
  }
  return keys;
}

}  // namespace

Result<std::vector<ApiKeyEntry>> LoadApiKeysFile(const std::string& path,
                                                 const std::string& prefix) {
  try {
    return Load(path, prefix);
  } catch (const std::exception& e) {
    return Status::InvalidArgument("cannot load api-keys file '" + path + "': " + e.what());
  }
}

}  // namespace sqe::config
