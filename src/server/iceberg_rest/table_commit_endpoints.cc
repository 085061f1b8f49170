// Commits: POST /v1/namespaces/{ns}/tables/{table} (CommitTableRequest, including the
// assert-create commit that finishes a staged create) and POST /v1/transactions/commit.

#include <chrono>
#include <set>

#include "common/clock.h"
#include "common/uuid.h"
#include "iceberg/new_table.h"

#include "catalog/rest/rest_names.h"
#include "server/iceberg_rest/rest_endpoints_internal.h"
#include "server/iceberg_rest/rest_error_response.h"

namespace sqe::server::rest_internal {
namespace {

using iceberg::TableRequirement;
using iceberg::TableUpdate;

HttpResponse TableError(const Status& status) {
  return RestErrorFromStatus(status, RestSubject::kTable);
}

/// One table's change: the CommitTableRequest parts still as JSON (updates parse against
/// the table's format version, known only once it is loaded).
struct TableChange {
  catalog::TableIdentifier id;
  std::vector<TableRequirement> requirements;
  nlohmann::json updates = nlohmann::json::array();
};

Result<TableChange> ParseChange(const nlohmann::json& body,
                                const catalog::TableIdentifier* path_id) {
  TableChange change;
  if (path_id != nullptr) {
    change.id = *path_id;
  } else {
    if (!body.contains("identifier")) {
      return Status::InvalidArgument("every table change of a transaction needs \"identifier\"");
    }
    SQE_ASSIGN_OR_RETURN(change.id,
                         catalog::TableIdentifierFromJson(body["identifier"], "identifier"));
  }
  nlohmann::json requirements = body.value("requirements", nlohmann::json::array());
  change.updates = body.value("updates", nlohmann::json::array());
  if (!requirements.is_array() || !change.updates.is_array()) {
    return Status::InvalidArgument("requirements and updates must be arrays");
  }
  Result<std::vector<TableRequirement>> parsed = iceberg::ParseTableRequirements(
      requirements.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (!parsed.ok()) {
    return Status::InvalidArgument("requirements: " + parsed.status().message());
  }
  change.requirements = std::move(*parsed);
  return change;
}

Result<std::vector<TableUpdate>> ParseUpdates(const nlohmann::json& updates, int format_version) {
  Result<std::vector<TableUpdate>> parsed = iceberg::ParseTableUpdates(
      updates.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), format_version);
  if (!parsed.ok()) return Status::InvalidArgument("updates: " + parsed.status().message());
  return parsed;
}

bool IsCreate(const TableChange& change) {
  for (const TableRequirement& r : change.requirements) {
    if (r.kind == TableRequirement::Kind::kAssertCreate) return true;
  }
  return false;
}

/// The format version a create commit asks for (its upgrade-format-version), else the
/// default.
int CreateFormatVersion(const nlohmann::json& updates, int default_version) {
  for (const nlohmann::json& u : updates) {
    if (u.is_object() && u.value("action", "") == "upgrade-format-version" &&
        u.contains("format-version") && u["format-version"].is_number_integer()) {
      return u["format-version"].get<int>();
    }
  }
  return default_version;
}

/// Writes the first metadata file of a staged table (its uuid the one the client staged,
/// which it checks) and registers it: the Catalog interface has no create-with-uuid.
Result<catalog::LoadedTable> CreateWithMetadata(const RestContext& ctx,
                                                const catalog::TableIdentifier& id,
                                                const catalog::CreateTableRequest& request,
                                                const std::string& uuid,
                                                const std::vector<TableUpdate>& rest) {
  if (ctx.options.file_systems == nullptr) {
    return Status::NotImplemented(
        "committing a staged create needs storage access this server "
        "was not given");
  }
  iceberg::NewTableOptions options;
  options.schema = request.schema;
  options.spec = request.spec;
  options.sort_order = request.sort_order;
  options.properties = request.properties;
  options.format_version = request.format_version.value_or(ctx.options.default_format_version);
  options.location = request.location;
  if (options.location.empty()) {
    return Status::InvalidArgument("a create commit (assert-create) needs a set-location update");
  }
  while (options.location.size() > 1 && options.location.back() == '/') {
    options.location.pop_back();
  }
  int64_t now = WallClockMillis();
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata metadata, iceberg::NewTableMetadata(options, now));
  if (!uuid.empty()) metadata.table_uuid = uuid;
  if (!rest.empty()) {
    Result<iceberg::TableMetadata> next = iceberg::ApplyTableUpdates(metadata, rest, now);
    if (!next.ok()) return Status::InvalidArgument(next.status().message());
    metadata = std::move(*next);
  }
  std::string location =
      metadata.location + "/metadata/" + iceberg::MetadataFileName(0, RandomUuid());
  SQE_ASSIGN_OR_RETURN(std::string text, iceberg::WriteTableMetadata(metadata));
  SQE_ASSIGN_OR_RETURN(auto fs, ctx.options.file_systems->ForUri(location));
  SQE_ASSIGN_OR_RETURN(auto out, fs->OpenForWrite(location, /*overwrite=*/false));
  if (Status st = out->Write(text); !st.ok()) {
    out->Abort();
    return st;
  }
  SQE_RETURN_NOT_OK(out->Close());
  Result<catalog::LoadedTable> registered = ctx.catalog->RegisterTable(id, location);
  if (!registered.ok()) (void)fs->Delete({location});
  return registered;
}

/// Finishes a staged create: the table's first metadata from the create updates (schema,
/// spec, sort order, location, properties, the staged uuid), with everything else (a first
/// snapshot, its ref) applied on top.
Result<catalog::LoadedTable> CommitCreate(const RestContext& ctx, const TableChange& change) {
  int version = CreateFormatVersion(change.updates, ctx.options.default_format_version);
  SQE_ASSIGN_OR_RETURN(std::vector<TableUpdate> updates, ParseUpdates(change.updates, version));
  catalog::CreateTableRequest request;
  request.format_version = version;
  bool have_schema = false, have_spec = false, have_order = false;
  std::string assigned_uuid;
  std::vector<TableUpdate> rest;
  for (TableUpdate& u : updates) {
    using A = TableUpdate::Action;
    switch (u.action) {
      case A::kAssignUuid:
        assigned_uuid = u.uuid;
        continue;
      case A::kUpgradeFormatVersion:
        continue;
      case A::kAddSchema:
        if (!have_schema) {
          request.schema = std::move(*u.schema);
          have_schema = true;
          continue;
        }
        break;
      case A::kSetCurrentSchema:
        if (have_schema && rest.empty()) continue;
        break;
      case A::kAddPartitionSpec:
        if (!have_spec) {
          request.spec = std::move(*u.spec);
          have_spec = true;
          continue;
        }
        break;
      case A::kSetDefaultSpec:
        if (have_spec && rest.empty()) continue;
        break;
      case A::kAddSortOrder:
        if (!have_order) {
          request.sort_order = std::move(*u.sort_order);
          have_order = true;
          continue;
        }
        break;
      case A::kSetDefaultSortOrder:
        if (have_order && rest.empty()) continue;
        break;
      case A::kSetLocation:
        if (rest.empty()) {
          request.location = u.location;
          continue;
        }
        break;
      case A::kSetProperties:
        if (rest.empty()) {
          for (auto& [k, v] : u.updates) request.properties[k] = v;
          continue;
        }
        break;
      default:
        break;
    }
    rest.push_back(std::move(u));
  }
  if (!have_schema) {
    return Status::InvalidArgument("a create commit (assert-create) needs an add-schema update");
  }
  return CreateWithMetadata(ctx, change.id, request, assigned_uuid, rest);
}

Result<catalog::LoadedTable> ApplyChange(const RestContext& ctx, const TableChange& change) {
  if (IsCreate(change)) return CommitCreate(ctx, change);
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable current, ctx.catalog->LoadTable(change.id));
  SQE_ASSIGN_OR_RETURN(std::vector<TableUpdate> updates,
                       ParseUpdates(change.updates, current.metadata->format_version));
  return ctx.catalog->CommitTable(change.id, change.requirements, updates);
}

/// A create commit's NotFound is the namespace; any other NotFound the table.
HttpResponse ChangeError(const TableChange& change, const Status& status) {
  if (status.code() == StatusCode::kNotFound && IsCreate(change)) {
    return RestErrorFromStatus(status, RestSubject::kNamespace);
  }
  return TableError(status);
}

}  // namespace

HttpResponse CommitTable(const RestContext& ctx, const catalog::TableIdentifier& id,
                         const HttpRequest& request) {
  Result<nlohmann::json> body = ParseJsonBody(request);
  if (!body.ok()) return TableError(body.status());
  Result<TableChange> change = ParseChange(*body, &id);
  if (!change.ok()) return TableError(change.status());
  if (body->contains("identifier")) {
    Result<catalog::TableIdentifier> named =
        catalog::TableIdentifierFromJson((*body)["identifier"], "identifier");
    if (!named.ok()) return TableError(named.status());
    if (!(*named == id)) {
      return TableError(
          Status::InvalidArgument("identifier '" + catalog::TableIdentifierToString(*named) +
                                  "' in the body differs from the table in the path '" +
                                  catalog::TableIdentifierToString(id) + "'"));
    }
  }
  Result<catalog::LoadedTable> committed = ApplyChange(ctx, *change);
  if (!committed.ok()) return ChangeError(*change, committed.status());
  Result<std::string> json = LoadTableResultJson(*committed, false);
  if (!json.ok()) return TableError(json.status());
  return HttpResponse::Json(200, std::move(*json));
}

HttpResponse CommitTransaction(const RestContext& ctx, const HttpRequest& request) {
  Result<nlohmann::json> body = ParseJsonBody(request);
  if (!body.ok()) return TableError(body.status());
  nlohmann::json changes_json = body->value("table-changes", nlohmann::json());
  if (!changes_json.is_array()) {
    return TableError(
        Status::InvalidArgument("CommitTransactionRequest needs a \"table-changes\" array"));
  }
  std::vector<TableChange> changes;
  std::set<catalog::TableIdentifier> seen;
  for (const nlohmann::json& c : changes_json) {
    if (!c.is_object()) {
      return TableError(Status::InvalidArgument("every table change must be an object"));
    }
    Result<TableChange> change = ParseChange(c, nullptr);
    if (!change.ok()) return TableError(change.status());
    if (!seen.insert(change->id).second) {
      return TableError(Status::InvalidArgument(
          "table '" + catalog::TableIdentifierToString(change->id) +
          "' appears twice in one transaction; merge its changes into one"));
    }
    changes.push_back(std::move(*change));
  }
  // Every requirement is checked before anything is applied, so a stale transaction
  // changes nothing. Between the check and the last commit another writer can still win
  // on one table: the commits are not atomic across tables.
  for (const TableChange& change : changes) {
    if (IsCreate(change)) {
      Result<catalog::LoadedTable> existing = ctx.catalog->LoadTable(change.id);
      if (existing.ok()) {
        return TableError(Status::Conflict("requirement failed: table '" +
                                           catalog::TableIdentifierToString(change.id) +
                                           "' already exists"));
      }
      continue;
    }
    Result<catalog::LoadedTable> current = ctx.catalog->LoadTable(change.id);
    if (!current.ok()) return TableError(current.status());
    Result<std::vector<TableUpdate>> updates =
        ParseUpdates(change.updates, current->metadata->format_version);
    if (!updates.ok()) return TableError(updates.status());
    if (Status st = iceberg::CheckTableRequirements(current->metadata.get(), change.requirements);
        !st.ok()) {
      return TableError(st);
    }
  }
  for (const TableChange& change : changes) {
    Result<catalog::LoadedTable> committed = ApplyChange(ctx, change);
    if (!committed.ok()) return ChangeError(change, committed.status());
  }
  return NoContent();
}

}  // namespace sqe::server::rest_internal
