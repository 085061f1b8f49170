#pragma once
/// QueryString: "?name=value&..." with names and values percent-encoded as SigV4 (and the
/// REST catalog protocol) expect; "" for no parameters.

#include <string>
#include <utility>
#include <vector>

namespace sqe::net {

std::string QueryString(const std::vector<std::pair<std::string, std::string>>& query);

}  // namespace sqe::net
