#pragma once
/// Iceberg metadata tables: `"<table>$snapshots"`, `$history`, `$manifests`, `$files`,
/// `$partitions`, `$refs` and `$properties`, with the column names and types of Trino's
/// Iceberg connector (committed_at / made_current_at are timestamp(6) with time zone, Trino
/// shows timestamp(3) with time zone). They are computed from the table's metadata (and,
/// for manifests, files and partitions, the current snapshot's manifest list and
/// manifests) when a query binds them, like information_schema.
///
/// Thread safety: stateless functions; callers pass a loaded table.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "columnar/batch.h"
#include "common/result.h"
#include "io/file_system.h"

namespace sqe::engine {

/// A metadata table's schema and rows.
using MetadataTableRows = std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>;

/// The table and metadata table kind of `name` ("orders$files" -> {"orders", "files"}),
/// nullopt when `name` has no '$'.
std::optional<std::pair<std::string, std::string>> SplitMetadataTableName(std::string_view name);

/// The metadata table kinds, in the order error messages list them.
const std::vector<std::string>& MetadataTableKinds();

/// Rows of metadata table `kind` of `table` (files read through `fs`); NotFound naming the
/// kinds that exist when `kind` is not one. `shown` names the table in errors.
Result<MetadataTableRows> IcebergMetadataTable(const catalog::LoadedTable& table,
                                               io::FileSystem& fs, const std::string& kind,
                                               const std::string& shown);

}  // namespace sqe::engine
