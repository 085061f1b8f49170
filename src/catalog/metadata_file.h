#pragma once
/// Reading and writing one metadata.json through the storage file systems, shared by
/// every catalog that keeps metadata files with the table (metastore, hadoop). Reads
/// are bounded (a broken or hostile file fails clearly) and errors name the file; gzip
/// files (Iceberg's write.metadata.compression-codec=gzip, "*.gz.metadata.json") are
/// recognised by their magic and inflated within the same bound. Writes never overwrite
/// (two writers picking one name cannot clobber each other).

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "iceberg/table_metadata.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::catalog {

inline constexpr int64_t kMaxMetadataFileSize = int64_t{256} << 20;

Result<iceberg::TableMetadata> ReadMetadataFile(io::s3::StorageFileSystems& file_systems,
                                                const std::string& location,
                                                int64_t max_size = kMaxMetadataFileSize);

/// Whether a metadata file name says gzip ("*.gz.metadata.json", "*.metadata.json.gz").
bool IsGzipMetadataLocation(std::string_view location);

/// ".gz.metadata.json" when the table's write.metadata.compression-codec is gzip, else
/// ".metadata.json": the suffix the next metadata file of `metadata` gets.
std::string MetadataFileSuffix(const iceberg::TableMetadata& metadata);

/// The bytes of `metadata` as a file at `location` (JSON, gzip-compressed for a gzip name).
Result<std::string> MetadataFileContent(const iceberg::TableMetadata& metadata,
                                        std::string_view location);

/// Writes `content` at `path`; AlreadyExists when it exists and `overwrite` is false.
Status WriteSmallFile(io::s3::StorageFileSystems& file_systems, const std::string& path,
                      const std::string& content, bool overwrite);

}  // namespace sqe::catalog
