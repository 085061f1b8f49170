#pragma once
/// The handlers behind the REST routes, one function per operation of the OpenAPI spec.
/// iceberg_rest_routes.cc parses the path and calls them; each answers a full response
/// (the result, or the ErrorModel). Private to this folder.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "server/http/http_types.h"
#include "server/iceberg_rest/iceberg_rest_routes.h"

namespace sqe::server::rest_internal {

/// What every handler gets: the catalog and the options (shared, read-only).
struct RestContext {
  std::shared_ptr<catalog::Catalog> catalog;
  IcebergRestOptions options;
};

/// The request body as a JSON object; InvalidArgument for anything else.
Result<nlohmann::json> ParseJsonBody(const HttpRequest& request);

/// One page of `total` items under pageToken / pageSize (an offset token): the range
/// [begin, end) and the next token ("" on the last page).
struct Page {
  size_t begin = 0;
  size_t end = 0;
  std::string next_token;
};
Result<Page> PageOf(const HttpRequest& request, size_t total);

/// The first value of query parameter `name`, or nullopt.
std::optional<std::string> QueryValue(const HttpRequest& request, const std::string& name);

HttpResponse NoContent();

// Namespaces (namespace_endpoints.cc).
HttpResponse ListNamespaces(const RestContext& ctx, const HttpRequest& request);
HttpResponse CreateNamespace(const RestContext& ctx, const HttpRequest& request);
HttpResponse LoadNamespace(const RestContext& ctx, const catalog::Namespace& ns);
HttpResponse DropNamespace(const RestContext& ctx, const catalog::Namespace& ns);
HttpResponse UpdateNamespaceProperties(const RestContext& ctx, const catalog::Namespace& ns,
                                       const HttpRequest& request);

// Tables (table_endpoints.cc).
HttpResponse ListTables(const RestContext& ctx, const catalog::Namespace& ns,
                        const HttpRequest& request);
HttpResponse CreateTable(const RestContext& ctx, const catalog::Namespace& ns,
                         const HttpRequest& request);
HttpResponse LoadTable(const RestContext& ctx, const catalog::TableIdentifier& id);
HttpResponse DropTable(const RestContext& ctx, const catalog::TableIdentifier& id,
                       const HttpRequest& request);
HttpResponse RegisterTable(const RestContext& ctx, const catalog::Namespace& ns,
                           const HttpRequest& request);
HttpResponse RenameTable(const RestContext& ctx, const HttpRequest& request);

// Commits (table_commit_endpoints.cc).
HttpResponse CommitTable(const RestContext& ctx, const catalog::TableIdentifier& id,
                         const HttpRequest& request);
HttpResponse CommitTransaction(const RestContext& ctx, const HttpRequest& request);

/// {"metadata-location", "metadata", "config"} (LoadTableResult / CommitTableResponse);
/// `with_config` adds the (empty) per-table client config.
Result<std::string> LoadTableResultJson(const catalog::LoadedTable& table, bool with_config);

}  // namespace sqe::server::rest_internal
