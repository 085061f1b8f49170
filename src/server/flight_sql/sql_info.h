#pragma once
/// CommandGetSqlInfo's result: one row per requested code, `info_name: uint32 not null`
/// and `value: dense_union<string_value: utf8, bool_value: bool, bigint_value: int64,
/// int32_bitmask: int32, string_list: list<item: utf8>, int32_to_int32_list_map:
/// map<int32, list<int32>>> not null`, as the Flight SQL definition specifies. Our columnar
/// model has neither unsigned integers nor unions, so these two IPC messages are encoded
/// here directly with the Arrow flatbuffer accessors. Pure functions, thread-safe.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "columnar/ipc/stream_writer.h"
#include "common/result.h"

namespace sqe::server::flight_sql {

/// The union members in type-code order (0 string ... 4 string list; the map member 5 is
/// declared but SQE reports no map-valued code yet).
using SqlInfoValue = std::variant<std::string, bool, int64_t, int32_t, std::vector<std::string>>;

struct SqlInfoEntry {
  uint32_t code;
  SqlInfoValue value;
};

/// Numeric codes of the SqlInfo facts SQE reports (the Flight SQL SqlInfo enum).
namespace sql_info_code {
inline constexpr uint32_t kServerName = 0;
inline constexpr uint32_t kServerVersion = 1;
inline constexpr uint32_t kServerArrowVersion = 2;
inline constexpr uint32_t kServerReadOnly = 3;
inline constexpr uint32_t kServerSql = 4;
inline constexpr uint32_t kServerSubstrait = 5;
inline constexpr uint32_t kServerTransaction = 8;
inline constexpr uint32_t kServerCancel = 9;
inline constexpr uint32_t kServerStatementTimeout = 100;
inline constexpr uint32_t kServerTransactionTimeout = 101;
inline constexpr uint32_t kSqlDdlCatalog = 500;
inline constexpr uint32_t kSqlDdlSchema = 501;
inline constexpr uint32_t kSqlDdlTable = 502;
inline constexpr uint32_t kSqlIdentifierCase = 503;
inline constexpr uint32_t kSqlIdentifierQuoteChar = 504;
inline constexpr uint32_t kSqlQuotedIdentifierCase = 505;
inline constexpr uint32_t kSqlAllTablesAreSelectable = 506;
inline constexpr uint32_t kSqlNullOrdering = 507;
inline constexpr uint32_t kSqlKeywords = 508;
inline constexpr uint32_t kSqlSearchStringEscape = 513;
inline constexpr uint32_t kSqlSupportsColumnAliasing = 515;
inline constexpr uint32_t kSqlNullPlusNullIsNull = 516;
inline constexpr uint32_t kSqlSchemaTerm = 529;
inline constexpr uint32_t kSqlCatalogTerm = 531;
inline constexpr uint32_t kSqlCatalogAtStart = 532;
inline constexpr uint32_t kSqlTransactionsSupported = 563;
}  // namespace sql_info_code

/// The facts SQE reports, every known code in ascending order.
std::vector<SqlInfoEntry> SqlInfoFacts(const std::string& server_version);
/// The entries of `facts` whose code is in `codes` (all of them when `codes` is empty),
/// in the order asked for; unknown codes are left out.
std::vector<SqlInfoEntry> SelectSqlInfo(const std::vector<SqlInfoEntry>& facts,
                                        const std::vector<uint32_t>& codes);

/// The result's Schema message.
Result<columnar::ipc::EncodedMessage> SqlInfoSchemaMessage();
/// The RecordBatch message holding `entries`.
Result<columnar::ipc::EncodedMessage> SqlInfoBatchMessage(const std::vector<SqlInfoEntry>& entries);

}  // namespace sqe::server::flight_sql
