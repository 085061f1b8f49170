#include "server/iceberg_rest/iceberg_rest_routes.h"

#include <chrono>
#include <functional>
#include <string_view>

#include "catalog/rest/rest_names.h"
#include "common/secret_string.h"
#include "server/iceberg_rest/rest_endpoints_internal.h"
#include "server/iceberg_rest/rest_error_response.h"

namespace sqe::server {
namespace rest_internal {

Result<nlohmann::json> ParseJsonBody(const HttpRequest& request) {
  nlohmann::json body = nlohmann::json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) return Status::InvalidArgument("the request body is not valid JSON");
  if (!body.is_object()) return Status::InvalidArgument("the request body must be a JSON object");
  return body;
}

std::optional<std::string> QueryValue(const HttpRequest& request, const std::string& name) {
  auto it = request.query.find(name);
  if (it == request.query.end()) return std::nullopt;
  return it->second;
}

Result<Page> PageOf(const HttpRequest& request, size_t total) {
  auto number = [](const std::string& text, const char* what) -> Result<size_t> {
    size_t value = 0;
    if (text.empty() || text.size() > 18) {
      return Status::InvalidArgument(std::string(what) + " must be a non-negative integer");
    }
    for (char c : text) {
      if (c < '0' || c > '9') {
        return Status::InvalidArgument(std::string(what) + " must be a non-negative integer");
      }
      value = value * 10 + static_cast<size_t>(c - '0');
    }
    return value;
  };
  Page page;
  page.end = total;
  std::optional<std::string> token = QueryValue(request, "pageToken");
  if (token && !token->empty()) {
    SQE_ASSIGN_OR_RETURN(page.begin, number(*token, "pageToken"));
    page.begin = std::min(page.begin, total);
  }
  std::optional<std::string> size = QueryValue(request, "pageSize");
  if (size && !size->empty()) {
    SQE_ASSIGN_OR_RETURN(size_t n, number(*size, "pageSize"));
    if (n == 0) return Status::InvalidArgument("pageSize must be at least 1");
    page.end = std::min(total, page.begin + n);
    if (page.end < total) page.next_token = std::to_string(page.end);
  }
  return page;
}

HttpResponse NoContent() {
  HttpResponse response;
  response.status = 204;
  response.content_type = "application/json";
  return response;
}

}  // namespace rest_internal

namespace {

using rest_internal::RestContext;
using RouteAdder = std::function<void(HttpMethod, std::string, HttpHandler)>;

constexpr std::string_view kNamespacesPrefix = "/v1/namespaces/";

/// What the server implements, in the spec's "METHOD /v1/{prefix}/..." form.
const char* const kEndpoints[] = {
    "GET /v1/{prefix}/namespaces",
    "POST /v1/{prefix}/namespaces",
    "GET /v1/{prefix}/namespaces/{namespace}",
    "HEAD /v1/{prefix}/namespaces/{namespace}",
    "DELETE /v1/{prefix}/namespaces/{namespace}",
    "POST /v1/{prefix}/namespaces/{namespace}/properties",
    "GET /v1/{prefix}/namespaces/{namespace}/tables",
    "POST /v1/{prefix}/namespaces/{namespace}/tables",
    "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
    "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
    "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
    "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
    "POST /v1/{prefix}/namespaces/{namespace}/register",
    "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
    "POST /v1/{prefix}/tables/rename",
    "POST /v1/{prefix}/transactions/commit",
};

/// A handler that turns anything thrown into an ErrorModel response: a JSON type error
/// (a field of the wrong type the handler read with value()) is the request's fault.
HttpHandler Guarded(std::function<HttpResponse(const HttpRequest&)> handler) {
  return [handler = std::move(handler)](const HttpRequest& request) {
    try {
      return handler(request);
    } catch (const nlohmann::json::exception& e) {
      return RestError(400, "BadRequestException",
                       std::string("malformed request body: ") + e.what());
    } catch (const std::exception& e) {
      return RestError(500, "ServiceFailureException", e.what());
    } catch (...) {
      return RestError(500, "ServiceFailureException", "unexpected error");
    }
  };
}

HttpResponse ConfigResponse() {
  nlohmann::json endpoints = nlohmann::json::array();
  for (const char* e : kEndpoints) endpoints.push_back(e);
  nlohmann::json body = {{"defaults", nlohmann::json::object()},
                         {"overrides", nlohmann::json::object()},
                         {"endpoints", endpoints}};
  return HttpResponse::Json(200, body.dump());
}

/// application/x-www-form-urlencoded: '+' is a space, then %XX.
std::map<std::string, std::string> ParseForm(std::string_view body) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find('&', start);
    std::string_view pair = body.substr(start, end == std::string_view::npos ? end : end - start);
    if (!pair.empty()) {
      size_t eq = pair.find('=');
      std::string key(pair.substr(0, eq));
      std::string value(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
      for (char& c : key) c = c == '+' ? ' ' : c;
      for (char& c : value) c = c == '+' ? ' ' : c;
      out[catalog::PercentDecode(key)] = catalog::PercentDecode(value);
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

HttpResponse OAuthError(int status, const char* error, const std::string& description) {
  nlohmann::json body = {{"error", error}, {"error_description", description}};
  return HttpResponse::Json(status, body.dump());
}

/// POST /v1/oauth/tokens (RFC 6749 client_credentials, and token-exchange of a token the
/// chain accepts): the client's secret is checked by the auth chain (an api_key provider
/// takes an API key as client_secret; an anonymous provider takes anything) and a token
/// the chain accepts afterwards is issued. Secrets are never echoed.
HttpResponse IssueToken(const HttpRequest& request, const auth::AuthChain* chain,
                        int64_t lifetime_secs) {
  std::map<std::string, std::string> form = ParseForm(request.body);
  const std::string& grant = form["grant_type"];
  auth::Credentials credentials;
  if (grant == "client_credentials") {
    if (!form["client_secret"].empty()) {
      credentials = auth::Credentials::Basic(form["client_id"], form["client_secret"]);
    } else {
      Result<auth::Credentials> header =
          auth::ParseAuthorizationHeader(request.Header("authorization"));
      if (!header.ok()) return OAuthError(401, "invalid_client", header.status().message());
      credentials = std::move(*header);
    }
  } else if (grant == "urn:ietf:params:oauth:grant-type:token-exchange") {
    if (form["subject_token"].empty()) {
      return OAuthError(400, "invalid_request", "token-exchange needs a subject_token");
    }
    credentials = auth::Credentials::Bearer(form["subject_token"]);
  } else {
    return OAuthError(400, "unsupported_grant_type",
                      "grant_type must be client_credentials or token-exchange");
  }
  for (auto& [key, value] : form) SecureZero(value.data(), value.size());
  if (chain == nullptr) {
    return OAuthError(401, "invalid_client", "this REST catalog server has no auth chain");
  }
  Result<auth::Identity> who = chain->Authenticate(credentials);
  if (!who.ok()) return OAuthError(401, "invalid_client", who.status().message());
  Result<std::string> token =
      chain->issued_tokens().Issue(*who, std::chrono::seconds(lifetime_secs));
  if (!token.ok()) return OAuthError(500, "server_error", token.status().message());
  nlohmann::json body = {{"access_token", *token},
                         {"token_type", "bearer"},
                         {"expires_in", lifetime_secs},
                         {"issued_token_type", "urn:ietf:params:oauth:token-type:access_token"}};
  SecureZero(token->data(), token->size());
  HttpResponse response = HttpResponse::Json(200, body.dump());
  response.headers["Cache-Control"] = "no-store";
  return response;
}

/// `handler` behind the auth chain: 401 NotAuthorizedException unless the chain accepts
/// the request's Authorization header.
HttpHandler Authenticated(std::shared_ptr<const auth::AuthChain> chain, HttpHandler handler) {
  return [chain = std::move(chain), handler = std::move(handler)](const HttpRequest& request) {
    Status denied = chain == nullptr
                        ? Status::Unauthenticated("this REST catalog server has no auth chain")
                        : chain->AuthenticateHeader(request.Header("authorization")).status();
    if (!denied.ok()) {
      HttpResponse response = RestError(401, "NotAuthorizedException", denied.message());
      response.headers["WWW-Authenticate"] = "Bearer";
      return response;
    }
    return handler(request);
  };
}

HttpResponse RouteNotFound(const HttpRequest& request) {
  return RestError(404, "NotFoundException",
                   "no REST catalog route for " + std::string(HttpMethodName(request.method)) +
                       " " + request.path);
}

/// Everything under /v1/namespaces/{ns}/...: the path split into decoded segments.
HttpResponse DispatchNamespacePath(const RestContext& ctx, const HttpRequest& request) {
  std::vector<std::string> segments;
  std::string_view rest = std::string_view(request.path).substr(kNamespacesPrefix.size());
  while (true) {
    size_t slash = rest.find('/');
    segments.push_back(catalog::PercentDecode(rest.substr(0, slash)));
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  Result<catalog::Namespace> ns = catalog::NamespaceFromParameter(segments[0]);
  if (!ns.ok()) return RestErrorFromStatus(ns.status(), RestSubject::kNamespace);
  const HttpMethod m = request.method;
  namespace ri = rest_internal;
  if (segments.size() == 1) {
    if (m == HttpMethod::kGet) return ri::LoadNamespace(ctx, *ns);
    if (m == HttpMethod::kDelete) return ri::DropNamespace(ctx, *ns);
  } else if (segments.size() == 2 && segments[1] == "properties") {
    if (m == HttpMethod::kPost) return ri::UpdateNamespaceProperties(ctx, *ns, request);
  } else if (segments.size() == 2 && segments[1] == "tables") {
    if (m == HttpMethod::kGet) return ri::ListTables(ctx, *ns, request);
    if (m == HttpMethod::kPost) return ri::CreateTable(ctx, *ns, request);
  } else if (segments.size() == 2 && segments[1] == "register") {
    if (m == HttpMethod::kPost) return ri::RegisterTable(ctx, *ns, request);
  } else if ((segments.size() == 3 || segments.size() == 4) && segments[1] == "tables") {
    catalog::TableIdentifier id{*ns, segments[2]};
    if (Status st = catalog::ValidateTableIdentifier(id); !st.ok()) {
      return RestErrorFromStatus(st, RestSubject::kTable);
    }
    if (segments.size() == 4) {
      // Scan and commit reports are accepted and not kept yet.
      if (segments[3] == "metrics" && m == HttpMethod::kPost) return ri::NoContent();
      return RouteNotFound(request);
    }
    if (m == HttpMethod::kGet) return ri::LoadTable(ctx, id);
    if (m == HttpMethod::kPost) return ri::CommitTable(ctx, id, request);
    if (m == HttpMethod::kDelete) return ri::DropTable(ctx, id, request);
  } else {
    return RouteNotFound(request);
  }
  return RestError(405, "MethodNotAllowedException",
                   std::string(HttpMethodName(m)) + " is not allowed on " + request.path);
}

void AddRoutes(const RouteAdder& add_open, std::shared_ptr<catalog::Catalog> catalog,
               IcebergRestOptions options) {
  std::shared_ptr<const auth::AuthChain> chain = options.auth;
  const int64_t lifetime = std::max<int64_t>(1, options.token_lifetime_secs);
  add_open(HttpMethod::kPost, "/v1/oauth/tokens", Guarded([chain, lifetime](const HttpRequest& r) {
             return IssueToken(r, chain.get(), lifetime);
           }));
  auto add = [&add_open, &chain](HttpMethod m, std::string path, HttpHandler h) {
    add_open(m, std::move(path), Authenticated(chain, std::move(h)));
  };
  auto ctx =
      std::make_shared<const RestContext>(RestContext{std::move(catalog), std::move(options)});
  namespace ri = rest_internal;
  add(HttpMethod::kGet, "/v1/config", Guarded([](const HttpRequest&) { return ConfigResponse(); }));
  add(HttpMethod::kGet, "/v1/namespaces",
      Guarded([ctx](const HttpRequest& r) { return ri::ListNamespaces(*ctx, r); }));
  add(HttpMethod::kPost, "/v1/namespaces",
      Guarded([ctx](const HttpRequest& r) { return ri::CreateNamespace(*ctx, r); }));
  HttpHandler nested =
      Guarded([ctx](const HttpRequest& r) { return DispatchNamespacePath(*ctx, r); });
  for (HttpMethod m : {HttpMethod::kGet, HttpMethod::kPost, HttpMethod::kDelete}) {
    add(m, "/v1/namespaces/*", nested);
  }
  add(HttpMethod::kPost, "/v1/tables/rename",
      Guarded([ctx](const HttpRequest& r) { return ri::RenameTable(*ctx, r); }));
  add(HttpMethod::kPost, "/v1/transactions/commit",
      Guarded([ctx](const HttpRequest& r) { return ri::CommitTransaction(*ctx, r); }));
}

}  // namespace

void AddIcebergRestRoutes(HttpListener& listener, std::shared_ptr<catalog::Catalog> catalog,
                          IcebergRestOptions options) {
  AddRoutes([&listener](HttpMethod m, std::string path,
                        HttpHandler h) { listener.Route(m, std::move(path), std::move(h)); },
            std::move(catalog), std::move(options));
}

void AddIcebergRestRoutes(HttpRouter& router, std::shared_ptr<catalog::Catalog> catalog,
                          IcebergRestOptions options) {
  AddRoutes([&router](HttpMethod m, std::string path,
                      HttpHandler h) { router.Add(m, std::move(path), std::move(h)); },
            std::move(catalog), std::move(options));
}

void AddIcebergRestUnavailableRoutes(HttpListener& listener, Status why) {
  std::string message = "the catalog is unavailable: " + why.message();
  HttpHandler unavailable = [message](const HttpRequest&) {
    return RestError(503, "ServiceUnavailableException", message);
  };
  for (HttpMethod m : {HttpMethod::kGet, HttpMethod::kPost, HttpMethod::kPut, HttpMethod::kDelete,
                       HttpMethod::kPatch}) {
    listener.Route(m, "/v1/*", unavailable);
  }
}

}  // namespace sqe::server
