// Applying one source (Layer) over the configuration built so far, through the schema.

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "config/config_merge_internal.h"

namespace sqe::config {
namespace {

// A mounted secret is a few bytes; anything this large is the wrong file.
constexpr std::uintmax_t kMaxSecretFileBytes = 1 << 20;

std::string ResolveAgainst(const std::string& base_dir, const std::string& value) {
  if (value.empty() || base_dir.empty()) return value;
  std::filesystem::path p(value);
  if (p.is_absolute()) return value;
  return (std::filesystem::path(base_dir) / p).lexically_normal().string();
}

/// Reads a *_file secret; the error names the path and the reason, never the contents.
Result<std::string> ReadSecretFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::InvalidArgument("'" + path + "' is a directory");
  }
  auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxSecretFileBytes) {
    return Status::InvalidArgument("'" + path + "' is larger than 1MB, not a secret file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::InvalidArgument("cannot read '" + path + "': " + std::strerror(errno));
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string value = buffer.str();
  if (value.size() >= 2 && value.compare(value.size() - 2, 2, "\r\n") == 0) {
    value.resize(value.size() - 2);
  } else if (!value.empty() && value.back() == '\n') {
    value.pop_back();
  }
  return value;
}

std::string PathErrorMessage(const Layer& layer, const LayerEntry& entry, const PathError& e) {
  std::string msg =
      e.problem == "unknown key" ? "unknown key '" + e.path + "'" : "'" + e.path + "' " + e.problem;
  msg += " (" + entry.origin + ")";
  if (!e.suggestion.empty()) {
    msg += layer.kind == Layer::Kind::kEnv ? "; did you mean " + e.suggestion_env + "?"
                                           : "; did you mean '" + e.suggestion + "'?";
  } else if (!e.accepted.empty()) {
    msg += "; accepted keys here: ";
    for (size_t i = 0; i < e.accepted.size(); ++i) msg += (i ? ", " : "") + e.accepted[i];
  }
  return msg;
}

bool IsEmptyArray(const RawValue& raw) {
  if (raw.kind == RawValue::Kind::kArray) return raw.items.empty();
  if (raw.kind == RawValue::Kind::kText) {
    std::string compact;
    for (char c : raw.text) {
      if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    }
    return compact == "[]";
  }
  return false;
}

}  // namespace

void FieldOrigins::Record(const std::string& path, std::vector<std::string> segments,
                          std::string origin) {
  entries_[path] = Entry{std::move(segments), std::move(origin)};
}

void FieldOrigins::ForgetUnder(const std::string& prefix) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->first.rfind(prefix, 0) == 0) {
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
}

std::string FieldOrigins::OriginOf(std::string_view path) const {
  auto it = entries_.find(path);
  return it == entries_.end() ? "" : it->second.origin;
}

void ApplyLayer(const Layer& layer, Config* config, FieldOrigins* origins,
                DiagnosticList* diagnostics) {
  const bool from_file = layer.kind == Layer::Kind::kFile;
  std::set<std::string> direct_secrets;
  std::set<std::string> file_secrets;

  for (const LayerEntry& entry : layer.entries) {
    auto resolved_or = ResolvePath(*config, entry.path, /*create=*/true);
    if (const PathError* error = std::get_if<PathError>(&resolved_or)) {
      diagnostics->Error(error->path, PathErrorMessage(layer, entry, *error));
      continue;
    }
    const ResolvedPath& r = std::get<ResolvedPath>(resolved_or);
    auto type_error = [&](const std::string& field, const Status& st) {
      diagnostics->Error(field, field + ": " + st.message() + " (" + entry.origin + ")");
    };

    switch (r.target) {
      case ResolvedPath::Target::kField: {
        RawValue value = entry.value;
        if (from_file && r.node->relative_path && value.kind == RawValue::Kind::kString) {
          value.text = ResolveAgainst(layer.base_dir, value.text);
        }
        Status st = AssignRaw(r.node->type, r.node->field(r.owner), value);
        if (!st.ok()) {
          type_error(r.path, st);
          break;
        }
        origins->Record(r.path, entry.path, entry.origin);
        if (r.node->type == FieldType::kSecret) direct_secrets.insert(r.path);
        break;
      }
      case ResolvedPath::Target::kSecretFile: {
        const std::string file_field = r.path + "_file";
        if (entry.value.kind != RawValue::Kind::kText &&
            entry.value.kind != RawValue::Kind::kString) {
          type_error(file_field, Status::InvalidArgument("expected a file path (string), got " +
                                                         DescribeRaw(entry.value)));
          break;
        }
        std::string path = entry.value.text;
        if (from_file) path = ResolveAgainst(layer.base_dir, path);
        if (path.empty()) {
          type_error(file_field, Status::InvalidArgument("expected a file path, got \"\""));
          break;
        }
        auto secret = ReadSecretFile(path);
        if (!secret.ok()) {
          diagnostics->Error(file_field, file_field + ": cannot load the secret " + r.path +
                                             " from a file: " + secret.status().message() + " (" +
                                             entry.origin + ")");
          break;
        }
        *std::get<SecretString*>(r.node->field(r.owner)) = SecretString(std::move(*secret));
        origins->Record(r.path, entry.path, entry.origin);
        file_secrets.insert(r.path);
        break;
      }
      case ResolvedPath::Target::kContainer:
      case ResolvedPath::Target::kArrayEntry: {
        if (entry.value.kind == RawValue::Kind::kTable) break;  // an empty [section]
        if (r.target == ResolvedPath::Target::kContainer && r.node->kind == NodeKind::kTableArray &&
            IsEmptyArray(entry.value)) {
          r.node->array_clear(r.owner);
          origins->ForgetUnder(r.path + "[");
          origins->Record(r.path, entry.path, entry.origin);
          break;
        }
        std::string expected =
            r.node->kind == NodeKind::kTableArray && r.target == ResolvedPath::Target::kContainer
                ? "an array of tables ([[" + r.path + "]])"
                : "a table ([" + r.path + "])";
        diagnostics->Error(r.path, "'" + r.path + "' is a section: expected " + expected +
                                       ", got " + DescribeRaw(entry.value) + " (" + entry.origin +
                                       "); set its fields instead, e.g. " + r.path + ".<field>");
        break;
      }
      case ResolvedPath::Target::kMapEntry: {
        std::optional<ValueRef> ref = r.node->map_entry(r.owner, r.key, true);
        Status st = AssignRaw(r.node->type, *ref, entry.value);
        if (!st.ok()) {
          type_error(r.path, st);
          break;
        }
        origins->Record(r.path, entry.path, entry.origin);
        break;
      }
    }
  }

  for (const std::string& path : direct_secrets) {
    if (file_secrets.count(path) != 0) {
      diagnostics->Error(path, path + " and " + path + "_file are both set in " + layer.name +
                                   "; set only one of them");
    }
  }
}

}  // namespace sqe::config
