#pragma once
/// SchemaBuilder: turns member pointers into schema nodes with type-erased accessors, so
/// config_schema.cc reads as one table of fields. Only config_schema.cc uses it.

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/schema_internal.h"

namespace sqe::config {

/// Chained options of one field node.
class FieldOptions {
 public:
  explicit FieldOptions(SchemaNode* node) : node_(node) {}
  FieldOptions& Enum(std::initializer_list<const char*> values) {
    for (const char* v : values) node_->enum_values.emplace_back(v);
    return *this;
  }
  FieldOptions& Unwired(std::initializer_list<const char*> values) {
    for (const char* v : values) node_->unwired_values.emplace_back(v);
    return *this;
  }
  FieldOptions& AppliesTo(std::initializer_list<const char*> types) {
    for (const char* t : types) node_->applies_to.emplace_back(t);
    return *this;
  }
  FieldOptions& Min(double v) {
    node_->min = v;
    return *this;
  }
  FieldOptions& Max(double v) {
    node_->max = v;
    return *this;
  }
  FieldOptions& RelativePath() {
    node_->relative_path = true;
    return *this;
  }
  FieldOptions& Discriminator() {
    node_->discriminator = true;
    return *this;
  }
  FieldOptions& ZeroDisables() {
    node_->zero_disables = true;
    return *this;
  }
  FieldOptions& UrlWithCredentials() {
    node_->url_with_credentials = true;
    return *this;
  }
  FieldOptions& DefaultDoc(std::string text) {
    node_->default_doc = std::move(text);
    return *this;
  }

 private:
  SchemaNode* node_;
};

/// Adds children to the node describing struct `S`.
template <typename S>
class SchemaBuilder {
 public:
  explicit SchemaBuilder(SchemaNode* node) : node_(node) {}

  SchemaNode* node() const { return node_; }
  SchemaBuilder& ServerOnly() {
    node_->server_only = true;
    return *this;
  }
  SchemaBuilder& TypeLabel(std::string label) {
    node_->type_label = std::move(label);
    return *this;
  }

  FieldOptions Field(std::string name, std::string S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kString, std::move(desc), m);
  }
  FieldOptions Field(std::string name, int S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kInt, std::move(desc), m);
  }
  FieldOptions Field(std::string name, int64_t S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kInt, std::move(desc), m);
  }
  FieldOptions Field(std::string name, double S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kDouble, std::move(desc), m);
  }
  FieldOptions Field(std::string name, bool S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kBool, std::move(desc), m);
  }
  FieldOptions Field(std::string name, std::vector<std::string> S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kStringList, std::move(desc), m);
  }
  FieldOptions Field(std::string name, SecretString S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kSecret, std::move(desc), m);
  }
  FieldOptions Port(std::string name, int S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kPort, std::move(desc), m);
  }
  FieldOptions Size(std::string name, uint64_t S::*m, std::string desc) {
    return Add(std::move(name), FieldType::kSize, std::move(desc), m);
  }

  template <typename C>
  SchemaBuilder<C> Section(std::string name, C S::*m, std::string desc) {
    SchemaNode* child = AddNode(NodeKind::kSection, std::move(name), std::move(desc));
    child->section = [m](void* owner, bool) -> void* { return &(static_cast<S*>(owner)->*m); };
    return SchemaBuilder<C>(child);
  }

  template <typename C>
  SchemaBuilder<C> OptionalSection(std::string name, std::optional<C> S::*m, std::string desc) {
    SchemaNode* child = AddNode(NodeKind::kOptionalSection, std::move(name), std::move(desc));
    child->section = [m](void* owner, bool create) -> void* {
      std::optional<C>& value = static_cast<S*>(owner)->*m;
      if (!value.has_value()) {
        if (!create) return nullptr;
        value.emplace();
      }
      return &*value;
    };
    return SchemaBuilder<C>(child);
  }

  template <typename C>
  SchemaBuilder<C> TableArray(std::string name, std::vector<C> S::*m, std::string desc) {
    SchemaNode* child = AddNode(NodeKind::kTableArray, std::move(name), std::move(desc));
    child->array_size = [m](void* owner) { return (static_cast<S*>(owner)->*m).size(); };
    child->element = [m](void* owner, size_t index, bool create) -> void* {
      std::vector<C>& entries = static_cast<S*>(owner)->*m;
      if (index >= entries.size()) {
        if (!create) return nullptr;
        entries.resize(index + 1);
      }
      return &entries[index];
    };
    child->array_clear = [m](void* owner) { (static_cast<S*>(owner)->*m).clear(); };
    return SchemaBuilder<C>(child);
  }

  template <typename V>
  FieldOptions Map(std::string name, std::map<std::string, V> S::*m, FieldType value_type,
                   std::string key_doc, std::string desc) {
    SchemaNode* child = AddNode(NodeKind::kMap, std::move(name), std::move(desc));
    child->type = value_type;
    child->key_doc = std::move(key_doc);
    child->map_keys = [m](void* owner) {
      std::vector<std::string> keys;
      for (const auto& [k, v] : static_cast<S*>(owner)->*m) keys.push_back(k);
      return keys;
    };
    child->map_entry = [m](void* owner, const std::string& key,
                           bool create) -> std::optional<ValueRef> {
      std::map<std::string, V>& entries = static_cast<S*>(owner)->*m;
      auto it = entries.find(key);
      if (it == entries.end()) {
        if (!create) return std::nullopt;
        it = entries.emplace(key, V{}).first;
      }
      return ValueRef(&it->second);
    };
    return FieldOptions(child);
  }

 private:
  SchemaNode* AddNode(NodeKind kind, std::string name, std::string desc) {
    auto child = std::make_unique<SchemaNode>();
    child->kind = kind;
    child->name = std::move(name);
    child->description = std::move(desc);
    child->parent = node_;
    node_->children.push_back(std::move(child));
    return node_->children.back().get();
  }

  template <typename T>
  FieldOptions Add(std::string name, FieldType type, std::string desc, T S::*m) {
    SchemaNode* child = AddNode(NodeKind::kField, std::move(name), std::move(desc));
    child->type = type;
    child->field = [m](void* owner) -> ValueRef { return &(static_cast<S*>(owner)->*m); };
    return FieldOptions(child);
  }

  SchemaNode* node_;
};

}  // namespace sqe::config
