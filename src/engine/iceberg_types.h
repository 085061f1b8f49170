#pragma once
/// SQL column types to Iceberg types: what CREATE TABLE, CTAS and ALTER TABLE ADD COLUMN
/// store for a Trino type, with fresh Iceberg field ids for nested fields. The mapping is
/// the Iceberg connector's: boolean; tinyint, smallint, integer -> int; bigint -> long;
/// real -> float; double; decimal(p,s); varchar -> string; varbinary -> binary; date;
/// time(6) -> time; timestamp(6) -> timestamp; timestamp(6) with time zone -> timestamptz;
/// timestamp(9) [with time zone] -> timestamp_ns / timestamptz_ns (format version 3 only);
/// uuid; array / map / row -> list / map / struct. Pure functions, thread-safe.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "columnar/data_type.h"
#include "common/result.h"
#include "iceberg/schema.h"
#include "iceberg/types.h"

namespace sqe::engine {

/// Hands out field ids for the nested fields of a converted type.
using FieldIdSource = std::function<int32_t()>;

/// The Iceberg type of a SQL type. Nested fields get ids from `next_id` in Iceberg's
/// order (a struct's fields first, then their children). InvalidArgument naming `column`
/// for a type Iceberg cannot store (time(9), timestamp(9) before format version 3).
Result<iceberg::TypePtr> ToIcebergType(const columnar::DataType& type, int format_version,
                                       const FieldIdSource& next_id, const std::string& column);

/// One column of a table to create.
struct ColumnSpec {
  std::string name;
  columnar::TypePtr type;
  bool not_null = false;
  std::optional<std::string> comment;
};

/// A new table's schema (id 0): top-level columns get ids 1..N, nested fields the ids
/// after. InvalidArgument for duplicate column names (case-insensitive, as Trino) or an
/// unsupported type.
Result<iceberg::Schema> ToIcebergSchema(const std::vector<ColumnSpec>& columns, int format_version);

}  // namespace sqe::engine
