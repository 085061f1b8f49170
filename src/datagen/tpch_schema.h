#pragma once
/// The eight TPC-H tables (specification clause 1.4): names, column types and row counts
/// per scale factor. Column types follow DuckDB's dbgen, so results compare one to one:
/// keys BIGINT (nation and region keys, sizes and priorities INTEGER), money and
/// quantities DECIMAL(15,2), dates DATE, text VARCHAR; every column NOT NULL.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "columnar/schema.h"
#include "common/result.h"

namespace sqe::datagen {

enum class TpchTable {
  kRegion,
  kNation,
  kPart,
  kSupplier,
  kPartSupp,
  kCustomer,
  kOrders,
  kLineitem
};

/// Every table, in load order (small ones first).
std::span<const TpchTable> AllTpchTables();
/// "region", "nation", ..., "lineitem".
std::string_view TpchTableName(TpchTable table);
/// InvalidArgument naming the tables for an unknown name.
Result<TpchTable> TpchTableFromName(std::string_view name);
/// The table's columns (no field ids).
columnar::SchemaPtr TpchSchema(TpchTable table);
/// The table's Iceberg schema as JSON (Appendix C), field ids 1..n in column order, every
/// field required.
std::string TpchIcebergSchemaJson(TpchTable table);

/// Rows of the scaled tables at scale factor `sf`: SF x base, at least 1 (nation and
/// region are fixed). For lineitem, whose rows per order are random (1..7), this is the
/// number of orders: a generator's "units" for lineitem are orders.
int64_t TpchUnitCount(TpchTable table, double sf);

}  // namespace sqe::datagen
