#pragma once
/// The merge: layers applied over the defaults through the schema (file, then env, then
/// the command line), mode-dependent defaults resolved afterwards, and the check that
/// every field set belongs to its provider's / backend's type.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "config/config.h"
#include "config/config_source_internal.h"
#include "config/diagnostics_internal.h"
#include "config/schema_internal.h"

namespace sqe::config {

/// Which source last set each field, by instance path ("auth.providers[0].client_id").
class FieldOrigins {
 public:
  struct Entry {
    std::vector<std::string> segments;  ///< as the source wrote them (resolvable again)
    std::string origin;                 ///< "/etc/sqe.toml:3:1", "env SQE_X__Y", "--set x.y"
  };

  void Record(const std::string& path, std::vector<std::string> segments, std::string origin);
  /// Forgets every path under `prefix` (a table array that a higher source cleared).
  void ForgetUnder(const std::string& prefix);
  bool Has(std::string_view path) const { return entries_.find(path) != entries_.end(); }
  /// The origin of `path`, "" when it has its default.
  std::string OriginOf(std::string_view path) const;
  const std::map<std::string, Entry, std::less<>>& entries() const { return entries_; }

 private:
  std::map<std::string, Entry, std::less<>> entries_;
};

/// Converts `raw` to the field's type and stores it. The error text (no field name, no
/// origin) names the expected type and the value, except for secrets, whose value is never
/// repeated.
Status AssignRaw(FieldType type, const ValueRef& target, const RawValue& raw);

/// How `type` is described in type errors ("an integer", "a byte size such as ...").
std::string ExpectedTypeText(FieldType type, bool from_text);

/// Applies every entry of `layer` to `config`; errors (unknown keys, type errors,
/// unreadable *_file secrets, x and x_file in one source) go to `diagnostics`.
void ApplyLayer(const Layer& layer, Config* config, FieldOrigins* origins,
                DiagnosticList* diagnostics);

/// Fills the defaults that depend on the mode: catalog.backend.type (embedded in local
/// mode, rest otherwise), the rest backend's uri/warehouse (catalog.catalog_url /
/// catalog.warehouse), the embedded warehouse (./sqe-data) and catalog.rest_server.port
/// (8181 in local mode, 0 otherwise) when no source set them.
void ResolveModeDefaults(Config* config, const FieldOrigins& origins);

/// Reports every field a source set that does not belong to its owner's type, naming the
/// type and the fields it accepts.
void CheckFieldsBelongToType(Config& config, const FieldOrigins& origins,
                             DiagnosticList* diagnostics);

}  // namespace sqe::config
