// ToToml: the effective configuration as TOML, in schema order, every section and field,
// secrets redacted. Loading the output again gives the same configuration (secrets aside).

#include "config/config_loader.h"
#include "config/schema_internal.h"
#include "config/toml_text_internal.h"

namespace sqe::config {
namespace {

/// Whether ToToml prints `field`: fields of other types are left out, and so are all
/// type-specific fields while the type is still unset (an unresolved Config).
bool Printed(const SchemaNode& field, void* owner) {
  if (!field.applies_to.empty() && field.parent != nullptr &&
      field.parent->Discriminator() != nullptr &&
      DiscriminatorValue(*field.parent, owner).empty()) {
    return false;
  }
  return FieldApplies(field, owner);
}

void EmitTable(const SchemaNode& node, void* owner, const std::string& header, bool array_entry,
               std::string* out) {
  if (!header.empty()) {
    if (!out->empty()) *out += "\n";
    *out += array_entry ? "[[" + header + "]]\n" : "[" + header + "]\n";
  }
  // A table's own keys must precede its sub-tables.
  for (const auto& child : node.children) {
    if (child->kind != NodeKind::kField || !Printed(*child, owner)) continue;
    *out += TomlKey(child->name) + " = " +
            RenderTomlValue(*child, child->type, child->field(owner)) + "\n";
  }
  for (const auto& child_ptr : node.children) {
    const SchemaNode& child = *child_ptr;
    std::string child_header =
        header.empty() ? TomlKey(child.name) : header + "." + TomlKey(child.name);
    switch (child.kind) {
      case NodeKind::kField:
        break;
      case NodeKind::kSection:
      case NodeKind::kOptionalSection:
        if (void* section = child.section(owner, false)) {
          EmitTable(child, section, child_header, false, out);
        }
        break;
      case NodeKind::kTableArray:
        for (size_t i = 0; i < child.array_size(owner); ++i) {
          EmitTable(child, child.element(owner, i, false), child_header, true, out);
        }
        break;
      case NodeKind::kMap:
        *out += "\n[" + child_header + "]\n";
        for (const std::string& key : child.map_keys(owner)) {
          *out += TomlKey(key) + " = " +
                  RenderTomlValue(child, child.type, *child.map_entry(owner, key, false)) + "\n";
        }
        break;
    }
  }
}

}  // namespace

std::string ToToml(const Config& config) {
  // The walk hands out mutable references; nothing below writes through them.
  Config& walkable = const_cast<Config&>(config);
  std::string out =
      "# SQE effective configuration (defaults < file < environment < command line).\n"
      "# Secrets are shown as \"***\".\n";
  std::string body;
  EmitTable(ConfigSchema(), &walkable, "", false, &body);
  return out + "\n" + body;
}

}  // namespace sqe::config
