#pragma once
/// The Iceberg REST catalog server: the routes of the Iceberg REST OpenAPI spec
/// (apache/iceberg open-api/rest-catalog-open-api.yaml) over one Catalog, so other engines
/// (pyiceberg, Spark, Trino) share SQE's tables. Routes carry no {prefix}: /v1/config
/// advertises none. Errors are the spec's ErrorModel with the Java exception type names
/// clients switch on (rest_error_response.h).
///
/// Every route authenticates the caller through the process's auth chain (`Authorization:
/// Bearer <API key or token>`, or none when an anonymous provider is configured) and answers
/// 401 NotAuthorizedException otherwise. POST /v1/oauth/tokens is the OAuth2 token endpoint:
/// client_credentials whose client_secret the chain accepts (an API key) get a token the
/// chain then accepts as a bearer token.
/// POST /v1/transactions/commit applies each table's change in turn after checking every
/// table's requirements first; it is not atomic across tables.

#include <memory>
#include <string>

#include "auth/auth_chain.h"
#include "catalog/catalog.h"
#include "common/status.h"
#include "io/s3/storage_file_systems.h"
#include "server/http/http_listener.h"

namespace sqe::server {

/// What the REST routes need besides the catalog.
struct IcebergRestOptions {
  /// Where staged tables without a location would live (<warehouse>/<levels>/<table>),
  /// as the catalog's own default.
  std::string warehouse;
  /// The format version of staged tables that name none.
  int default_format_version = 2;
  /// Where a staged create's first metadata file is written when the client commits it;
  /// null: such commits answer 501.
  std::shared_ptr<io::s3::StorageFileSystems> file_systems;
  /// Who may call. Null: every route answers 401 (the server fails closed).
  std::shared_ptr<const auth::AuthChain> auth;
  /// Lifetime of the tokens /v1/oauth/tokens issues.
  int64_t token_lifetime_secs = 3600;
};

/// Adds every route of the REST catalog to `listener`. `catalog` is shared with the rest of
/// the process; handlers call it concurrently (Catalog is thread-safe).
void AddIcebergRestRoutes(HttpListener& listener, std::shared_ptr<catalog::Catalog> catalog,
                          IcebergRestOptions options);

/// Adds routes answering every /v1 path with 503 ServiceUnavailableException carrying
/// `why`: the listener of a process whose catalog could not be made.
void AddIcebergRestUnavailableRoutes(HttpListener& listener, Status why);

/// Registers the same routes on a bare router (what AddIcebergRestRoutes does on the
/// listener's); for tests that dispatch requests without a socket.
void AddIcebergRestRoutes(HttpRouter& router, std::shared_ptr<catalog::Catalog> catalog,
                          IcebergRestOptions options);

}  // namespace sqe::server
