// The list of validation rules, and the rules the schema drives by itself (accepted enum
// values, numeric bounds, redacted placeholders).

#include <algorithm>
#include <charconv>
#include <cmath>

#include "config/config_validation_internal.h"
#include "config/name_suggestion_internal.h"

namespace sqe::config {
namespace {

struct Rule {
  void (*check)(ValidationContext&);
  bool server_only;
};

constexpr Rule kRules[] = {
    {CheckEnumValues, false},
    {CheckNumericBounds, false},
    {WarnRedactedPlaceholders, false},
    {CheckPortRanges, true},
    {CheckListenerClashes, true},
    {CheckTls, true},
    {CheckAdvertiseUrl, true},
    {CheckLegacyAuth, true},
    {CheckProviders, true},
    {CheckAuthExternal, true},
    {WarnAuthRisks, true},
    {CheckCatalogUrl, false},
    {CheckTableFormatVersion, false},
    {CheckBackendFields, false},
    {CheckWritePath, false},
    {CheckSessionPersistence, false},
    {CheckMaintenancePrincipal, false},
    {CheckScheduler, false},
    {CheckPartialProgress, false},
    {WarnSharedPrincipalClientId, true},
};

std::string JoinValues(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "" : ", ") + v;
  return out;
}

bool Visible(const ValidationContext& ctx, const FieldVisit& v) {
  return v.applies && (ctx.server_validation() || !v.server_only);
}

}  // namespace

void ValidationContext::Error(const std::string& field, std::string message) {
  if (out_->HasErrorFor(field)) return;
  out_->Error(field, std::move(message));
}

void ValidationContext::Warning(const std::string& field, std::string message) {
  out_->Warning(field, std::move(message));
}

std::string ValidationContext::SetBy(const std::string& field) const {
  std::string origin = origins_.OriginOf(field);
  return origin.empty() ? "" : " (set in " + origin + ")";
}

std::string NumberText(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  return std::string(buf, ec == std::errc() ? ptr : buf);
}

void ValidateConfig(ValidationContext& ctx) {
  for (const Rule& rule : kRules) {
    if (rule.server_only && !ctx.server_validation()) continue;
    rule.check(ctx);
  }
}

void CheckEnumValues(ValidationContext& ctx) {
  WalkFields(ctx.walkable_config(), [&](const FieldVisit& v) {
    if (v.node->enum_values.empty() || !Visible(ctx, v)) return;
    const std::string& value = *std::get<std::string*>(v.value);
    const std::vector<std::string>& accepted = v.node->enum_values;
    if (std::find(accepted.begin(), accepted.end(), value) != accepted.end()) return;
    if (value.empty() && v.node->discriminator) {
      ctx.Error(v.path, v.path + " is required; accepted: " + JoinValues(accepted));
      return;
    }
    const auto& unwired = v.node->unwired_values;
    if (std::find(unwired.begin(), unwired.end(), value) != unwired.end()) {
      ctx.Error(v.path, v.path + ": '" + value + "'" + ctx.SetBy(v.path) +
                            " is defined but not yet wired; use one of: " + JoinValues(accepted));
      return;
    }
    std::string msg = v.path + ": invalid value '" + value + "'" + ctx.SetBy(v.path) +
                      "; accepted: " + JoinValues(accepted);
    std::string closest = ClosestName(value, accepted);
    if (!closest.empty()) msg += "; did you mean '" + closest + "'?";
    ctx.Error(v.path, msg);
  });
}

void CheckNumericBounds(ValidationContext& ctx) {
  WalkFields(ctx.walkable_config(), [&](const FieldVisit& v) {
    const SchemaNode& node = *v.node;
    if ((!node.min && !node.max) || !Visible(ctx, v)) return;
    double value = 0;
    if (auto* i = std::get_if<int*>(&v.value)) {
      value = **i;
    } else if (auto* l = std::get_if<int64_t*>(&v.value)) {
      value = static_cast<double>(**l);
    } else if (auto* d = std::get_if<double*>(&v.value)) {
      value = **d;
    } else {
      return;
    }
    bool low = node.min && value < *node.min;
    bool high = node.max && value > *node.max;
    if (!low && !high) return;
    std::string bound = node.min && node.max
                            ? "between " + NumberText(*node.min) + " and " + NumberText(*node.max)
                        : node.min ? ">= " + NumberText(*node.min)
                                   : "<= " + NumberText(*node.max);
    std::string why =
        low && *node.min == 0 && !node.max ? " (negative values make no sense here)" : "";
    ctx.Error(v.path, v.path + ": must be " + bound + ", got " + NumberText(value) +
                          ctx.SetBy(v.path) + why);
  });
}

void WarnRedactedPlaceholders(ValidationContext& ctx) {
  WalkFields(ctx.walkable_config(), [&](const FieldVisit& v) {
    if (v.node->type != FieldType::kSecret || !Visible(ctx, v)) return;
    if (std::get<SecretString*>(v.value)->Expose() != "***") return;
    ctx.Warning(v.path, v.path + " is \"***\", the redacted placeholder --print-config writes" +
                            ctx.SetBy(v.path) + "; set the real secret (env, --set or " +
                            v.node->name + "_file)");
  });
}

}  // namespace sqe::config
