#pragma once
/// The client state a Trino client sends with every request (X-Trino-* headers, or the
/// legacy X-Presto-* names): user, catalog, schema, source, time zone, session
/// properties, prepared statements, tags, transaction. Values of the list headers are
/// "name=value" pairs separated by ',', values percent-encoded by the client; the HTTP
/// library (cpp-httplib) has already decoded the %XX escapes of every header value when
/// a handler sees it, so only the '+' of form encoding (prepared statements) is left to
/// undo, and a ',' inside a value cannot be told from a separator. Pure functions.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/http_types.h"

namespace sqe::server::trino {

/// What one request's headers say about the client's session.
struct ClientHeaders {
  std::string user;  ///< X-Trino-User ("" when absent)
  std::optional<std::string> catalog;
  std::optional<std::string> schema;
  std::string source;
  std::string client_info;
  std::vector<std::string> client_tags;
  std::optional<std::string> time_zone;
  std::optional<std::string> transaction_id;
  std::map<std::string, std::string> session_properties;
  std::map<std::string, std::string> prepared_statements;
  /// "X-Presto-" when the client spoke the legacy names, else "X-Trino-": the prefix of
  /// the response headers.
  std::string prefix = "X-Trino-";
};

/// Reads the client headers of `request`.
ClientHeaders ParseClientHeaders(const HttpRequest& request);

/// Percent-encoding of everything but unreserved characters (RFC 3986), for the values of
/// response headers (clients decode them).
std::string PercentEncode(std::string_view text);

/// "a=1,b=x y" -> {{"a","1"},{"b","x y"}} (values as the HTTP layer decoded them); with
/// `plus_is_space`, '+' in values becomes ' ' (form encoding, as clients encode prepared
/// statements). Entries without '=' are skipped.
std::map<std::string, std::string> ParseNameValueList(std::string_view header,
                                                      bool plus_is_space = false);

}  // namespace sqe::server::trino
