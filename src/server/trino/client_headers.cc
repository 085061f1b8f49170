#include "server/trino/client_headers.h"

#include <algorithm>
#include <cctype>

#include "net/sigv4.h"

namespace sqe::server::trino {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// The header under the Trino name, or else the legacy Presto one; nullopt when neither.
std::optional<std::string> Find(const HttpRequest& request, const std::string& suffix) {
  std::string trino = request.Header("x-trino-" + suffix);
  if (!trino.empty()) return trino;
  std::string presto = request.Header("x-presto-" + suffix);
  if (!presto.empty()) return presto;
  return std::nullopt;
}

std::optional<std::string> FindNonEmpty(const HttpRequest& request, const std::string& suffix) {
  std::optional<std::string> value = Find(request, suffix);
  if (value && Trim(*value).empty()) return std::nullopt;
  if (value) return std::string(Trim(*value));
  return std::nullopt;
}

}  // namespace

std::string PercentEncode(std::string_view text) { return net::UriEncode(text, true); }

namespace {

/// The next ',' of `list` at or after `from` that starts a new entry: one followed by a
/// name and '='. The HTTP layer has already decoded the clients' %2C, so a ',' inside a
/// value (a prepared statement's "SELECT a, b") is told apart by what follows it.
size_t NextEntryComma(std::string_view list, size_t from) {
  for (size_t comma = list.find(',', from); comma != std::string_view::npos;
       comma = list.find(',', comma + 1)) {
    size_t i = comma + 1;
    while (i < list.size() && list[i] == ' ') ++i;
    size_t name_start = i;
    while (i < list.size() && (std::isalnum(static_cast<unsigned char>(list[i])) ||
                               list[i] == '_' || list[i] == '-' || list[i] == '.')) {
      ++i;
    }
    if (i > name_start && i < list.size() && list[i] == '=') return comma;
  }
  return std::string_view::npos;
}

}  // namespace

std::map<std::string, std::string> ParseNameValueList(std::string_view header, bool plus_is_space) {
  std::map<std::string, std::string> out;
  while (!header.empty()) {
    size_t comma = NextEntryComma(header, 0);
    std::string_view entry = Trim(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view name = Trim(entry.substr(0, eq));
    if (name.empty()) continue;
    std::string value(Trim(entry.substr(eq + 1)));
    if (plus_is_space) std::replace(value.begin(), value.end(), '+', ' ');
    out[std::string(name)] = std::move(value);
  }
  return out;
}

ClientHeaders ParseClientHeaders(const HttpRequest& request) {
  ClientHeaders h;
  if (request.Header("x-trino-user").empty() && !request.Header("x-presto-user").empty()) {
    h.prefix = "X-Presto-";
  }
  h.user = FindNonEmpty(request, "user").value_or("");
  h.catalog = FindNonEmpty(request, "catalog");
  h.schema = FindNonEmpty(request, "schema");
  h.source = FindNonEmpty(request, "source").value_or("");
  h.client_info = FindNonEmpty(request, "client-info").value_or("");
  h.time_zone = FindNonEmpty(request, "time-zone");
  h.transaction_id = FindNonEmpty(request, "transaction-id");
  if (auto tags = FindNonEmpty(request, "client-tags")) {
    std::string_view rest = *tags;
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      std::string_view tag = Trim(rest.substr(0, comma));
      if (!tag.empty()) h.client_tags.emplace_back(tag);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  if (auto session = Find(request, "session")) h.session_properties = ParseNameValueList(*session);
  if (auto prepared = Find(request, "prepared-statement")) {
    h.prepared_statements = ParseNameValueList(*prepared, /*plus_is_space=*/true);
  }
  return h;
}

}  // namespace sqe::server::trino
