#pragma once
/// The result of Flight SQL's CommandGetXdbcTypeInfo: one row per SQL type SQE knows, with
/// the JDBC type codes of java.sql.Types (what the Flight SQL JDBC driver reports from
/// DatabaseMetaData.getTypeInfo), in the column layout the Flight SQL definition gives,
/// ordered by data_type then type_name. Pure functions, thread-safe.

#include <cstdint>
#include <optional>

#include "columnar/batch.h"
#include "common/result.h"

namespace sqe::server::flight_sql {

/// The result schema (type_name utf8 not null, data_type int32 not null, ...,
/// create_params list<utf8 not null>, ..., interval_precision int32).
columnar::SchemaPtr XdbcTypeInfoSchema();

/// The rows, all of them or only those whose data_type is `data_type`.
Result<columnar::Batch> XdbcTypeInfo(std::optional<int32_t> data_type);

}  // namespace sqe::server::flight_sql
