#pragma once
/// The first metadata of a new table (CREATE TABLE, a catalog's create-table): a fresh
/// table uuid, schema 0, spec 0, the sort order (id 1, or the unsorted order 0), the
/// last assigned ids, and no snapshot.

#include <cstdint>
#include <map>
#include <string>

#include "common/result.h"
#include "iceberg/table_metadata.h"

namespace sqe::iceberg {

struct NewTableOptions {
  Schema schema;
  PartitionSpec spec;  // default: unpartitioned
  SortOrder sort_order;
  std::string location;  // the table's base location (no trailing '/')
  std::map<std::string, std::string> properties;
  int format_version = 2;
};

/// InvalidArgument for a bad format version, an empty location, or a spec or sort
/// order naming columns the schema lacks.
Result<TableMetadata> NewTableMetadata(const NewTableOptions& options, int64_t now_ms);

/// "00001-<uuid>.metadata.json": the name of metadata file `version` (Java's scheme).
std::string MetadataFileName(int version, const std::string& uuid);

/// The version in a metadata file name written by MetadataFileName (or Hadoop's
/// "v3.metadata.json"); 0 when the name has none.
int MetadataFileVersion(const std::string& location);

}  // namespace sqe::iceberg
