// The environment as a Layer: SQE_<SECTION>__<FIELD>, nested sections, table-array
// indices and map keys chained with "__" (docs/configuration.md, "Environment variables").

#include <cctype>

#include "config/config_source_internal.h"

namespace sqe::config {
namespace {

constexpr std::string_view kPrefix = "SQE_";
constexpr std::string_view kSeparator = "__";

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Layer EnvLayer(const std::map<std::string, std::string>& env) {
  Layer layer;
  layer.kind = Layer::Kind::kEnv;
  layer.name = "the environment";
  for (const auto& [name, value] : env) {
    // SQE_CONFIG, SQE_LOG_LEVEL and friends have no "__" and are not field overrides.
    if (name.rfind(kPrefix, 0) != 0 || name.find(kSeparator) == std::string::npos) continue;
    std::string_view rest = std::string_view(name).substr(kPrefix.size());
    LayerEntry entry;
    size_t start = 0;
    while (true) {
      size_t sep = rest.find(kSeparator, start);
      entry.path.push_back(Lower(rest.substr(
          start, sep == std::string_view::npos ? std::string_view::npos : sep - start)));
      if (sep == std::string_view::npos) break;
      start = sep + kSeparator.size();
    }
    entry.value.kind = RawValue::Kind::kText;
    entry.value.text = value;
    entry.origin = "env " + name;
    layer.entries.push_back(std::move(entry));
  }
  return layer;
}

}  // namespace sqe::config
