#pragma once
/// TableFileSystem: the file system to read and write one loaded table's files with. A
/// table on S3 for which the catalog vended storage credentials (REST access delegation,
/// LoadedTable::storage_credentials) gets an S3 client signing with those credentials, on
/// the operator's [storage] endpoint and region; any other table gets the process's file
/// system for its location.

#include <memory>

#include "catalog/catalog.h"
#include "io/file_system.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::catalog {

Result<std::unique_ptr<io::FileSystem>> TableFileSystem(
    io::s3::StorageFileSystems& file_systems, const LoadedTable& table,
    std::shared_ptr<io::IoStats> stats = nullptr);

}  // namespace sqe::catalog
