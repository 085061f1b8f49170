#pragma once
/// Passwords embedded in URLs ("postgresql://user:pass@host/db", "...?password=pass"):
/// found so they can be registered as secrets, masked so they can be printed.

#include <string>
#include <string_view>
#include <vector>

namespace sqe::config {

/// The passwords in `url`: the userinfo password and any password=/secret= query value.
std::vector<std::string> UrlPasswords(std::string_view url);

/// `url` with each of those passwords replaced by "***".
std::string MaskUrlPasswords(std::string_view url);

}  // namespace sqe::config
