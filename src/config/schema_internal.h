#pragma once
/// The schema: ONE description of every configuration field (name, type, default via the
/// struct, description, env name, constraints), built once in config_schema.cc. Decoding
/// (file, env, --set), the TOML writer, the generated field reference and the
/// schema-driven validation rules all walk this tree, so a field added there is loaded,
/// printed, documented and checked everywhere.
///
/// Nodes reach into a Config through type-erased accessors that the builder
/// (schema_builder_internal.h) generates from member pointers; the `void*` owner of an
/// accessor is always the struct the node's parent describes. Immutable after first use;
/// safe to read from any thread.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/secret_string.h"
#include "config/config.h"

namespace sqe::config {

/// The value type of a field, which decides parsing, printing and documentation.
enum class FieldType {
  kString,
  kInt,   ///< int or int64_t
  kPort,  ///< int, 1..65535 (0 when the field allows disabling)
  kDouble,
  kBool,
  kSize,        ///< uint64_t bytes, written "256MB"
  kStringList,  ///< std::vector<std::string>
  kSecret,      ///< SecretString; also settable through an `<name>_file` sibling
};

/// A typed pointer to one field inside a Config.
using ValueRef = std::variant<std::string*, int*, int64_t*, uint64_t*, double*, bool*,
                              std::vector<std::string>*, SecretString*>;

/// What a schema node describes.
enum class NodeKind {
  kSection,          ///< a table that always exists ([coordinator])
  kOptionalSection,  ///< a table that exists only when configured ([maintenance.principal])
  kTableArray,       ///< an array of tables ([[auth.providers]]); children describe one entry
  kMap,              ///< a table with free keys and one value type ([query.role_overrides])
  kField,            ///< a leaf value
};

/// One node of the schema tree. Built only by SchemaBuilder.
struct SchemaNode {
  NodeKind kind = NodeKind::kSection;
  std::string name;
  std::string description;
  const SchemaNode* parent = nullptr;
  std::vector<std::unique_ptr<SchemaNode>> children;

  // kField, and the value type of kMap entries.
  FieldType type = FieldType::kString;
  /// Accepted values of an enum-like string field (empty = free text).
  std::vector<std::string> enum_values;
  /// Values the reference defines but SQE does not wire yet: rejected with that reason.
  std::vector<std::string> unwired_values;
  /// Values of the owner's discriminator (`type`) this field belongs to; empty = all.
  std::vector<std::string> applies_to;
  std::optional<double> min;
  std::optional<double> max;
  bool relative_path = false;         ///< a path resolved against the config file's directory
  bool discriminator = false;         ///< the `type` field that selects applicable fields
  bool zero_disables = false;         ///< kPort: 0 turns the listener off
  bool url_with_credentials = false;  ///< a URL whose password is masked when printed
  std::string default_doc;            ///< documented default when it depends on the mode
  // Sections.
  bool server_only = false;  ///< validation of this subtree is skipped for sqe-shell
  std::string type_label;    ///< kSection/kTableArray with a discriminator: "provider type"
  std::string key_doc;       ///< kMap: placeholder for the key in docs, e.g. "<role>"

  // Accessors; `owner` is the struct described by `parent` (for table-array fields, one
  // entry; for kTableArray/kMap nodes themselves, the struct holding the vector/map).
  /// kSection/kOptionalSection: the child struct; nullptr when optional, absent, !create.
  std::function<void*(void* owner, bool create)> section;
  /// kField.
  std::function<ValueRef(void* owner)> field;
  /// kTableArray.
  std::function<size_t(void* owner)> array_size;
  std::function<void*(void* owner, size_t index, bool create)> element;
  std::function<void(void* owner)> array_clear;
  /// kMap.
  std::function<std::vector<std::string>(void* owner)> map_keys;
  std::function<std::optional<ValueRef>(void* owner, const std::string& key, bool create)>
      map_entry;

  bool is_container() const { return kind != NodeKind::kField; }
  /// The child called `name`, or nullptr.
  const SchemaNode* FindChild(std::string_view child_name) const;
  /// The discriminator child of a section/table-array entry, or nullptr.
  const SchemaNode* Discriminator() const;
  /// Dotted schema path, entries as "[N]" and map keys as the key_doc: "auth.providers[N].type".
  std::string SchemaPath() const;
  /// The environment variable for this node: "SQE_AUTH__PROVIDERS__<N>__TYPE".
  std::string EnvName() const;
};

/// The root of the schema (a kSection whose children are the top-level sections).
const SchemaNode& ConfigSchema();

/// The discriminator value of `owner` (an instance of `owner_node`), "" when it has none.
std::string DiscriminatorValue(const SchemaNode& owner_node, void* owner);

/// True when `field` applies to `owner` given its discriminator value.
bool FieldApplies(const SchemaNode& field, void* owner);

/// A bare TOML key stays as is, anything else is quoted: admin, "arn:aws:iam::1:role/x".
std::string TomlKey(std::string_view key);

/// Instance path text: "auth.providers[0].client_id", "query.role_overrides.admin".
std::string JoinPath(const std::string& prefix, std::string_view name);
std::string IndexPath(const std::string& prefix, size_t index);

/// One field (or map entry) of a concrete Config, as WalkFields visits it.
struct FieldVisit {
  const SchemaNode* node = nullptr;  ///< kField, or the kMap node for a map entry
  std::string path;                  ///< instance path
  ValueRef value;
  void* owner = nullptr;                   ///< the struct holding the field
  const SchemaNode* owner_node = nullptr;  ///< its schema node
  bool applies = true;                     ///< false: not a field of the owner's type
  bool server_only = false;                ///< inside a server-only section
};

/// Visits every field of `config` in schema order: present optional sections, every
/// table-array entry, every map entry.
void WalkFields(Config& config, const std::function<void(const FieldVisit&)>& visit);

/// Why a path did not resolve.
struct PathError {
  std::string path;     ///< the path up to and including the failing segment
  std::string problem;  ///< "unknown key", "is a section, not a value", ...
  /// A likely intended key (did-you-mean) as a dotted path, and as an env var name;
  /// both "" when nothing is close.
  std::string suggestion;
  std::string suggestion_env;
  /// The keys accepted where the failure happened (for the message when no suggestion).
  std::vector<std::string> accepted;
};

/// Where a path led.
struct ResolvedPath {
  /// kContainer: a section, table array or map itself; kArrayEntry: one table-array entry.
  enum class Target { kField, kSecretFile, kContainer, kArrayEntry, kMapEntry };
  Target target = Target::kField;
  const SchemaNode* node = nullptr;  ///< the field (the secret for kSecretFile), container or map
  void* owner = nullptr;             ///< kField/kSecretFile: struct holding the field;
                                     ///< kContainer/kMapEntry: struct the node lives in
                                     ///< (a section's own struct for sections);
                                     ///< kArrayEntry: the entry
  std::string key;                   ///< kMapEntry
  std::string path;                  ///< instance path of the target
};

/// Follows `segments` (already lower-cased for env) from the root. With `create`, optional
/// sections, table-array entries and map entries are created on the way.
std::variant<ResolvedPath, PathError> ResolvePath(Config& config,
                                                  const std::vector<std::string>& segments,
                                                  bool create);

/// Every field's schema path, for "did you mean" across sections.
std::vector<const SchemaNode*> AllFieldNodes();

}  // namespace sqe::config
