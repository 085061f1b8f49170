// Rules about what the process binds: port ranges, clashes between the listeners of the
// mode, TLS files, and the address a worker advertises.

#include <filesystem>
#include <fstream>

#include "config/config_validation_internal.h"

namespace sqe::config {
namespace {

constexpr int kMaxPort = 65535;

bool IsFile(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec) && !std::filesystem::is_directory(path, ec);
}

bool IsReadable(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return in.good();
}

/// The host of "scheme://host:port/path" (brackets of an IPv6 literal kept).
std::string UrlHost(const std::string& url) {
  size_t start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  size_t at = url.find('@', start);
  size_t slash = url.find('/', start);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) start = at + 1;
  if (start < url.size() && url[start] == '[') {
    size_t close = url.find(']', start);
    return url.substr(start, close == std::string::npos ? std::string::npos : close - start + 1);
  }
  size_t end = url.find_first_of(":/?#", start);
  return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

void CheckPortRanges(ValidationContext& ctx) {
  WalkFields(ctx.walkable_config(), [&](const FieldVisit& v) {
    if (v.node->type != FieldType::kPort) return;
    int port = *std::get<int*>(v.value);
    if (port == 0 && v.node->zero_disables) return;
    if (port >= 1 && port <= kMaxPort) return;
    ctx.Error(v.path, v.path + ": port must be between 1 and 65535" +
                          std::string(v.node->zero_disables ? " (or 0 to disable)" : "") +
                          ", got " + std::to_string(port) + ctx.SetBy(v.path));
  });
}

void CheckListenerClashes(ValidationContext& ctx) {
  std::vector<ListenerSpec> listeners = PlannedListeners(ctx.config());
  for (size_t j = 0; j < listeners.size(); ++j) {
    for (size_t i = 0; i < j; ++i) {
      const ListenerSpec& a = listeners[i];
      const ListenerSpec& b = listeners[j];
      if (a.port != b.port || a.port > kMaxPort) continue;
      ctx.Error(b.field, b.field + " = " + std::to_string(b.port) + " clashes with " + a.field +
                             " = " + std::to_string(a.port) + ": the " + a.name + " and " + b.name +
                             " listeners of " + ctx.config().coordinator.mode +
                             " mode cannot share a port");
      break;
    }
  }
}

void CheckTls(ValidationContext& ctx) {
  const TlsConfig& tls = ctx.config().coordinator.tls;
  const bool cert = !tls.cert_file.empty();
  const bool key = !tls.key_file.empty();
  if (cert && !key) {
    ctx.Error("coordinator.tls.key_file",
              "coordinator.tls.key_file must be set when coordinator.tls.cert_file is (TLS "
              "needs both the certificate and its private key, or neither)");
  } else if (key && !cert) {
    ctx.Error("coordinator.tls.cert_file",
              "coordinator.tls.cert_file must be set when coordinator.tls.key_file is (TLS "
              "needs both the certificate and its private key, or neither)");
  }
  auto must_exist = [&](const char* field, const std::string& path) {
    if (path.empty()) return;
    if (!IsFile(path)) {
      ctx.Error(field,
                std::string(field) + ": file '" + path + "' does not exist" + ctx.SetBy(field));
    } else if (!IsReadable(path)) {
      ctx.Error(field, std::string(field) + ": file '" + path +
                           "' cannot be read by this process (check its permissions)" +
                           ctx.SetBy(field));
    }
  };
  must_exist("coordinator.tls.cert_file", tls.cert_file);
  must_exist("coordinator.tls.key_file", tls.key_file);
  must_exist("coordinator.tls.ca_file", tls.ca_file);
  if (!tls.ca_file.empty() && !(cert && key)) {
    ctx.Error("coordinator.tls.ca_file",
              "coordinator.tls.ca_file enables mTLS, which needs coordinator.tls.cert_file and "
              "coordinator.tls.key_file to be set too");
  }
}

void CheckAdvertiseUrl(ValidationContext& ctx) {
  const std::string& url = ctx.config().worker.advertise_url;
  if (url.empty()) return;
  std::string host = UrlHost(url);
  if (host == "0.0.0.0" || host == "[::]" || host == "::" || host.empty()) {
    ctx.Error("worker.advertise_url",
              "worker.advertise_url: '" + url + "' advertises " +
                  (host.empty() ? std::string("no host") : "the wildcard address " + host) +
                  ", which the coordinator rejects; use an address the coordinator can reach, "
                  "or leave it empty to auto-derive one");
  }
}

}  // namespace sqe::config
