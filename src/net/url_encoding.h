#pragma once
/// application/x-www-form-urlencoded text as Java's URLEncoder.encode(s, UTF-8) writes it:
/// ASCII letters, digits and ". - * _" stay, a space becomes '+', every other byte %XX
/// (upper-case hex). Used where the output must match Java's byte for byte: Iceberg's
/// partition paths and Trino's url_encode. (RFC 3986 encoding for requests: UriEncode in
/// net/sigv4.h.) Pure function, thread safe.

#include <string>
#include <string_view>

namespace sqe::net {

std::string FormUrlEncode(std::string_view text);
/// As FormUrlEncode, appended to `out`.
void AppendFormUrlEncoded(std::string_view text, std::string* out);

}  // namespace sqe::net
