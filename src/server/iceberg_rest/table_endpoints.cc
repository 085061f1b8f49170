// Table operations of the REST catalog except commits: list, create (and stage-create),
// load, drop (purgeRequested), register and rename.

#include <chrono>

#include "catalog/rest/rest_names.h"
#include "common/clock.h"
#include "iceberg/new_table.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/sort_order.h"
#include "server/iceberg_rest/rest_endpoints_internal.h"
#include "server/iceberg_rest/rest_error_response.h"

namespace sqe::server::rest_internal {
namespace {

HttpResponse TableError(const Status& status) {
  return RestErrorFromStatus(status, RestSubject::kTable);
}
HttpResponse NamespaceError(const Status& status) {
  return RestErrorFromStatus(status, RestSubject::kNamespace);
}

/// A request part that fails to parse is the client's fault whatever the parser says.
Status AsBadRequest(const Status& status, const std::string& what) {
  return Status::InvalidArgument(what + ": " + status.message());
}

std::string JoinPath(std::string base, const std::string& part) {
  if (!base.empty() && base.back() != '/') base.push_back('/');
  return base + part;
}

/// The CreateTableRequest body as the catalog's request (plus its name and stage-create).
struct ParsedCreate {
  std::string name;
  bool stage_create = false;
  catalog::CreateTableRequest request;
};

Result<ParsedCreate> ParseCreateTable(const nlohmann::json& body) {
  ParsedCreate out;
  if (!body.contains("name") || !body["name"].is_string()) {
    return Status::InvalidArgument("CreateTableRequest needs a string \"name\"");
  }
  out.name = body["name"].get<std::string>();
  if (!body.contains("schema") || !body["schema"].is_object()) {
    return Status::InvalidArgument("CreateTableRequest needs a \"schema\" object");
  }
  nlohmann::json schema = body["schema"];
  if (!schema.contains("schema-id")) schema["schema-id"] = 0;
  if (!schema.contains("type")) schema["type"] = "struct";
  Result<iceberg::Schema> parsed_schema = iceberg::ParseSchemaJson(schema.dump());
  if (!parsed_schema.ok()) return AsBadRequest(parsed_schema.status(), "schema");
  out.request.schema = std::move(*parsed_schema);

  nlohmann::json spec = body.value("partition-spec", nlohmann::json());
  if (spec.is_null()) spec = nlohmann::json::object();
  if (!spec.is_object()) return Status::InvalidArgument("partition-spec must be an object");
  if (!spec.contains("spec-id")) spec["spec-id"] = 0;
  if (!spec.contains("fields")) spec["fields"] = nlohmann::json::array();
  if (spec["fields"].is_array()) {
    // An unbound spec may leave field ids to the server: 1000, 1001, ... as Java assigns.
    int next_id = 1000;
    for (nlohmann::json& field : spec["fields"]) {
      if (field.is_object() && !field.contains("field-id")) field["field-id"] = next_id;
      if (field.is_object() && field["field-id"].is_number_integer()) {
        next_id = std::max(next_id, field["field-id"].get<int>() + 1);
      }
    }
  }
  Result<iceberg::PartitionSpec> parsed_spec = iceberg::ParsePartitionSpecJson(spec.dump());
  if (!parsed_spec.ok()) return AsBadRequest(parsed_spec.status(), "partition-spec");
  out.request.spec = std::move(*parsed_spec);

  nlohmann::json order = body.value("write-order", nlohmann::json());
  if (order.is_null()) order = nlohmann::json::object();
  if (!order.is_object()) return Status::InvalidArgument("write-order must be an object");
  if (!order.contains("fields")) order["fields"] = nlohmann::json::array();
  if (!order.contains("order-id")) order["order-id"] = order["fields"].empty() ? 0 : 1;
  Result<iceberg::SortOrder> parsed_order = iceberg::ParseSortOrderJson(order.dump());
  if (!parsed_order.ok()) return AsBadRequest(parsed_order.status(), "write-order");
  out.request.sort_order = std::move(*parsed_order);

  nlohmann::json properties = body.value("properties", nlohmann::json());
  if (!properties.is_null() && !properties.is_object()) {
    return Status::InvalidArgument("properties must be an object of strings");
  }
  if (properties.is_object()) {
    for (const auto& [k, v] : properties.items()) {
      if (!v.is_string()) return Status::InvalidArgument("properties." + k + " must be a string");
      out.request.properties[k] = v.get<std::string>();
    }
  }
  // "format-version" is a reserved property: it picks the version, it is not stored.
  if (auto it = out.request.properties.find("format-version"); it != out.request.properties.end()) {
    int version = 0;
    try {
      version = std::stoi(it->second);
    } catch (...) {
      return Status::InvalidArgument("property format-version must be 1, 2 or 3, not '" +
                                     it->second + "'");
    }
    out.request.format_version = version;
    out.request.properties.erase(it);
  }
  nlohmann::json location = body.value("location", nlohmann::json());
  if (location.is_string()) out.request.location = location.get<std::string>();
  nlohmann::json stage = body.value("stage-create", nlohmann::json());
  out.stage_create = stage.is_boolean() && stage.get<bool>();
  return out;
}

/// stage-create: the metadata the table would start with, registered nowhere. The client
/// commits it later with an assert-create requirement (table_commit_endpoints.cc).
HttpResponse StageCreate(const RestContext& ctx, const catalog::TableIdentifier& id,
                         const catalog::CreateTableRequest& request) {
  Result<bool> ns_exists = ctx.catalog->NamespaceExists(id.ns);
  if (!ns_exists.ok()) return NamespaceError(ns_exists.status());
  if (!*ns_exists) {
    return NamespaceError(Status::NotFound("namespace '" + catalog::NamespaceToString(id.ns) +
                                           "' does not exist: create it first"));
  }
  Result<catalog::LoadedTable> existing = ctx.catalog->LoadTable(id);
  if (existing.ok()) {
    return TableError(Status::AlreadyExists("table '" + catalog::TableIdentifierToString(id) +
                                            "' already exists"));
  }
  iceberg::NewTableOptions options;
  options.schema = request.schema;
  options.spec = request.spec;
  options.sort_order = request.sort_order;
  options.properties = request.properties;
  options.format_version = request.format_version.value_or(ctx.options.default_format_version);
  options.location = request.location;
  if (options.location.empty()) {
    options.location = ctx.options.warehouse;
    for (const std::string& level : id.ns) options.location = JoinPath(options.location, level);
    options.location = JoinPath(options.location, id.name);
  }
  while (options.location.size() > 1 && options.location.back() == '/') {
    options.location.pop_back();
  }
  Result<iceberg::TableMetadata> metadata = iceberg::NewTableMetadata(options, WallClockMillis());
  if (!metadata.ok()) return TableError(AsBadRequest(metadata.status(), "stage-create"));
  catalog::LoadedTable staged;
  staged.id = id;
  staged.metadata = std::make_shared<const iceberg::TableMetadata>(std::move(*metadata));
  Result<std::string> json = LoadTableResultJson(staged, true);
  if (!json.ok()) return TableError(json.status());
  return HttpResponse::Json(200, std::move(*json));
}

}  // namespace

Result<std::string> LoadTableResultJson(const catalog::LoadedTable& table, bool with_config) {
  SQE_ASSIGN_OR_RETURN(std::string metadata, iceberg::WriteTableMetadata(*table.metadata));
  std::string out = "{";
  if (!table.metadata_location.empty()) {
    out += "\"metadata-location\":" +
           nlohmann::json(table.metadata_location)
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
           ",";
  }
  out += "\"metadata\":" + metadata;
  // Vended storage credentials are not passed on yet: the config stays empty.
  if (with_config) out += ",\"config\":{}";
  out += "}";
  return out;
}

HttpResponse ListTables(const RestContext& ctx, const catalog::Namespace& ns,
                        const HttpRequest& request) {
  Result<std::vector<catalog::TableIdentifier>> listed = ctx.catalog->ListTables(ns);
  if (!listed.ok()) return NamespaceError(listed.status());
  Result<Page> page = PageOf(request, listed->size());
  if (!page.ok()) return NamespaceError(page.status());
  nlohmann::json identifiers = nlohmann::json::array();
  for (size_t i = page->begin; i < page->end; ++i) {
    identifiers.push_back(catalog::TableIdentifierToJson((*listed)[i]));
  }
  nlohmann::json body = {{"identifiers", identifiers}};
  if (!page->next_token.empty()) body["next-page-token"] = page->next_token;
  return HttpResponse::Json(200,
                            body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

HttpResponse CreateTable(const RestContext& ctx, const catalog::Namespace& ns,
                         const HttpRequest& request) {
  Result<nlohmann::json> body = ParseJsonBody(request);
  if (!body.ok()) return TableError(body.status());
  Result<ParsedCreate> parsed = ParseCreateTable(*body);
  if (!parsed.ok()) return TableError(parsed.status());
  catalog::TableIdentifier id{ns, parsed->name};
  if (Status st = catalog::ValidateTableIdentifier(id); !st.ok()) return TableError(st);
  if (parsed->stage_create) return StageCreate(ctx, id, parsed->request);
  Result<catalog::LoadedTable> created = ctx.catalog->CreateTable(id, parsed->request);
  // NotFound here is the namespace.
  if (!created.ok()) return NamespaceError(created.status());
  Result<std::string> json = LoadTableResultJson(*created, true);
  if (!json.ok()) return TableError(json.status());
  return HttpResponse::Json(200, std::move(*json));
}

HttpResponse LoadTable(const RestContext& ctx, const catalog::TableIdentifier& id) {
  Result<catalog::LoadedTable> loaded = ctx.catalog->LoadTable(id);
  if (!loaded.ok()) return TableError(loaded.status());
  Result<std::string> json = LoadTableResultJson(*loaded, true);
  if (!json.ok()) return TableError(json.status());
  return HttpResponse::Json(200, std::move(*json));
}

HttpResponse DropTable(const RestContext& ctx, const catalog::TableIdentifier& id,
                       const HttpRequest& request) {
  std::optional<std::string> purge = QueryValue(request, "purgeRequested");
  bool purge_requested = purge && (*purge == "true" || *purge == "True" || *purge == "1");
  if (Status st = ctx.catalog->DropTable(id, purge_requested); !st.ok()) return TableError(st);
  return NoContent();
}

HttpResponse RegisterTable(const RestContext& ctx, const catalog::Namespace& ns,
                           const HttpRequest& request) {
  Result<nlohmann::json> body = ParseJsonBody(request);
  if (!body.ok()) return TableError(body.status());
  nlohmann::json name = body->value("name", nlohmann::json());
  nlohmann::json location = body->value("metadata-location", nlohmann::json());
  if (!name.is_string() || !location.is_string()) {
    return TableError(Status::InvalidArgument(
        "RegisterTableRequest needs string \"name\" and \"metadata-location\""));
  }
  if (body->value("overwrite", false) == true) {
    return TableError(Status::NotImplemented(
        "register with \"overwrite\": true is not supported yet; drop the table first"));
  }
  catalog::TableIdentifier id{ns, name.get<std::string>()};
  if (Status st = catalog::ValidateTableIdentifier(id); !st.ok()) return TableError(st);
  Result<bool> ns_exists = ctx.catalog->NamespaceExists(ns);
  if (!ns_exists.ok()) return NamespaceError(ns_exists.status());
  if (!*ns_exists) {
    return NamespaceError(
        Status::NotFound("namespace '" + catalog::NamespaceToString(ns) + "' does not exist"));
  }
  Result<catalog::LoadedTable> registered =
      ctx.catalog->RegisterTable(id, location.get<std::string>());
  if (!registered.ok()) {
    // A metadata file that is missing or unreadable is the request's fault.
    const Status& st = registered.status();
    if (st.code() == StatusCode::kNotFound || st.code() == StatusCode::kCorruption ||
        st.code() == StatusCode::kIOError) {
      return TableError(AsBadRequest(st, "metadata-location"));
    }
    return TableError(st);
  }
  Result<std::string> json = LoadTableResultJson(*registered, true);
  if (!json.ok()) return TableError(json.status());
  return HttpResponse::Json(200, std::move(*json));
}

HttpResponse RenameTable(const RestContext& ctx, const HttpRequest& request) {
  Result<nlohmann::json> body = ParseJsonBody(request);
  if (!body.ok()) return TableError(body.status());
  Result<catalog::TableIdentifier> source =
      catalog::TableIdentifierFromJson(body->value("source", nlohmann::json()), "source");
  if (!source.ok()) return TableError(source.status());
  Result<catalog::TableIdentifier> destination =
      catalog::TableIdentifierFromJson(body->value("destination", nlohmann::json()), "destination");
  if (!destination.ok()) return TableError(destination.status());
  Status st = ctx.catalog->RenameTable(*source, *destination);
  if (st.ok()) return NoContent();
  if (st.code() == StatusCode::kNotFound) {
    Result<bool> dest_ns = ctx.catalog->NamespaceExists(destination->ns);
    if (dest_ns.ok() && !*dest_ns) {
      return NamespaceError(Status::NotFound(
          "namespace '" + catalog::NamespaceToString(destination->ns) + "' does not exist"));
    }
  }
  return TableError(st);
}

}  // namespace sqe::server::rest_internal
