#include "server/flight_sql/sql_info.h"

#include <algorithm>
#include <cstring>

#include "server/flight_sql/ipc_fields_internal.h"

namespace sqe::server::flight_sql {
namespace fb = ipc_fields::fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
using ipc_fields::FinishMessage;
using ipc_fields::IntField;
using ipc_fields::MakeField;
using ipc_fields::Utf8Field;

namespace {

constexpr int kMemberCount = 6;  // union members, the map included

Offset<fb::Schema> BuildSchema(FlatBufferBuilder& fbb) {
  std::vector<Offset<fb::Field>> members;
  members.push_back(Utf8Field(fbb, "string_value", true));
  members.push_back(MakeField(fbb, "bool_value", true, fb::Type_Bool, fb::CreateBool(fbb).Union()));
  members.push_back(IntField(fbb, "bigint_value", 64, true, true));
  members.push_back(IntField(fbb, "int32_bitmask", 32, true, true));
  members.push_back(MakeField(fbb, "string_list", true, fb::Type_List, fb::CreateList(fbb).Union(),
                              {Utf8Field(fbb, "item", true)}));
  auto int_list = MakeField(fbb, "value", true, fb::Type_List, fb::CreateList(fbb).Union(),
                            {IntField(fbb, "item", 32, true, true)});
  auto entries = MakeField(fbb, "entries", false, fb::Type_Struct_, fb::CreateStruct_(fbb).Union(),
                           {IntField(fbb, "key", 32, true, false), int_list});
  members.push_back(MakeField(fbb, "int32_to_int32_list_map", true, fb::Type_Map,
                              fb::CreateMap(fbb, false).Union(), {entries}));
  std::vector<int32_t> type_ids;
  for (int i = 0; i < kMemberCount; ++i) type_ids.push_back(i);
  auto union_type = fb::CreateUnion(fbb, fb::UnionMode_Dense, fbb.CreateVector(type_ids));
  std::vector<Offset<fb::Field>> fields;
  fields.push_back(IntField(fbb, "info_name", 32, false, false));
  fields.push_back(MakeField(fbb, "value", false, fb::Type_Union, union_type.Union(), members));
  return fb::CreateSchema(fbb, fb::Endianness_Little, fbb.CreateVector(fields));
}

/// The body of a record batch: buffers appended at 8-aligned offsets, with their nodes.
class Body {
 public:
  void Node(int64_t length) { nodes_.emplace_back(length, 0); }
  template <typename T>
  void Values(const std::vector<T>& values) {
    Append(values.data(), values.size() * sizeof(T));
  }
  void Bytes(const std::string& bytes) { Append(bytes.data(), bytes.size()); }
  void Empty() { Append(nullptr, 0); }  // a validity bitmap of a column without nulls

  const std::vector<fb::FieldNode>& nodes() const { return nodes_; }
  const std::vector<fb::Buffer>& buffers() const { return buffers_; }
  std::string& bytes() { return bytes_; }

 private:
  void Append(const void* data, size_t size) {
    buffers_.emplace_back(static_cast<int64_t>(bytes_.size()), static_cast<int64_t>(size));
    if (size > 0) bytes_.append(static_cast<const char*>(data), size);
    bytes_.resize((bytes_.size() + 7) / 8 * 8, '\0');
  }
  std::vector<fb::FieldNode> nodes_;
  std::vector<fb::Buffer> buffers_;
  std::string bytes_;
};

/// A utf8 column of `values` (no nulls): offsets then data.
void StringColumn(Body& body, const std::vector<std::string>& values) {
  body.Node(static_cast<int64_t>(values.size()));
  body.Empty();
  std::vector<int32_t> offsets = {0};
  std::string data;
  for (const std::string& v : values) {
    data += v;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  body.Values(offsets);
  body.Bytes(data);
}

}  // namespace

std::vector<SqlInfoEntry> SqlInfoFacts(const std::string& server_version) {
  namespace c = sql_info_code;
  std::vector<std::string> keywords = {
      "ANALYZE",   "CALL",    "CATALOGS", "COLUMNS", "DEALLOCATE", "DESCRIBE", "EXECUTE", "EXPLAIN",
      "FUNCTIONS", "IF",      "ILIKE",    "LIMIT",   "OFFSET",     "PREPARE",  "QUALIFY", "RESET",
      "SCHEMAS",   "SESSION", "SHOW",     "TABLES",  "TRY_CAST",   "UNNEST",   "USE"};
  return {
      {c::kServerName, std::string("SQE")},
      {c::kServerVersion, server_version},
      {c::kServerArrowVersion, std::string("1.5.0")},
      {c::kServerReadOnly, false},
      {c::kServerSql, true},
      {c::kServerSubstrait, false},
      // SqlSupportedTransaction NONE: no BeginTransaction / EndTransaction.
      {c::kServerTransaction, int32_t{0}},
      {c::kServerCancel, true},
      {c::kServerStatementTimeout, int32_t{0}},
      {c::kServerTransactionTimeout, int32_t{0}},
      {c::kSqlDdlCatalog, false},
      {c::kSqlDdlSchema, true},
      {c::kSqlDdlTable, true},
      // SqlSupportedCaseSensitivity: unquoted names fold to lower case (3 = LOWERCASE).
      {c::kSqlIdentifierCase, int32_t{3}},
      {c::kSqlIdentifierQuoteChar, std::string("\"")},
      {c::kSqlQuotedIdentifierCase, int32_t{1}},  // CASE_INSENSITIVE, as in Trino
      {c::kSqlAllTablesAreSelectable, true},
      // SqlNullOrdering 3 = NULLS_SORTED_AT_END: NULLs last in either direction (Trino's).
      {c::kSqlNullOrdering, int32_t{3}},
      {c::kSqlKeywords, keywords},
      {c::kSqlSearchStringEscape, std::string("\\")},
      {c::kSqlSupportsColumnAliasing, true},
      {c::kSqlNullPlusNullIsNull, true},
      {c::kSqlSchemaTerm, std::string("schema")},
      {c::kSqlCatalogTerm, std::string("catalog")},
      {c::kSqlCatalogAtStart, true},
      {c::kSqlTransactionsSupported, false},
  };
}

std::vector<SqlInfoEntry> SelectSqlInfo(const std::vector<SqlInfoEntry>& facts,
                                        const std::vector<uint32_t>& codes) {
  if (codes.empty()) return facts;
  std::vector<SqlInfoEntry> out;
  for (uint32_t code : codes) {
    auto it = std::find_if(facts.begin(), facts.end(),
                           [&](const SqlInfoEntry& e) { return e.code == code; });
    if (it != facts.end()) out.push_back(*it);
  }
  return out;
}

Result<columnar::ipc::EncodedMessage> SqlInfoSchemaMessage() {
  FlatBufferBuilder fbb;
  auto schema = BuildSchema(fbb);
  return columnar::ipc::EncodedMessage{
      FinishMessage(fbb, fb::MessageHeader_Schema, schema.Union(), 0), ""};
}

Result<columnar::ipc::EncodedMessage> SqlInfoBatchMessage(
    const std::vector<SqlInfoEntry>& entries) {
  const int64_t rows = static_cast<int64_t>(entries.size());
  std::vector<uint32_t> codes;
  std::vector<int8_t> type_ids;
  std::vector<int32_t> offsets;
  std::vector<std::string> strings;
  std::vector<bool> bools;
  std::vector<int64_t> bigints;
  std::vector<int32_t> bitmasks;
  std::vector<std::vector<std::string>> lists;
  for (const SqlInfoEntry& e : entries) {
    codes.push_back(e.code);
    type_ids.push_back(static_cast<int8_t>(e.value.index()));
    switch (e.value.index()) {
      case 0:
        offsets.push_back(static_cast<int32_t>(strings.size()));
        strings.push_back(std::get<0>(e.value));
        break;
      case 1:
        offsets.push_back(static_cast<int32_t>(bools.size()));
        bools.push_back(std::get<1>(e.value));
        break;
      case 2:
        offsets.push_back(static_cast<int32_t>(bigints.size()));
        bigints.push_back(std::get<2>(e.value));
        break;
      case 3:
        offsets.push_back(static_cast<int32_t>(bitmasks.size()));
        bitmasks.push_back(std::get<3>(e.value));
        break;
      default:
        offsets.push_back(static_cast<int32_t>(lists.size()));
        lists.push_back(std::get<4>(e.value));
        break;
    }
  }
  Body body;
  body.Node(rows);  // info_name
  body.Empty();
  body.Values(codes);
  body.Node(rows);  // value: a dense union has no validity bitmap
  body.Values(type_ids);
  body.Values(offsets);
  StringColumn(body, strings);
  body.Node(static_cast<int64_t>(bools.size()));  // bool_value
  body.Empty();
  std::vector<uint8_t> bits((bools.size() + 7) / 8, 0);
  for (size_t i = 0; i < bools.size(); ++i) {
    if (bools[i]) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  body.Values(bits);
  body.Node(static_cast<int64_t>(bigints.size()));
  body.Empty();
  body.Values(bigints);
  body.Node(static_cast<int64_t>(bitmasks.size()));
  body.Empty();
  body.Values(bitmasks);
  body.Node(static_cast<int64_t>(lists.size()));  // string_list
  body.Empty();
  std::vector<int32_t> list_offsets = {0};
  std::vector<std::string> items;
  for (const auto& list : lists) {
    items.insert(items.end(), list.begin(), list.end());
    list_offsets.push_back(static_cast<int32_t>(items.size()));
  }
  body.Values(list_offsets);
  StringColumn(body, items);
  const std::vector<int32_t> no_entries = {0};
  body.Node(0);  // the map: no rows use it
  body.Empty();
  body.Values(no_entries);
  body.Node(0);  // entries
  body.Empty();
  body.Node(0);  // key
  body.Empty();
  body.Empty();
  body.Node(0);  // value list
  body.Empty();
  body.Values(no_entries);
  body.Node(0);  // item
  body.Empty();
  body.Empty();

  FlatBufferBuilder fbb;
  auto nodes = fbb.CreateVectorOfStructs(body.nodes());
  auto buffers = fbb.CreateVectorOfStructs(body.buffers());
  auto batch = fb::CreateRecordBatch(fbb, rows, nodes, buffers);
  int64_t body_length = static_cast<int64_t>(body.bytes().size());
  std::string metadata =
      FinishMessage(fbb, fb::MessageHeader_RecordBatch, batch.Union(), body_length);
  return columnar::ipc::EncodedMessage{std::move(metadata), std::move(body.bytes())};
}

}  // namespace sqe::server::flight_sql
