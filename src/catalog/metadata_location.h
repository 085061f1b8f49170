#pragma once
/// FindMetadataLocation: the metadata file a path names, for reading an Iceberg table
/// without a catalog (the iceberg_scan table function). A path ending in
/// ".metadata.json" (or a gzip variant) is taken as the file itself; any other path is a
/// table directory, whose metadata/version-hint.text names the current version when it
/// exists (Hadoop tables: "3" means metadata/v3.metadata.json), and otherwise the
/// metadata/*.metadata.json file with the highest version number ("v3.metadata.json",
/// "00003-<uuid>.metadata.json") is the current one.

#include <string>
#include <string_view>

#include "common/result.h"
#include "io/file_system.h"

namespace sqe::catalog {

/// The metadata file of `path` (see above). A non-empty `version` stands in for the
/// version hint (a number, or a file name without ".metadata.json"); InvalidArgument
/// when `path` is a metadata file itself. NotFound naming `path` when a directory has
/// neither a usable version nor metadata files.
Result<std::string> FindMetadataLocation(io::FileSystem& fs, const std::string& path,
                                         const std::string& version = "");

}  // namespace sqe::catalog
