// Walking the schema over a concrete Config: visiting every field, and resolving a path
// from a source (file key, env var, --set) to the field it names.

#include <algorithm>
#include <cctype>
#include <charconv>

#include "config/name_suggestion_internal.h"
#include "config/schema_internal.h"

namespace sqe::config {
namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool IsBareKeyChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

constexpr std::string_view kFileSuffix = "_file";
// Table-array indices beyond this are almost certainly a typo, and would allocate.
constexpr size_t kMaxArrayIndex = 63;

void CollectFields(const SchemaNode& node, std::vector<const SchemaNode*>* out) {
  for (const auto& child : node.children) {
    if (child->kind == NodeKind::kField) {
      out->push_back(child.get());
    } else {
      CollectFields(*child, out);
    }
  }
}

/// The names a section accepts, including the `_file` siblings of its secrets.
std::vector<std::string> AcceptedNames(const SchemaNode& node) {
  std::vector<std::string> names;
  for (const auto& child : node.children) {
    names.push_back(child->name);
    if (child->kind == NodeKind::kField && child->type == FieldType::kSecret) {
      names.push_back(child->name + std::string(kFileSuffix));
    }
  }
  return names;
}

std::string EnvNameOf(const std::vector<std::string>& segments) {
  std::string out = "SQE";
  for (size_t i = 0; i < segments.size(); ++i) out += (i == 0 ? "_" : "__") + Upper(segments[i]);
  return out;
}

/// Fills the suggestion of `error` for the unknown `name` under `node`.
void Suggest(const SchemaNode& node, const std::string& prefix,
             const std::vector<std::string>& prefix_segments, const std::string& name,
             PathError* error) {
  error->accepted = AcceptedNames(node);
  std::string closest = ClosestName(name, error->accepted);
  if (!closest.empty()) {
    error->suggestion = JoinPath(prefix, closest);
    std::vector<std::string> segments = prefix_segments;
    segments.push_back(closest);
    error->suggestion_env = EnvNameOf(segments);
    return;
  }
  // The right name in the wrong section: [storage] flight_sql_port -> coordinator.
  for (const SchemaNode* field : AllFieldNodes()) {
    if (field->name == name && field->SchemaPath().find("[N]") == std::string::npos) {
      error->suggestion = field->SchemaPath();
      error->suggestion_env = field->EnvName();
      return;
    }
  }
}

bool ParseIndex(std::string_view text, size_t* index) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *index);
  return ec == std::errc() && ptr == text.data() + text.size();
}

void WalkSection(const SchemaNode& node, void* owner, const std::string& path, bool server_only,
                 const std::function<void(const FieldVisit&)>& visit) {
  for (const auto& child_ptr : node.children) {
    const SchemaNode& child = *child_ptr;
    std::string child_path = JoinPath(path, child.name);
    bool child_server_only = server_only || child.server_only;
    switch (child.kind) {
      case NodeKind::kField: {
        FieldVisit v;
        v.node = &child;
        v.path = child_path;
        v.value = child.field(owner);
        v.owner = owner;
        v.owner_node = &node;
        v.applies = FieldApplies(child, owner);
        v.server_only = child_server_only;
        visit(v);
        break;
      }
      case NodeKind::kSection:
      case NodeKind::kOptionalSection:
        if (void* section = child.section(owner, false)) {
          WalkSection(child, section, child_path, child_server_only, visit);
        }
        break;
      case NodeKind::kTableArray:
        for (size_t i = 0; i < child.array_size(owner); ++i) {
          WalkSection(child, child.element(owner, i, false), IndexPath(child_path, i),
                      child_server_only, visit);
        }
        break;
      case NodeKind::kMap:
        for (const std::string& key : child.map_keys(owner)) {
          FieldVisit v;
          v.node = &child;
          v.path = JoinPath(child_path, TomlKey(key));
          v.value = *child.map_entry(owner, key, false);
          v.owner = owner;
          v.owner_node = &node;
          v.server_only = child_server_only;
          visit(v);
        }
        break;
    }
  }
}

}  // namespace

const SchemaNode* SchemaNode::FindChild(std::string_view child_name) const {
  for (const auto& child : children) {
    if (child->name == child_name) return child.get();
  }
  return nullptr;
}

const SchemaNode* SchemaNode::Discriminator() const {
  for (const auto& child : children) {
    if (child->discriminator) return child.get();
  }
  return nullptr;
}

std::string SchemaNode::SchemaPath() const {
  if (parent == nullptr) return "";
  std::string prefix = parent->SchemaPath();
  if (parent->kind == NodeKind::kTableArray) prefix += "[N]";
  return JoinPath(prefix, name);
}

std::string SchemaNode::EnvName() const {
  if (parent == nullptr) return "SQE";
  if (parent->parent == nullptr) return "SQE_" + Upper(name);
  std::string prefix = parent->EnvName();
  if (parent->kind == NodeKind::kTableArray) prefix += "__<N>";
  return prefix + "__" + Upper(name);
}

std::string DiscriminatorValue(const SchemaNode& owner_node, void* owner) {
  const SchemaNode* disc = owner_node.Discriminator();
  if (disc == nullptr || owner == nullptr) return "";
  return *std::get<std::string*>(disc->field(owner));
}

bool FieldApplies(const SchemaNode& field, void* owner) {
  if (field.applies_to.empty() || field.parent == nullptr) return true;
  const SchemaNode* disc = field.parent->Discriminator();
  if (disc == nullptr) return true;
  std::string type = DiscriminatorValue(*field.parent, owner);
  // An unknown type is reported by validation; do not pile "does not apply" on top.
  if (std::find(disc->enum_values.begin(), disc->enum_values.end(), type) ==
      disc->enum_values.end()) {
    return true;
  }
  return std::find(field.applies_to.begin(), field.applies_to.end(), type) !=
         field.applies_to.end();
}

std::string TomlKey(std::string_view key) {
  bool bare = !key.empty() && std::all_of(key.begin(), key.end(), IsBareKeyChar);
  if (bare) return std::string(key);
  std::string out = "\"";
  for (char c : key) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string JoinPath(const std::string& prefix, std::string_view name) {
  return prefix.empty() ? std::string(name) : prefix + "." + std::string(name);
}

std::string IndexPath(const std::string& prefix, size_t index) {
  return prefix + "[" + std::to_string(index) + "]";
}

void WalkFields(Config& config, const std::function<void(const FieldVisit&)>& visit) {
  WalkSection(ConfigSchema(), &config, "", false, visit);
}

std::vector<const SchemaNode*> AllFieldNodes() {
  static const std::vector<const SchemaNode*> fields = [] {
    std::vector<const SchemaNode*> out;
    CollectFields(ConfigSchema(), &out);
    return out;
  }();
  return fields;
}

std::variant<ResolvedPath, PathError> ResolvePath(Config& config,
                                                  const std::vector<std::string>& segments,
                                                  bool create) {
  const SchemaNode* node = &ConfigSchema();
  void* owner = &config;
  std::string path;
  std::vector<std::string> done;  // segments consumed so far
  bool in_entry = false;          // `node` is a table array and `owner` one of its entries
  auto fail = [&](std::string failed_path, std::string problem) {
    PathError e;
    e.path = std::move(failed_path);
    e.problem = std::move(problem);
    return e;
  };
  if (segments.empty()) return fail("", "empty key");

  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string& seg = segments[i];
    const bool last = i + 1 == segments.size();

    if (node->kind == NodeKind::kTableArray && !in_entry) {
      size_t index = 0;
      if (!ParseIndex(seg, &index)) {
        return fail(JoinPath(path, seg), "is not an entry index; entries of '" + path +
                                             "' are addressed by number (0, 1, ...)");
      }
      if (index > kMaxArrayIndex) {
        return fail(IndexPath(path, index),
                    "index is too large (at most " + std::to_string(kMaxArrayIndex) + ")");
      }
      void* entry = node->element(owner, index, create);
      path = IndexPath(path, index);
      done.push_back(seg);
      if (entry == nullptr) return fail(path, "no such entry");
      owner = entry;
      if (last) {
        ResolvedPath r;
        r.target = ResolvedPath::Target::kArrayEntry;
        r.node = node;
        r.owner = owner;
        r.path = path;
        return r;
      }
      in_entry = true;
      continue;  // `node` stays the array: its children describe one entry
    }

    if (node->kind == NodeKind::kMap) {
      std::string entry_path = JoinPath(path, TomlKey(seg));
      if (!last) return fail(entry_path, "is a map entry, not a table");
      ResolvedPath r;
      r.target = ResolvedPath::Target::kMapEntry;
      r.node = node;
      r.owner = owner;
      r.key = seg;
      r.path = entry_path;
      return r;
    }

    // A section (or a table-array entry).
    const SchemaNode* child = node->FindChild(seg);
    if (child == nullptr) {
      if (seg.size() > kFileSuffix.size() &&
          seg.compare(seg.size() - kFileSuffix.size(), kFileSuffix.size(), kFileSuffix) == 0) {
        const SchemaNode* secret = node->FindChild(seg.substr(0, seg.size() - kFileSuffix.size()));
        if (secret != nullptr && secret->kind == NodeKind::kField &&
            secret->type == FieldType::kSecret) {
          if (!last) return fail(JoinPath(path, seg), "is a value, not a table");
          ResolvedPath r;
          r.target = ResolvedPath::Target::kSecretFile;
          r.node = secret;
          r.owner = owner;
          r.path = JoinPath(path, secret->name);
          return r;
        }
      }
      PathError e = fail(JoinPath(path, seg), "unknown key");
      Suggest(*node, path, done, seg, &e);
      return e;
    }
    std::string child_path = JoinPath(path, child->name);
    done.push_back(seg);
    if (child->kind == NodeKind::kField) {
      if (!last) return fail(child_path, "is a value, not a table");
      ResolvedPath r;
      r.target = ResolvedPath::Target::kField;
      r.node = child;
      r.owner = owner;
      r.path = child_path;
      return r;
    }
    if (child->kind == NodeKind::kSection || child->kind == NodeKind::kOptionalSection) {
      void* section = child->section(owner, create);
      if (section == nullptr) return fail(child_path, "is not configured");
      owner = section;
    }
    // kTableArray / kMap: `owner` stays the struct holding the vector / map.
    node = child;
    in_entry = false;
    path = child_path;
    if (last) {
      ResolvedPath r;
      r.target = ResolvedPath::Target::kContainer;
      r.node = node;
      r.owner = owner;
      r.path = path;
      return r;
    }
  }
  return fail(path, "unreachable");
}

}  // namespace sqe::config
