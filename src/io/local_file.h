#pragma once
/// Local-disk files: RandomAccessFile on pread(2) and an OutputStream that writes to a
/// hidden temporary file beside the target and renames it into place on Close, so a
/// crash or an error mid-write never leaves a partial file at the target path.

#include <memory>
#include <string>

#include "io/file.h"

namespace sqe::io {

/// Opens `path` (a bare path or a file:// URI) for reading. NotFound when it does not
/// exist, IOError for other failures; both name the path.
Result<std::unique_ptr<RandomAccessFile>> OpenLocalFile(const std::string& path);

/// Creates (or, with `overwrite`, replaces) `path`; parent directories are created.
/// AlreadyExists when the file exists and `overwrite` is false (checked again at Close).
Result<std::unique_ptr<OutputStream>> CreateLocalFile(const std::string& path,
                                                      bool overwrite = true);

/// `path` without a leading file:// scheme.
std::string LocalPathOf(const std::string& path_or_uri);

}  // namespace sqe::io
