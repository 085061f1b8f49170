// Fields that belong to one provider / backend type: setting one under another type is an
// error naming the type and what it accepts, so `jwks_url` under an oidc_password provider
// does not silently do nothing.

#include <algorithm>

#include "config/config_merge_internal.h"

namespace sqe::config {
namespace {

std::string AcceptedFields(const SchemaNode& owner_node, const std::string& type) {
  std::string out;
  for (const auto& child : owner_node.children) {
    if (child->kind != NodeKind::kField) continue;
    if (!child->applies_to.empty() && std::find(child->applies_to.begin(), child->applies_to.end(),
                                                type) == child->applies_to.end()) {
      continue;
    }
    out += (out.empty() ? "" : ", ") + child->name;
    if (child->type == FieldType::kSecret) out += ", " + child->name + "_file";
  }
  return out;
}

}  // namespace

void CheckFieldsBelongToType(Config& config, const FieldOrigins& origins,
                             DiagnosticList* diagnostics) {
  for (const auto& [path, entry] : origins.entries()) {
    auto resolved_or = ResolvePath(config, entry.segments, /*create=*/false);
    const ResolvedPath* r = std::get_if<ResolvedPath>(&resolved_or);
    if (r == nullptr) continue;
    if (r->target != ResolvedPath::Target::kField &&
        r->target != ResolvedPath::Target::kSecretFile) {
      continue;
    }
    if (FieldApplies(*r->node, r->owner)) continue;
    const SchemaNode& owner_node = *r->node->parent;
    std::string type = DiscriminatorValue(owner_node, r->owner);
    std::string type_path = path.substr(0, path.rfind('.')) + ".type";
    std::string how =
        origins.Has(type_path) ? "" : " (the default in " + config.coordinator.mode + " mode)";
    diagnostics->Error(path, path + " (" + entry.origin + ") does not apply to " +
                                 owner_node.type_label + " '" + type + "'" + how + "; fields of " +
                                 owner_node.type_label + " '" + type +
                                 "': " + AcceptedFields(owner_node, type));
  }
}

}  // namespace sqe::config
