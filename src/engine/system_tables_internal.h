#pragma once
/// The `system` catalog's virtual tables, the ones Trino clients read on connect:
/// `system.jdbc.*` (what the Trino JDBC driver's DatabaseMetaData selects, with Trino's
/// column names and types), `system.metadata.{catalogs,table_comments}` and
/// `system.runtime.{queries,nodes}`. Like information_schema they are computed when a
/// query binds them, from the engine's catalogs and the registered runtime listers
/// (engine/runtime_queries.h).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine_internal.h"
#include "engine/runtime_queries.h"

namespace sqe::engine {

/// The SQL name of the system catalog.
inline constexpr const char* kSystemCatalog = "system";

/// The system catalog's schemas, each with its tables (SHOW SCHEMAS / SHOW TABLES).
const std::vector<std::pair<std::string, std::vector<std::string>>>& SystemCatalogLayout();

/// Rows of `system.<schema>.<table>` for `session`; NotFound naming the tables there
/// when the schema or table does not exist.
Result<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>> SystemCatalogTable(
    Session::Impl& session, const planner::TableName& name);

/// Every registered runtime lister's snapshot (runtime_queries.h) merged.
RuntimeSnapshot ListRuntime(Engine::Impl& engine);

}  // namespace sqe::engine
