#pragma once
/// CommitTableChange: commits a metadata-only change (schema / spec / sort order
/// evolution, properties) through TableOperations. `make` builds the change from the
/// metadata it reads; when another writer commits first (Conflict) the metadata is
/// refreshed and `make` runs again on it, up to the table's commit.retry.num-retries
/// (Iceberg's default 4) more times, with jittered backoff. A change `make` finds empty
/// commits nothing and returns the metadata as it is.

#include <functional>

#include "common/result.h"
#include "iceberg/table_update.h"
#include "iceberg/write/table_operations.h"

namespace sqe::iceberg {

using TableChangeBuilder = std::function<Result<TableChange>(const TableMetadata&)>;

Result<TableMetadata> CommitTableChange(TableOperations& table, const TableChangeBuilder& make);

/// set-properties and remove-properties as one change (asserting nothing: properties merge).
TableChangeBuilder PropertiesChange(std::map<std::string, std::string> set,
                                    std::vector<std::string> remove);

}  // namespace sqe::iceberg
