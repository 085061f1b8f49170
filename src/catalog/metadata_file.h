#pragma once
/// Reading and writing one metadata.json through the storage file systems, shared by
/// every catalog that keeps metadata files with the table (metastore, hadoop). Reads
/// are bounded (a broken or hostile file fails clearly) and errors name the file;
/// writes never overwrite (two writers picking one name cannot clobber each other).

#include <cstdint>
#include <string>

#include "common/result.h"
#include "iceberg/table_metadata.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::catalog {

inline constexpr int64_t kMaxMetadataFileSize = int64_t{256} << 20;

Result<iceberg::TableMetadata> ReadMetadataFile(io::s3::StorageFileSystems& file_systems,
                                                const std::string& location,
                                                int64_t max_size = kMaxMetadataFileSize);

/// Writes `content` at `path`; AlreadyExists when it exists and `overwrite` is false.
Status WriteSmallFile(io::s3::StorageFileSystems& file_systems, const std::string& path,
                      const std::string& content, bool overwrite);

}  // namespace sqe::catalog
