#include "server/trino/statement_routes.h"

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/trino/client_headers.h"
#include "server/trino/client_sessions.h"
#include "server/trino/query_registry.h"

namespace sqe::server::trino {
namespace {

using nlohmann::json;

/// What the routes share; the handlers own it together.
struct Protocol {
  explicit Protocol(TrinoProtocolOptions o)
      : options(std::move(o)),
        sessions(options.engine, options.session_ttl),
        queries(options.query_retention, options.abandon_after) {}
  ~Protocol() {
    if (lister_id != 0) engine::RemoveRuntimeLister(*options.engine, lister_id);
  }
  TrinoProtocolOptions options;
  ClientSessions sessions;  // before `queries`: query threads use it until they are joined
  QueryRegistry queries;
  int lister_id = 0;  // system.runtime.* registration
};

/// Registers `protocol`'s queries and node for system.runtime.*; the lister holds the
/// protocol weakly, so a lister called while the listener goes away lists nothing.
void RegisterRuntimeLister(const std::shared_ptr<Protocol>& protocol) {
  std::weak_ptr<Protocol> weak = protocol;
  protocol->lister_id =
      engine::AddRuntimeLister(*protocol->options.engine, [weak]() -> engine::RuntimeSnapshot {
        engine::RuntimeSnapshot snapshot;
        std::shared_ptr<Protocol> p = weak.lock();
        if (p == nullptr) return snapshot;
        snapshot.nodes.push_back(p->options.node);
        for (const auto& query : p->queries.All()) snapshot.queries.push_back(query->Runtime());
        return snapshot;
      });
}

HttpResponse JsonError(int status, const std::string& message) {
  return HttpResponse::Json(
      status, json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string BaseUri(const HttpRequest& request) {
  std::string host = request.Header("host");
  return "http://" + (host.empty() ? std::string("localhost") : host);
}

/// The caller's user name, or the 401 response to send.
Result<std::string> Authenticate(const Protocol& protocol, const HttpRequest& request,
                                 const ClientHeaders& headers) {
  const auth::AuthChain& chain = *protocol.options.auth;
  std::string authorization = request.Header("authorization");
  if (authorization.empty() && !chain.allows_anonymous()) {
    return Status::Unauthenticated(
        "authentication required: send 'Authorization: Basic <user:password>' (an API key as "
        "the password) or 'Authorization: Bearer <api key>'");
  }
  SQE_ASSIGN_OR_RETURN(auth::Identity identity, chain.AuthenticateHeader(authorization));
  if (identity.provider == "anonymous" && !headers.user.empty()) return headers.user;
  return identity.user;
}

HttpResponse Unauthorized(const Status& status) {
  HttpResponse response = JsonError(401, status.message());
  response.headers["WWW-Authenticate"] = "Basic realm=\"SQE\"";
  return response;
}

/// "/v1/statement/executing/{id}/{slug}/{token}" (also ".../queued/...").
struct PagePath {
  std::string id;
  std::string slug;
  uint64_t token = 0;
};

std::optional<PagePath> ParsePagePath(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 1;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    parts.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  // v1 statement executing id slug token
  if (parts.size() != 6 || parts[0] != "v1" || parts[1] != "statement") return std::nullopt;
  if (parts[2] != "executing" && parts[2] != "queued") return std::nullopt;
  char* end = nullptr;
  uint64_t token = std::strtoull(parts[5].c_str(), &end, 10);
  if (parts[5].empty() || *end != '\0') return std::nullopt;
  return PagePath{parts[3], parts[4], token};
}

HttpResponse WithAuth(Protocol& protocol, const HttpRequest& request,
                      const std::function<HttpResponse(const std::string&)>& handler) {
  ClientHeaders headers = ParseClientHeaders(request);
  Result<std::string> user = Authenticate(protocol, request, headers);
  if (!user.ok()) return Unauthorized(user.status());
  return handler(*user);
}

/// Runs `handler` on the query a page path names, once the caller is authenticated and
/// the query is theirs; 410 for a query that is gone (or never was), 404 otherwise.
HttpResponse WithPageQuery(
    Protocol& protocol, const HttpRequest& request,
    const std::function<HttpResponse(TrinoQuery&, const PagePath&)>& handler) {
  return WithAuth(protocol, request, [&](const std::string& user) {
    std::optional<PagePath> page = ParsePagePath(request.path);
    if (!page) return JsonError(404, "not a statement page: " + request.path);
    std::shared_ptr<TrinoQuery> query = protocol.queries.Find(page->id);
    if (query == nullptr || query->slug() != page->slug) {
      return JsonError(410, "query " + page->id + " is gone (ended queries are forgotten)");
    }
    if (query->user() != user) return JsonError(404, "query " + page->id + " not found");
    return handler(*query, *page);
  });
}

HttpResponse NoContent() {
  HttpResponse response;
  response.status = 204;
  return response;
}

std::string QueryIdOf(const std::string& path) {
  const std::string prefix = "/v1/query/";
  std::string id = path.substr(prefix.size());
  if (size_t slash = id.find('/'); slash != std::string::npos) id.resize(slash);
  return id;
}

}  // namespace

void AddTrinoStatementRoutes(HttpListener& listener, TrinoProtocolOptions options) {
  auto protocol = std::make_shared<Protocol>(std::move(options));
  RegisterRuntimeLister(protocol);

  listener.Post("/v1/statement", [protocol](const HttpRequest& request) {
    ClientHeaders headers = ParseClientHeaders(request);
    Result<std::string> user = Authenticate(*protocol, request, headers);
    if (!user.ok()) return Unauthorized(user.status());
    if (request.body.find_first_not_of(" \t\r\n;") == std::string::npos) {
      return JsonError(400, "SQL statement is empty");
    }
    protocol->queries.Sweep();
    auto query =
        std::make_shared<TrinoQuery>(protocol->queries.NewId(), protocol->queries.NewSlug(), *user,
                                     request.body, std::move(headers), protocol->options.paging);
    protocol->queries.Add(query);
    query->Start(protocol->sessions);
    return query->Accepted(BaseUri(request));
  });

  listener.Get("/v1/statement/*", [protocol](const HttpRequest& request) {
    return WithPageQuery(*protocol, request, [&](TrinoQuery& query, const PagePath& page) {
      return query.Page(page.token, BaseUri(request));
    });
  });

  listener.Route(HttpMethod::kDelete, "/v1/statement/*", [protocol](const HttpRequest& request) {
    return WithPageQuery(*protocol, request, [&](TrinoQuery& query, const PagePath&) {
      query.Cancel();
      return NoContent();
    });
  });

  listener.Get("/v1/query", [protocol](const HttpRequest& request) {
    return WithAuth(*protocol, request, [&](const std::string& user) {
      json list = json::array();
      for (const auto& query : protocol->queries.All()) {
        if (query->user() == user) list.push_back(query->Info(BaseUri(request)));
      }
      return HttpResponse::Json(200, list.dump(-1, ' ', false, json::error_handler_t::replace));
    });
  });

  listener.Get("/v1/query/*", [protocol](const HttpRequest& request) {
    return WithAuth(*protocol, request, [&](const std::string& user) {
      std::string id = QueryIdOf(request.path);
      std::shared_ptr<TrinoQuery> query = protocol->queries.Find(id);
      if (query == nullptr || query->user() != user) {
        return JsonError(404, "query " + id + " not found");
      }
      return HttpResponse::Json(
          200, query->Info(BaseUri(request)).dump(-1, ' ', false, json::error_handler_t::replace));
    });
  });

  listener.Route(HttpMethod::kDelete, "/v1/query/*", [protocol](const HttpRequest& request) {
    return WithAuth(*protocol, request, [&](const std::string& user) {
      std::string id = QueryIdOf(request.path);
      std::shared_ptr<TrinoQuery> query = protocol->queries.Find(id);
      if (query == nullptr || query->user() != user) {
        return JsonError(404, "query " + id + " not found");
      }
      query->Cancel();
      return NoContent();
    });
  });
}

}  // namespace sqe::server::trino
