#include "catalog/table_file_system.h"

#include "io/storage_uri.h"

namespace sqe::catalog {

Result<std::unique_ptr<io::FileSystem>> TableFileSystem(io::s3::StorageFileSystems& file_systems,
                                                        const LoadedTable& table,
                                                        std::shared_ptr<io::IoStats> stats) {
  const std::string& location = table.metadata ? table.metadata->location : table.metadata_location;
  SQE_ASSIGN_OR_RETURN(io::StorageUri uri, io::ParseStorageUri(location));
  if (uri.kind == io::StorageUri::Kind::kLocal || !table.storage_credentials) {
    return file_systems.ForUri(location, std::move(stats));
  }
  return file_systems.ForS3WithCredentials(*table.storage_credentials, std::move(stats));
}

}  // namespace sqe::catalog
