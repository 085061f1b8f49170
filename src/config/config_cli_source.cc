// The command line as a Layer: --mode, then each --set section.field=value in order, so a
// later --set wins over an earlier one.

#include <cctype>

#include "config/config_source_internal.h"

namespace sqe::config {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<std::string> SplitSetPath(std::string_view key) {
  std::vector<std::string> segments;
  std::string current;
  bool have_current = false;  // distinguishes "" (quoted empty key) from nothing
  size_t i = 0;
  auto finish = [&]() -> bool {
    if (!have_current) return false;
    segments.push_back(current);
    current.clear();
    have_current = false;
    return true;
  };
  while (i < key.size()) {
    char c = key[i];
    if (c == '.') {
      if (!finish()) return {};
      ++i;
    } else if (c == '"') {
      if (have_current) return {};
      ++i;
      while (i < key.size() && key[i] != '"') {
        if (key[i] == '\\' && i + 1 < key.size()) ++i;
        current += key[i++];
      }
      if (i >= key.size()) return {};  // unterminated quote
      ++i;
      have_current = true;
    } else if (c == '[') {
      if (!finish()) return {};
      size_t close = key.find(']', i);
      if (close == std::string_view::npos || close == i + 1) return {};
      std::string index(key.substr(i + 1, close - i - 1));
      for (char d : index) {
        if (!std::isdigit(static_cast<unsigned char>(d))) return {};
      }
      segments.push_back(index);
      i = close + 1;
      if (i < key.size() && key[i] != '.' && key[i] != '[') return {};
      if (i < key.size() && key[i] == '.') {
        ++i;
        if (i >= key.size()) return {};
      }
    } else {
      current += c;
      have_current = true;
      ++i;
    }
  }
  if (have_current) {
    finish();
  } else if (!key.empty() && key.back() == '.') {
    return {};
  }
  return segments;
}

Layer CliLayer(const LoadOptions& options, DiagnosticList* diagnostics) {
  Layer layer;
  layer.kind = Layer::Kind::kCli;
  layer.name = "the command line";
  if (options.mode.has_value()) {
    LayerEntry entry;
    entry.path = {"coordinator", "mode"};
    entry.value.text = *options.mode;
    entry.origin = "--mode";
    layer.entries.push_back(std::move(entry));
  }
  for (const std::string& arg : options.set_overrides) {
    size_t eq = arg.find('=');
    std::string_view key = Trim(std::string_view(arg).substr(0, eq));
    if (eq == std::string::npos || key.empty()) {
      // Never echo the argument: it may well be "auth.client_secret<secret>".
      diagnostics->Error("",
                         "--set expects section.field=value, e.g. --set "
                         "coordinator.flight_sql_port=50051 (an argument without '=' or "
                         "without a key was given)");
      continue;
    }
    LayerEntry entry;
    entry.path = SplitSetPath(key);
    entry.origin = "--set " + std::string(key);
    if (entry.path.empty()) {
      diagnostics->Error(std::string(key), "--set " + std::string(key) +
                                               ": malformed key (use dotted names, "
                                               "\"quoted\" keys and [N] for entries)");
      continue;
    }
    entry.value.text = arg.substr(eq + 1);
    layer.entries.push_back(std::move(entry));
  }
  return layer;
}

}  // namespace sqe::config
