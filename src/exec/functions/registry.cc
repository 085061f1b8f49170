// FunctionRegistry: registration, overload resolution by implicit-coercion cost, and the
// SHOW FUNCTIONS listing.

#include "exec/functions/registry.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "exec/functions/coercion_internal.h"

namespace sqe::exec {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string TypeList(const std::vector<columnar::TypePtr>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += ", ";
    out += types[i] ? types[i]->ToString() : "unknown";
  }
  return out;
}

/// The text of a type in an instance key: ToString plus the zone of a timestamp with time
/// zone, which ToString (Trino's spelling) leaves out but which changes the instance (its
/// kernels read values in that zone).
std::string KeyText(const columnar::TypePtr& type) {
  if (type == nullptr) return "unknown";
  if (type->id() == columnar::TypeId::kTimestamp && type->has_timezone()) {
    return type->ToString() + "[" + type->timezone() + "]";
  }
  return type->ToString();
}

std::string KeyList(const std::vector<columnar::TypePtr>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += ", ";
    out += KeyText(types[i]);
  }
  return out;
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

/// Total coercion cost of passing `actual` where `expected` is declared; -1 if impossible.
int CallCost(const std::vector<columnar::TypePtr>& actual,
             const std::vector<columnar::TypePtr>& expected) {
  if (actual.size() != expected.size()) return -1;
  int total = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    const int c = ImplicitCoercionCost(actual[i], expected[i]);
    if (c < 0) return -1;
    total += c;
  }
  return total;
}

template <typename Map>
std::string CloseName(const Map& map, const std::string& name) {
  std::string best;
  size_t best_distance = 3;
  for (const auto& [candidate, unused] : map) {
    const size_t d = EditDistance(name, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string FunctionSignature(const FunctionInfo& info) {
  return info.name + "(" + info.argument_types + ")";
}

}  // namespace

Result<const ScalarFunction*> FunctionRegistry::ResolveScalar(
    std::string_view name, const std::vector<columnar::TypePtr>& arg_types) const {
  const std::string key = Lower(name);
  auto it = scalars_.find(key);
  if (it == scalars_.end()) {
    std::string msg = "function '" + key + "' not found";
    if (aggregates_.count(key) != 0) {
      msg = "'" + key + "' is an aggregate function, not a scalar function";
    } else {
      const std::string close = CloseName(scalars_, key);
      if (!close.empty()) msg += "; did you mean '" + close + "'?";
    }
    return Status::NotFound(msg);
  }
  std::optional<ScalarFunction> best;
  int best_cost = std::numeric_limits<int>::max();
  for (const ScalarResolver& resolver : it->second) {
    SQE_ASSIGN_OR_RETURN(std::optional<ScalarFunction> candidate, resolver(arg_types));
    if (!candidate) continue;
    const int cost = CallCost(arg_types, candidate->arg_types);
    if (cost < 0) continue;
    if (cost < best_cost) {
      best_cost = cost;
      best = std::move(candidate);
    }
  }
  if (!best) {
    std::string msg =
        "function '" + key + "' cannot be applied to (" + TypeList(arg_types) + "); candidates: ";
    bool first = true;
    for (const FunctionInfo& info : infos_) {
      if (info.kind != "scalar" || Lower(info.name) != key) continue;
      if (!first) msg += ", ";
      msg += FunctionSignature(info);
      first = false;
    }
    return Status::NotFound(msg);
  }
  const std::string instance_key =
      key + "(" + KeyList(best->arg_types) + ")->" + KeyText(best->return_type);
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = scalar_instances_[instance_key];
  if (slot == nullptr) slot = std::make_unique<ScalarFunction>(std::move(*best));
  return slot.get();
}

Result<const AggregateFunction*> FunctionRegistry::ResolveAggregate(
    std::string_view name, const std::vector<columnar::TypePtr>& arg_types, bool distinct) const {
  const std::string key = Lower(name);
  auto it = aggregates_.find(key);
  if (it == aggregates_.end()) {
    std::string msg = "aggregate function '" + key + "' not found";
    const std::string close = CloseName(aggregates_, key);
    if (!close.empty()) msg += "; did you mean '" + close + "'?";
    return Status::NotFound(msg);
  }
  std::optional<AggregateFunction> best;
  int best_cost = std::numeric_limits<int>::max();
  for (const AggregateResolver& resolver : it->second) {
    SQE_ASSIGN_OR_RETURN(std::optional<AggregateFunction> candidate, resolver(arg_types, distinct));
    if (!candidate) continue;
    const int cost = CallCost(arg_types, candidate->arg_types);
    if (cost < 0) continue;
    if (cost < best_cost) {
      best_cost = cost;
      best = std::move(candidate);
    }
  }
  if (!best) {
    std::string msg = "aggregate function '" + key + "' cannot be applied to (" +
                      TypeList(arg_types) + "); candidates: ";
    bool first = true;
    for (const FunctionInfo& info : infos_) {
      if (info.kind != "aggregate" || Lower(info.name) != key) continue;
      if (!first) msg += ", ";
      msg += FunctionSignature(info);
      first = false;
    }
    return Status::NotFound(msg);
  }
  const std::string instance_key = key + (distinct ? "(distinct " : "(") +
                                   KeyList(best->arg_types) + ")->" + KeyText(best->return_type);
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = aggregate_instances_[instance_key];
  if (slot == nullptr) slot = std::make_unique<AggregateFunction>(std::move(*best));
  return slot.get();
}

bool FunctionRegistry::IsAggregate(std::string_view name) const {
  return aggregates_.count(Lower(name)) != 0;
}

bool FunctionRegistry::IsScalar(std::string_view name) const {
  return scalars_.count(Lower(name)) != 0;
}

std::vector<FunctionInfo> FunctionRegistry::List() const {
  std::vector<FunctionInfo> out = infos_;
  std::stable_sort(out.begin(), out.end(),
                   [](const FunctionInfo& a, const FunctionInfo& b) { return a.name < b.name; });
  return out;
}

void FunctionRegistry::AddScalar(std::string name, ScalarResolver resolver, FunctionInfo info) {
  const std::string key = Lower(name);
  if (info.name.empty()) info.name = key;
  if (info.kind.empty()) info.kind = "scalar";
  scalars_[key].push_back(std::move(resolver));
  infos_.push_back(std::move(info));
}

void FunctionRegistry::AddAggregate(std::string name, AggregateResolver resolver,
                                    FunctionInfo info) {
  const std::string key = Lower(name);
  if (info.name.empty()) info.name = key;
  if (info.kind.empty()) info.kind = "aggregate";
  aggregates_[key].push_back(std::move(resolver));
  infos_.push_back(std::move(info));
}

void FunctionRegistry::AddScalar(ScalarFunction function, std::string description) {
  FunctionInfo info;
  info.name = Lower(function.name);
  info.return_type = function.return_type ? function.return_type->ToString() : "unknown";
  info.argument_types = TypeList(function.arg_types);
  info.kind = "scalar";
  info.description = std::move(description);
  std::string name = function.name;
  auto shared = std::make_shared<const ScalarFunction>(std::move(function));
  AddScalar(
      std::move(name),
      [shared](
          const std::vector<columnar::TypePtr>& args) -> Result<std::optional<ScalarFunction>> {
        if (CallCost(args, shared->arg_types) < 0) return std::optional<ScalarFunction>();
        return std::optional<ScalarFunction>(*shared);
      },
      std::move(info));
}

}  // namespace sqe::exec
