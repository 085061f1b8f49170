// Namespace operations of the REST catalog: list (with parent= and paging), create, load,
// drop, and the properties update with its updated / removed / missing report.

#include <set>

#include "catalog/rest/rest_names.h"
#include "server/iceberg_rest/rest_endpoints_internal.h"
#include "server/iceberg_rest/rest_error_response.h"

namespace sqe::server::rest_internal {
namespace {

HttpResponse NamespaceError(const Status& status) {
  return RestErrorFromStatus(status, RestSubject::kNamespace);
}

HttpResponse Ok(const nlohmann::json& body) {
  return HttpResponse::Json(200,
                            body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

nlohmann::json PropertiesJson(const std::map<std::string, std::string>& properties) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : properties) out[k] = v;
  return out;
}

Result<std::map<std::string, std::string>> PropertiesFromJson(const nlohmann::json& json,
                                                              const char* what) {
  std::map<std::string, std::string> out;
  if (json.is_null()) return out;
  if (!json.is_object()) {
    return Status::InvalidArgument(std::string(what) + " must be an object of strings");
  }
  for (const auto& [k, v] : json.items()) {
    if (!v.is_string()) {
      return Status::InvalidArgument(std::string(what) + "." + k + " must be a string");
    }
    out[k] = v.get<std::string>();
  }
  return out;
}

}  // namespace

HttpResponse ListNamespaces(const RestContext& ctx, const HttpRequest& request) {
  catalog::Namespace parent;
  std::optional<std::string> parent_text = QueryValue(request, "parent");
  // An empty parent is the top level (the spec keeps that for older clients).
  if (parent_text && !parent_text->empty()) {
    Result<catalog::Namespace> parsed =
        catalog::NamespaceFromParameter(catalog::PercentDecode(*parent_text));
    if (!parsed.ok()) return NamespaceError(parsed.status());
    parent = std::move(*parsed);
    Result<bool> exists = ctx.catalog->NamespaceExists(parent);
    if (!exists.ok()) return NamespaceError(exists.status());
    if (!*exists) {
      return NamespaceError(Status::NotFound("namespace '" + catalog::NamespaceToString(parent) +
                                             "' does not exist"));
    }
  }
  Result<std::vector<catalog::Namespace>> listed = ctx.catalog->ListNamespaces(parent);
  if (!listed.ok()) return NamespaceError(listed.status());
  Result<Page> page = PageOf(request, listed->size());
  if (!page.ok()) return NamespaceError(page.status());
  nlohmann::json namespaces = nlohmann::json::array();
  for (size_t i = page->begin; i < page->end; ++i) namespaces.push_back((*listed)[i]);
  nlohmann::json body = {{"namespaces", namespaces}};
  if (!page->next_token.empty()) body["next-page-token"] = page->next_token;
  return Ok(body);
}

HttpResponse CreateNamespace(const RestContext& ctx, const HttpRequest& request) {
  Result<nlohmann::json> body = ParseJsonBody(request);
  if (!body.ok()) return NamespaceError(body.status());
  if (!body->contains("namespace")) {
    return NamespaceError(Status::InvalidArgument("CreateNamespaceRequest needs \"namespace\""));
  }
  Result<catalog::Namespace> ns = catalog::NamespaceFromJson((*body)["namespace"], "namespace");
  if (!ns.ok()) return NamespaceError(ns.status());
  Result<std::map<std::string, std::string>> properties =
      PropertiesFromJson(body->value("properties", nlohmann::json()), "properties");
  if (!properties.ok()) return NamespaceError(properties.status());
  if (Status st = ctx.catalog->CreateNamespace(*ns, *properties); !st.ok()) {
    return NamespaceError(st);
  }
  Result<std::map<std::string, std::string>> stored = ctx.catalog->LoadNamespaceProperties(*ns);
  return Ok({{"namespace", *ns}, {"properties", PropertiesJson(stored.ValueOr(*properties))}});
}

HttpResponse LoadNamespace(const RestContext& ctx, const catalog::Namespace& ns) {
  Result<std::map<std::string, std::string>> properties = ctx.catalog->LoadNamespaceProperties(ns);
  if (!properties.ok()) return NamespaceError(properties.status());
  return Ok({{"namespace", ns}, {"properties", PropertiesJson(*properties)}});
}

HttpResponse DropNamespace(const RestContext& ctx, const catalog::Namespace& ns) {
  if (Status st = ctx.catalog->DropNamespace(ns); !st.ok()) return NamespaceError(st);
  return NoContent();
}

HttpResponse UpdateNamespaceProperties(const RestContext& ctx, const catalog::Namespace& ns,
                                       const HttpRequest& request) {
  Result<nlohmann::json> body = ParseJsonBody(request);
  if (!body.ok()) return NamespaceError(body.status());
  std::vector<std::string> removals;
  nlohmann::json removals_json = body->value("removals", nlohmann::json::array());
  if (!removals_json.is_array()) {
    return NamespaceError(Status::InvalidArgument("removals must be an array of strings"));
  }
  for (const nlohmann::json& key : removals_json) {
    if (!key.is_string()) {
      return NamespaceError(Status::InvalidArgument("removals must be an array of strings"));
    }
    removals.push_back(key.get<std::string>());
  }
  Result<std::map<std::string, std::string>> updates =
      PropertiesFromJson(body->value("updates", nlohmann::json()), "updates");
  if (!updates.ok()) return NamespaceError(updates.status());
  for (const std::string& key : removals) {
    if (updates->count(key) > 0) {
      return RestError(422, "UnprocessableEntityException",
                       "property '" + key + "' is both removed and updated");
    }
  }
  Result<std::map<std::string, std::string>> before = ctx.catalog->LoadNamespaceProperties(ns);
  if (!before.ok()) return NamespaceError(before.status());
  if (Status st = ctx.catalog->UpdateNamespaceProperties(ns, removals, *updates); !st.ok()) {
    return NamespaceError(st);
  }
  nlohmann::json updated = nlohmann::json::array();
  for (const auto& [k, v] : *updates) updated.push_back(k);
  nlohmann::json removed = nlohmann::json::array();
  nlohmann::json missing = nlohmann::json::array();
  for (const std::string& key : std::set<std::string>(removals.begin(), removals.end())) {
    (before->count(key) > 0 ? removed : missing).push_back(key);
  }
  return Ok({{"updated", updated}, {"removed", removed}, {"missing", missing}});
}

}  // namespace sqe::server::rest_internal
