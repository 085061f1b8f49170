#include "catalog/metadata_location.h"

#include <cctype>
#include <optional>
#include <vector>

#include "iceberg/new_table.h"

namespace sqe::catalog {
namespace {

bool IsMetadataFileName(std::string_view name) {
  return name.ends_with(".metadata.json") || name.ends_with(".metadata.json.gz");
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string Trim(std::string_view s) {
  size_t begin = 0, end = s.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(s[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  return std::string(s.substr(begin, end - begin));
}

// The contents of metadata/version-hint.text; nullopt when the file is absent.
Result<std::optional<std::string>> ReadVersionHint(io::FileSystem& fs, const std::string& path) {
  auto file = fs.OpenForRead(path);
  if (!file.ok()) {
    if (file.status().code() == StatusCode::kNotFound) return std::optional<std::string>();
    return file.status().WithContext("reading " + path);
  }
  SQE_ASSIGN_OR_RETURN(int64_t size, (*file)->Size());
  if (size > 4096) return Status::Corruption(path + " is not a version hint (too large)");
  std::string text(static_cast<size_t>(size), '\0');
  SQE_RETURN_NOT_OK((*file)->ReadAt(0, size, reinterpret_cast<uint8_t*>(text.data())));
  return std::optional<std::string>(Trim(text));
}

}  // namespace

Result<std::string> FindMetadataLocation(io::FileSystem& fs, const std::string& path,
                                         const std::string& version) {
  if (path.empty()) return Status::InvalidArgument("empty table path");
  if (IsMetadataFileName(BaseName(path))) {
    if (!version.empty()) {
      return Status::InvalidArgument("'" + path +
                                     "' is a metadata file: a version applies to a table "
                                     "directory only");
    }
    return path;
  }
  std::string dir = path;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  const std::string metadata_dir = dir + "/metadata/";
  std::optional<std::string> hint;
  if (!version.empty()) {
    hint = Trim(version);
  } else {
    SQE_ASSIGN_OR_RETURN(hint, ReadVersionHint(fs, metadata_dir + "version-hint.text"));
  }
  auto listed = fs.List(metadata_dir);
  std::vector<io::FileInfo> files;
  if (listed.ok()) {
    files = std::move(*listed);
  } else if (listed.status().code() != StatusCode::kNotFound) {
    return listed.status().WithContext("listing " + metadata_dir);
  }
  std::vector<std::string> candidates;
  for (const io::FileInfo& f : files) {
    // Only files directly in metadata/ (List is recursive; a local listing drops file://).
    const std::string_view name = BaseName(f.path);
    const std::string_view parent = std::string_view(f.path).substr(0, f.path.size() - name.size());
    if (parent.ends_with("/metadata/") && IsMetadataFileName(name)) candidates.push_back(f.path);
  }
  if (hint.has_value() && !hint->empty()) {
    // "3" names v3.metadata.json (or any file of version 3); a hint may also hold the
    // file's name without the suffix ("00003-<uuid>").
    const bool numeric =
        hint->size() <= 18 && hint->find_first_not_of("0123456789") == std::string::npos;
    for (const std::string& c : candidates) {
      std::string_view name = BaseName(c);
      if (name == *hint || name == *hint + ".metadata.json" ||
          name == *hint + ".gz.metadata.json" ||
          (numeric && iceberg::MetadataFileVersion(std::string(name)) == std::stoll(*hint))) {
        return c;
      }
    }
    if (version.empty()) {
      return Status::NotFound("table '" + path + "': metadata/version-hint.text names version '" +
                              *hint + "', but there is no such metadata file in " + metadata_dir);
    }
    return Status::NotFound("table '" + path + "': there is no metadata file of version '" + *hint +
                            "' in " + metadata_dir);
  }
  std::string best;
  int64_t best_version = -1;
  for (const std::string& c : candidates) {
    const int64_t v = iceberg::MetadataFileVersion(c);
    if (v > best_version || (v == best_version && c > best)) {
      best_version = v;
      best = c;
    }
  }
  if (best.empty()) {
    return Status::NotFound("no Iceberg table at '" + path +
                            "': neither a *.metadata.json file nor a directory with "
                            "metadata/*.metadata.json");
  }
  return best;
}

}  // namespace sqe::catalog
