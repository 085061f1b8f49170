#include "catalog/rest/rest_catalog.h"

#include <nlohmann/json.hpp>

#include "catalog/rest/rest_names.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/sort_order.h"
#include "io/s3/s3_options.h"

namespace sqe::catalog {
namespace {

using Json = nlohmann::json;

std::string Dump(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string Quoted(const Namespace& ns) { return "'" + NamespaceToString(ns) + "'"; }
std::string Quoted(const TableIdentifier& id) { return "'" + TableIdentifierToString(id) + "'"; }

/// A JSON object of properties as strings (numbers and booleans as their JSON text, which
/// some servers send for flags like rest.sigv4-enabled).
std::map<std::string, std::string> StringMap(const Json& json) {
  std::map<std::string, std::string> out;
  if (!json.is_object()) return out;
  for (const auto& [key, value] : json.items()) {
    if (value.is_string()) {
      out[key] = value.get<std::string>();
    } else if (!value.is_null()) {
      out[key] = value.dump();
    }
  }
  return out;
}

Result<Json> ParseBody(const std::string& body, const std::string& context,
                       const std::string& what) {
  Json json = Json::parse(body, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return Status::Corruption(context + ": " + what +
                              " answered with a body that is not a JSON "
                              "object");
  }
  return json;
}

Result<Namespace> NamespaceOf(const Json& json, const std::string& context) {
  if (!json.is_array()) {
    return Status::Corruption(context + ": a namespace in the answer is not an array of strings");
  }
  Namespace ns;
  for (const Json& level : json) {
    if (!level.is_string()) {
      return Status::Corruption(context + ": a namespace level in the answer is not a string");
    }
    ns.push_back(level.get<std::string>());
  }
  return ns;
}

const char kDelegationHeader[] = "X-Iceberg-Access-Delegation";

}  // namespace

Result<RestCatalogOptions> RestCatalogOptionsFromConfig(
    const config::Config& config, const std::map<std::string, std::string>& env) {
  const config::CatalogConfig& catalog = config.catalog;
  const config::CatalogBackendConfig& backend = catalog.backend;
  RestCatalogOptions o;
  o.name = catalog.name;
  o.uri = backend.uri.empty() ? catalog.catalog_url : backend.uri;
  o.warehouse = backend.warehouse.empty() ? catalog.warehouse : backend.warehouse;
  o.credential = backend.credential;
  o.token = backend.token;
  o.oauth2_server_uri = backend.oauth2_server_uri;
  if (!backend.scope.empty()) o.scope = backend.scope;
  if (o.credential.empty() && o.token.empty()) {
    // No catalog credential of its own: the process's machine identity, an oidc_m2m
    // provider first, else [auth] token_endpoint with client_id / client_secret (the
    // reference's "OAuth2 client credentials" mode).
    const config::AuthProviderConfig* m2m = nullptr;
    for (const config::AuthProviderConfig& p : config.auth.providers) {
      if (p.type == "oidc_m2m" && !p.token_endpoint.empty() && !p.client_secret.empty()) {
        m2m = &p;
        break;
      }
    }
    if (m2m != nullptr) {
      o.credential = SecretString(m2m->client_id + ":" + std::string(m2m->client_secret.Expose()));
      o.oauth2_server_uri = m2m->token_endpoint;
      if (!m2m->scope.empty()) o.scope = m2m->scope;
      o.token_refresh_margin_secs = m2m->refresh_buffer_secs;
    } else if (!config.auth.token_endpoint.empty() && !config.auth.client_secret.empty()) {
      o.credential = SecretString(config.auth.client_id + ":" +
                                  std::string(config.auth.client_secret.Expose()));
      o.oauth2_server_uri = config.auth.token_endpoint;
      o.token_refresh_margin_secs = config.auth.token_refresh_buffer_secs;
    }
  }
  o.access_delegation = backend.access_delegation;
  o.signing_region = backend.signing_region;
  if (!backend.signing_name.empty()) o.signing_name = backend.signing_name;
  o.metadata_cache_ttl_secs = catalog.metadata_cache_ttl_secs;
  o.http.verify_tls = config.auth.ssl_verification;
  for (const char* name : {"AWS_CA_BUNDLE", "SSL_CERT_FILE"}) {
    auto it = env.find(name);
    if (it != env.end() && !it->second.empty()) {
      o.http.ca_bundle = it->second;
      break;
    }
  }
  // SigV4 keys: the storage keys or the AWS_* environment, needed only when signing.
  Result<net::AwsCredentials> keys = io::s3::ResolveCredentials(config.storage, env);
  if (keys.ok()) {
    o.signing_credentials = std::move(*keys);
  } else if (!o.signing_region.empty()) {
    return keys.status().WithContext("SigV4 keys for the REST catalog");
  }
  return o;
}

RestCatalog::RestCatalog(RestCatalogOptions options) : options_(std::move(options)) {
  if (!options_.clock) options_.clock = Clock::System();
  while (!options_.uri.empty() && options_.uri.back() == '/') options_.uri.pop_back();
}

RestCatalog::~RestCatalog() = default;

Result<std::unique_ptr<RestCatalog>> RestCatalog::Make(RestCatalogOptions options) {
  const std::string& uri = options.uri;
  if (!(uri.starts_with("http://") || uri.starts_with("https://")) ||
      uri.find("://") + 3 >= uri.size() || uri.find('?') != std::string::npos) {
    return Status::InvalidArgument(
        "the REST catalog URI '" + uri +
        "' is not an http(s) URL (set catalog.catalog_url or catalog.backend.uri, e.g. "
        "\"http://polaris:8181/api/catalog\")");
  }
  if (options.access_delegation != "vended-credentials" && options.access_delegation != "none" &&
      !options.access_delegation.empty()) {
    return Status::InvalidArgument(
        "catalog.backend.access_delegation must be "
        "\"vended-credentials\" or \"none\", not '" +
        options.access_delegation + "'");
  }
  std::unique_ptr<RestCatalog> catalog(new RestCatalog(std::move(options)));
  SQE_ASSIGN_OR_RETURN(catalog->http_, net::HttpClient::Make(catalog->options_.http));
  OAuth2TokenSourceOptions token_options;
  token_options.token = catalog->options_.token;
  token_options.credential = catalog->options_.credential;
  token_options.token_endpoint = catalog->options_.oauth2_server_uri.empty()
                                     ? catalog->options_.uri + "/v1/oauth/tokens"
                                     : catalog->options_.oauth2_server_uri;
  token_options.scope = catalog->options_.scope;
  token_options.refresh_margin = std::chrono::seconds(catalog->options_.token_refresh_margin_secs);
  token_options.context = "REST catalog " + catalog->options_.uri;
  catalog->tokens_ = std::make_shared<OAuth2TokenSource>(std::move(token_options), catalog->http_,
                                                         catalog->options_.clock);
  return catalog;
}

Result<std::shared_ptr<const RestCatalog::Settled>> RestCatalog::Settle() {
  std::lock_guard lock(mu_);
  if (settled_) return settled_;
  RestSessionOptions session_options;
  session_options.uri = options_.uri;
  session_options.http = http_;
  session_options.tokens = tokens_;
  session_options.retry = options_.retry;
  session_options.sigv4 = !options_.signing_region.empty();
  session_options.signing_region = options_.signing_region;
  session_options.signing_name = options_.signing_name;
  session_options.signing_credentials = options_.signing_credentials;
  RestSession bootstrap(session_options);

  RestCall call;
  call.path = "/v1/config";
  if (!options_.warehouse.empty()) call.query.emplace_back("warehouse", options_.warehouse);
  call.what = "read the catalog configuration (GET /v1/config)";
  SQE_ASSIGN_OR_RETURN(RestOutcome outcome, bootstrap.Send(call));
  if (outcome.no_response) {
    return Status::IOError(bootstrap.context() + " cannot be reached: " + outcome.transport_error +
                           " (check catalog.catalog_url / catalog.backend.uri)");
  }
  if (outcome.response.status != 200) {
    return ErrorFromRestResponse(outcome.response, bootstrap.context(), call.what);
  }
  SQE_ASSIGN_OR_RETURN(Json config,
                       ParseBody(outcome.response.body, bootstrap.context(), call.what));

  // defaults < what this client says < overrides, as the spec orders them.
  auto settled = std::make_shared<Settled>();
  settled->properties = StringMap(config.value("defaults", Json::object()));
  std::map<std::string, std::string> local = options_.properties;
  if (!options_.warehouse.empty()) local["warehouse"] = options_.warehouse;
  if (!options_.signing_region.empty()) {
    local["rest.sigv4-enabled"] = "true";
    local["rest.signing-region"] = options_.signing_region;
    local["rest.signing-name"] = options_.signing_name;
  }
  for (const auto& [k, v] : local) settled->properties[k] = v;
  for (const auto& [k, v] : StringMap(config.value("overrides", Json::object()))) {
    settled->properties[k] = v;
  }
  const auto& p = settled->properties;
  auto get = [&](const std::string& key) {
    auto it = p.find(key);
    return it == p.end() ? std::string() : it->second;
  };
  if (config.contains("endpoints") && config["endpoints"].is_array()) {
    settled->endpoints.emplace();
    for (const Json& e : config["endpoints"]) {
      if (e.is_string()) settled->endpoints->insert(e.get<std::string>());
    }
  }
  std::string prefix = get("prefix");
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  while (!prefix.empty() && prefix.front() == '/') prefix.erase(0, 1);
  settled->prefix_path = prefix.empty() ? "/v1" : "/v1/" + prefix;
  if (std::string size = get("rest-page-size"); !size.empty()) {
    try {
      settled->page_size = std::stoll(size);
    } catch (...) {
      settled->page_size = 0;
    }
  }
  if (std::string uri = get("uri"); !uri.empty() && uri != options_.uri) {
    session_options.uri = uri;
  }
  if (get("rest.sigv4-enabled") == "true") {
    session_options.sigv4 = true;
    session_options.signing_region = get("rest.signing-region");
    if (std::string name = get("rest.signing-name"); !name.empty()) {
      session_options.signing_name = name;
    }
    if (session_options.signing_region.empty()) {
      return Status::InvalidArgument(bootstrap.context() +
                                     " asks for SigV4 (rest.sigv4-enabled) but names no region: "
                                     "set catalog.backend.signing_region");
    }
  }
  settled->session = std::make_shared<RestSession>(std::move(session_options));
  settled_ = settled;
  return settled_;
}

Result<std::map<std::string, std::string>> RestCatalog::EffectiveProperties() {
  SQE_ASSIGN_OR_RETURN(auto settled, Settle());
  return settled->properties;
}

Status RestCatalog::CheckEndpoint(const Settled& settled, const std::string& endpoint,
                                  const std::string& what) const {
  if (!settled.endpoints || settled.endpoints->count(endpoint)) return Status::OK();
  return Status::NotImplemented(settled.session->context() + " does not offer " + endpoint +
                                " (needed to " + what + ")");
}

std::string RestCatalog::NamespacePath(const Settled& s, const Namespace& ns) const {
  return s.prefix_path + "/namespaces/" + net::UriEncode(NamespaceToParameter(ns), true);
}

std::string RestCatalog::TablePath(const Settled& s, const TableIdentifier& id) const {
  return NamespacePath(s, id.ns) + "/tables/" + net::UriEncode(id.name, true);
}

Result<net::HttpResponse> RestCatalog::Call(const Settled& settled, RestCall call) {
  SQE_ASSIGN_OR_RETURN(RestOutcome outcome, settled.session->Send(call));
  if (outcome.no_response) {
    return Status::IOError(settled.session->context() + ": " + call.what +
                           " got no answer: " + outcome.transport_error);
  }
  if (outcome.response.status / 100 != 2) {
    return ErrorFromRestResponse(outcome.response, settled.session->context(), call.what);
  }
  return std::move(outcome.response);
}

Result<std::vector<Json>> RestCatalog::ListAll(const Settled& settled, RestCall call,
                                               const std::string& key) {
  std::vector<Json> items;
  std::string token;
  std::set<std::string> seen;
  const auto base_query = call.query;
  for (;;) {
    call.query = base_query;
    if (!token.empty()) call.query.emplace_back("pageToken", token);
    if (settled.page_size > 0) {
      call.query.emplace_back("pageSize", std::to_string(settled.page_size));
    }
    SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Call(settled, call));
    SQE_ASSIGN_OR_RETURN(Json body,
                         ParseBody(response.body, settled.session->context(), call.what));
    if (!body.contains(key) || !body[key].is_array()) {
      return Status::Corruption(settled.session->context() + ": " + call.what +
                                " answered without a \"" + key + "\" array");
    }
    for (Json& item : body[key]) items.push_back(std::move(item));
    Json next = body.value("next-page-token", Json());
    if (!next.is_string() || next.get<std::string>().empty()) return items;
    token = next.get<std::string>();
    if (!seen.insert(token).second) {
      return Status::Corruption(settled.session->context() + ": " + call.what +
                                " returned the page token '" + token + "' twice");
    }
  }
}

Status RestCatalog::CreateNamespace(const Namespace& ns,
                                    const std::map<std::string, std::string>& properties) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "create namespace " + Quoted(ns);
  SQE_RETURN_NOT_OK(CheckEndpoint(*s, "POST /v1/{prefix}/namespaces", call.what));
  call.method = "POST";
  call.path = s->prefix_path + "/namespaces";
  Json props = Json::object();
  for (const auto& [k, v] : properties) props[k] = v;
  call.body = Dump(Json{{"namespace", ns}, {"properties", props}});
  return Call(*s, std::move(call)).status();
}

Result<std::vector<Namespace>> RestCatalog::ListNamespaces(const Namespace& parent) {
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = parent.empty() ? "list namespaces" : "list namespaces under " + Quoted(parent);
  SQE_RETURN_NOT_OK(CheckEndpoint(*s, "GET /v1/{prefix}/namespaces", call.what));
  call.path = s->prefix_path + "/namespaces";
  if (!parent.empty()) call.query.emplace_back("parent", NamespaceToParameter(parent));
  SQE_ASSIGN_OR_RETURN(std::vector<Json> items, ListAll(*s, std::move(call), "namespaces"));
  std::vector<Namespace> out;
  for (const Json& item : items) {
    SQE_ASSIGN_OR_RETURN(Namespace ns, NamespaceOf(item, s->session->context()));
    out.push_back(std::move(ns));
  }
  return out;
}

Result<bool> RestCatalog::NamespaceExists(const Namespace& ns) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "check namespace " + Quoted(ns);
  call.path = NamespacePath(*s, ns);
  // HEAD only when the server says it has it; older servers answer GET only.
  const bool head = s->endpoints && s->endpoints->count("HEAD /v1/{prefix}/namespaces/{namespace}");
  call.method = head ? "HEAD" : "GET";
  Result<net::HttpResponse> response = Call(*s, std::move(call));
  if (response.ok()) return true;
  if (response.status().code() == StatusCode::kNotFound) return false;
  return response.status();
}

Result<std::map<std::string, std::string>> RestCatalog::LoadNamespaceProperties(
    const Namespace& ns) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "load namespace " + Quoted(ns);
  SQE_RETURN_NOT_OK(CheckEndpoint(*s, "GET /v1/{prefix}/namespaces/{namespace}", call.what));
  call.path = NamespacePath(*s, ns);
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Call(*s, call));
  SQE_ASSIGN_OR_RETURN(Json body, ParseBody(response.body, s->session->context(), call.what));
  return StringMap(body.value("properties", Json::object()));
}

Status RestCatalog::UpdateNamespaceProperties(const Namespace& ns,
                                              const std::vector<std::string>& removals,
                                              const std::map<std::string, std::string>& updates) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "update the properties of namespace " + Quoted(ns);
  SQE_RETURN_NOT_OK(
      CheckEndpoint(*s, "POST /v1/{prefix}/namespaces/{namespace}/properties", call.what));
  call.method = "POST";
  call.path = NamespacePath(*s, ns) + "/properties";
  Json u = Json::object();
  for (const auto& [k, v] : updates) u[k] = v;
  call.body = Dump(Json{{"removals", removals}, {"updates", u}});
  return Call(*s, std::move(call)).status();
}

Status RestCatalog::DropNamespace(const Namespace& ns) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "drop namespace " + Quoted(ns);
  SQE_RETURN_NOT_OK(CheckEndpoint(*s, "DELETE /v1/{prefix}/namespaces/{namespace}", call.what));
  call.method = "DELETE";
  call.path = NamespacePath(*s, ns);
  return Call(*s, std::move(call)).status();
}

Result<std::vector<TableIdentifier>> RestCatalog::ListTables(const Namespace& ns) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "list the tables of namespace " + Quoted(ns);
  SQE_RETURN_NOT_OK(CheckEndpoint(*s, "GET /v1/{prefix}/namespaces/{namespace}/tables", call.what));
  call.path = NamespacePath(*s, ns) + "/tables";
  SQE_ASSIGN_OR_RETURN(std::vector<Json> items, ListAll(*s, std::move(call), "identifiers"));
  std::vector<TableIdentifier> out;
  for (const Json& item : items) {
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) {
      return Status::Corruption(s->session->context() +
                                ": a table identifier in the answer has no string name");
    }
    TableIdentifier id;
    SQE_ASSIGN_OR_RETURN(id.ns,
                         NamespaceOf(item.value("namespace", Json()), s->session->context()));
    id.name = item["name"].get<std::string>();
    out.push_back(std::move(id));
  }
  return out;
}

Result<LoadedTable> RestCatalog::ParseLoadResult(const TableIdentifier& id,
                                                 const std::string& body_text,
                                                 const std::string& what) {
  const std::string context = "REST catalog " + options_.uri;
  SQE_ASSIGN_OR_RETURN(Json body, ParseBody(body_text, context, what));
  if (!body.contains("metadata") || !body["metadata"].is_object()) {
    return Status::Corruption(context + ": " + what + " answered without a \"metadata\" object");
  }
  Result<iceberg::TableMetadata> metadata = iceberg::ParseTableMetadata(Dump(body["metadata"]));
  if (!metadata.ok()) {
    return metadata.status().WithContext(context + ": the metadata of table " + Quoted(id));
  }
  LoadedTable table;
  table.id = id;
  Json location = body.value("metadata-location", Json());
  if (location.is_string()) table.metadata_location = location.get<std::string>();
  table.table_config = StringMap(body.value("config", Json::object()));
  // storage-credentials: the entry with the longest prefix of the table location wins.
  Json credentials = body.value("storage-credentials", Json());
  if (credentials.is_array()) {
    const Json* best = nullptr;
    size_t best_length = 0;
    for (const Json& entry : credentials) {
      if (!entry.is_object() || !entry.contains("prefix") || !entry["prefix"].is_string()) continue;
      std::string prefix = entry["prefix"].get<std::string>();
      if (metadata->location.starts_with(prefix) &&
          (best == nullptr || prefix.size() > best_length)) {
        best = &entry;
        best_length = prefix.size();
      }
    }
    if (best != nullptr) {
      for (auto& [k, v] : StringMap(best->value("config", Json::object())))
        table.table_config[k] = v;
    }
  }
  auto key = table.table_config.find("s3.access-key-id");
  auto secret = table.table_config.find("s3.secret-access-key");
  if (key != table.table_config.end() && secret != table.table_config.end()) {
    net::AwsCredentials vended;
    vended.access_key_id = key->second;
    vended.secret_access_key = SecretString(secret->second);
    if (auto token = table.table_config.find("s3.session-token");
        token != table.table_config.end()) {
      vended.session_token = token->second;
    }
    table.storage_credentials = std::move(vended);
  }
  // Secrets live in storage_credentials only, so table_config can be shown and logged.
  for (const char* k : {"s3.secret-access-key", "s3.session-token"}) table.table_config.erase(k);
  table.metadata = std::make_shared<const iceberg::TableMetadata>(std::move(*metadata));
  return table;
}

void RestCatalog::Remember(const LoadedTable& table) {
  std::lock_guard lock(mu_);
  format_versions_[table.id] = table.metadata->format_version;
  if (options_.metadata_cache_ttl_secs <= 0) return;
  cache_[table.id] = Cached{table, options_.clock->MonotonicNow() +
                                       std::chrono::seconds(options_.metadata_cache_ttl_secs)};
}

void RestCatalog::Forget(const TableIdentifier& id) {
  std::lock_guard lock(mu_);
  cache_.erase(id);
}

std::optional<LoadedTable> RestCatalog::Recall(const TableIdentifier& id) {
  std::lock_guard lock(mu_);
  auto it = cache_.find(id);
  if (it == cache_.end()) return std::nullopt;
  if (options_.clock->MonotonicNow() >= it->second.expires) {
    cache_.erase(it);
    return std::nullopt;
  }
  return it->second.table;
}

Result<LoadedTable> RestCatalog::LoadTable(const TableIdentifier& id) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  if (std::optional<LoadedTable> cached = Recall(id)) return std::move(*cached);
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "load table " + Quoted(id);
  SQE_RETURN_NOT_OK(
      CheckEndpoint(*s, "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}", call.what));
  call.path = TablePath(*s, id);
  if (options_.access_delegation == "vended-credentials") {
    call.headers.emplace_back(kDelegationHeader, "vended-credentials");
  }
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Call(*s, call));
  SQE_ASSIGN_OR_RETURN(LoadedTable table, ParseLoadResult(id, response.body, call.what));
  Remember(table);
  return table;
}

Result<LoadedTable> RestCatalog::CreateTable(const TableIdentifier& id,
                                             const CreateTableRequest& request) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "create table " + Quoted(id);
  SQE_RETURN_NOT_OK(
      CheckEndpoint(*s, "POST /v1/{prefix}/namespaces/{namespace}/tables", call.what));
  call.method = "POST";
  call.path = NamespacePath(*s, id.ns) + "/tables";
  Json body = {{"name", id.name},
               {"schema", Json::parse(iceberg::WriteSchemaJson(request.schema))},
               {"partition-spec", Json::parse(iceberg::WritePartitionSpecJson(request.spec))},
               {"write-order", Json::parse(iceberg::WriteSortOrderJson(request.sort_order))},
               {"stage-create", false}};
  Json properties = Json::object();
  for (const auto& [k, v] : request.properties) properties[k] = v;
  if (request.format_version)
    properties["format-version"] = std::to_string(*request.format_version);
  body["properties"] = properties;
  if (!request.location.empty()) body["location"] = request.location;
  call.body = Dump(body);
  if (options_.access_delegation == "vended-credentials") {
    call.headers.emplace_back(kDelegationHeader, "vended-credentials");
  }
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Call(*s, call));
  SQE_ASSIGN_OR_RETURN(LoadedTable table, ParseLoadResult(id, response.body, call.what));
  Remember(table);
  return table;
}

Result<LoadedTable> RestCatalog::CommitTable(
    const TableIdentifier& id, const std::vector<iceberg::TableRequirement>& requirements,
    const std::vector<iceberg::TableUpdate>& updates) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "commit to table " + Quoted(id);
  SQE_RETURN_NOT_OK(
      CheckEndpoint(*s, "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}", call.what));
  // The updates' JSON depends on the format version the table has (or moves to).
  int format_version = 0;
  {
    std::lock_guard lock(mu_);
    if (auto it = format_versions_.find(id); it != format_versions_.end()) {
      format_version = it->second;
    }
  }
  if (format_version == 0) {
    SQE_ASSIGN_OR_RETURN(LoadedTable base, LoadTable(id));
    format_version = base.metadata->format_version;
  }
  for (const iceberg::TableUpdate& u : updates) {
    if (u.action == iceberg::TableUpdate::Action::kUpgradeFormatVersion) {
      format_version = std::max(format_version, u.format_version);
    }
  }
  call.method = "POST";
  call.path = TablePath(*s, id);
  call.body = "{\"identifier\":" + Dump(TableIdentifierToJson(id)) +
              ",\"requirements\":" + iceberg::WriteTableRequirements(requirements) +
              ",\"updates\":" + iceberg::WriteTableUpdates(updates, format_version) + "}";
  Result<RestOutcome> outcome = s->session->Send(call);
  // Whatever happened, the cached metadata may be stale now.
  Forget(id);
  SQE_RETURN_NOT_OK(outcome.status());
  const std::string unknown =
      s->session->context() + ": the commit state of table " + Quoted(id) + " is unknown (";
  const std::string advice =
      "): the commit may or may not have been applied; reload the table and check its "
      "snapshots before committing again";
  if (outcome->no_response) return Status::IOError(unknown + outcome->transport_error + advice);
  const net::HttpResponse& response = outcome->response;
  if (response.status == 409) {
    Status st = ErrorFromRestResponse(response, s->session->context(), call.what);
    return Status::Conflict(st.message());
  }
  if (response.status >= 500 && response.status != 501) {
    Status st = ErrorFromRestResponse(response, s->session->context(), call.what);
    return Status::IOError(unknown + "HTTP " + std::to_string(response.status) + ": " +
                           st.message() + advice);
  }
  if (response.status / 100 != 2) {
    return ErrorFromRestResponse(response, s->session->context(), call.what);
  }
  SQE_ASSIGN_OR_RETURN(LoadedTable table, ParseLoadResult(id, response.body, call.what));
  {
    std::lock_guard lock(mu_);
    format_versions_[id] = table.metadata->format_version;
  }
  return table;
}

Status RestCatalog::DropTable(const TableIdentifier& id, bool purge) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = std::string(purge ? "drop and purge" : "drop") + " table " + Quoted(id);
  SQE_RETURN_NOT_OK(
      CheckEndpoint(*s, "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}", call.what));
  call.method = "DELETE";
  call.path = TablePath(*s, id);
  call.query.emplace_back("purgeRequested", purge ? "true" : "false");
  Status st = Call(*s, std::move(call)).status();
  Forget(id);
  return st;
}

Status RestCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(from));
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(to));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "rename table " + Quoted(from) + " to " + Quoted(to);
  SQE_RETURN_NOT_OK(CheckEndpoint(*s, "POST /v1/{prefix}/tables/rename", call.what));
  call.method = "POST";
  call.path = s->prefix_path + "/tables/rename";
  call.body = Dump(
      Json{{"source", TableIdentifierToJson(from)}, {"destination", TableIdentifierToJson(to)}});
  Status st = Call(*s, std::move(call)).status();
  Forget(from);
  Forget(to);
  return st;
}

Result<LoadedTable> RestCatalog::RegisterTable(const TableIdentifier& id,
                                               const std::string& metadata_location) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  SQE_ASSIGN_OR_RETURN(auto s, Settle());
  RestCall call;
  call.what = "register table " + Quoted(id) + " from " + metadata_location;
  SQE_RETURN_NOT_OK(
      CheckEndpoint(*s, "POST /v1/{prefix}/namespaces/{namespace}/register", call.what));
  call.method = "POST";
  call.path = NamespacePath(*s, id.ns) + "/register";
  call.body = Dump(Json{{"name", id.name}, {"metadata-location", metadata_location}});
  Forget(id);
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Call(*s, call));
  SQE_ASSIGN_OR_RETURN(LoadedTable table, ParseLoadResult(id, response.body, call.what));
  Remember(table);
  return table;
}

}  // namespace sqe::catalog
