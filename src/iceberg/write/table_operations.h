#pragma once
/// TableOperations: what a write needs from wherever a table lives (ARCHITECTURE.md:
/// the interface catalogs implement for src/iceberg): the current metadata, a commit of
/// requirements + updates that is Conflict when another writer got there first, and the
/// file system of the table's location. Lets src/iceberg write tables without knowing
/// about catalogs.

#include <string>
#include <vector>

#include "common/result.h"
#include "iceberg/table_metadata.h"
#include "iceberg/table_update.h"
#include "io/file_system.h"

namespace sqe::iceberg {

class TableOperations {
 public:
  virtual ~TableOperations();
  /// The current metadata (reloaded, not cached).
  virtual Result<TableMetadata> Refresh() = 0;
  /// Applies `updates` if `requirements` hold: the new metadata, or Conflict.
  virtual Result<TableMetadata> Commit(const std::vector<TableRequirement>& requirements,
                                       const std::vector<TableUpdate>& updates) = 0;
  /// The file system holding the table's data and metadata files.
  virtual io::FileSystem& file_system() = 0;
};

}  // namespace sqe::iceberg
