#include "datagen/tpch_schema.h"

#include <cmath>

#include "columnar/data_type.h"

namespace sqe::datagen {
namespace {

using columnar::Field;

struct ColumnSpec {
  const char* name;
  char kind;  // 'L' bigint, 'I' integer, 'M' decimal(15,2), 'D' date, 'S' varchar
};

std::span<const ColumnSpec> Columns(TpchTable table) {
  static constexpr ColumnSpec kRegion[] = {
      {"r_regionkey", 'I'}, {"r_name", 'S'}, {"r_comment", 'S'}};
  static constexpr ColumnSpec kNation[] = {
      {"n_nationkey", 'I'}, {"n_name", 'S'}, {"n_regionkey", 'I'}, {"n_comment", 'S'}};
  static constexpr ColumnSpec kPart[] = {
      {"p_partkey", 'L'},   {"p_name", 'S'},        {"p_mfgr", 'S'},
      {"p_brand", 'S'},     {"p_type", 'S'},        {"p_size", 'I'},
      {"p_container", 'S'}, {"p_retailprice", 'M'}, {"p_comment", 'S'}};
  static constexpr ColumnSpec kSupplier[] = {
      {"s_suppkey", 'L'}, {"s_name", 'S'},    {"s_address", 'S'}, {"s_nationkey", 'I'},
      {"s_phone", 'S'},   {"s_acctbal", 'M'}, {"s_comment", 'S'}};
  static constexpr ColumnSpec kPartSupp[] = {{"ps_partkey", 'L'},
                                             {"ps_suppkey", 'L'},
                                             {"ps_availqty", 'L'},
                                             {"ps_supplycost", 'M'},
                                             {"ps_comment", 'S'}};
  static constexpr ColumnSpec kCustomer[] = {
      {"c_custkey", 'L'}, {"c_name", 'S'},    {"c_address", 'S'},    {"c_nationkey", 'I'},
      {"c_phone", 'S'},   {"c_acctbal", 'M'}, {"c_mktsegment", 'S'}, {"c_comment", 'S'}};
  static constexpr ColumnSpec kOrders[] = {
      {"o_orderkey", 'L'},   {"o_custkey", 'L'},      {"o_orderstatus", 'S'},
      {"o_totalprice", 'M'}, {"o_orderdate", 'D'},    {"o_orderpriority", 'S'},
      {"o_clerk", 'S'},      {"o_shippriority", 'I'}, {"o_comment", 'S'}};
  static constexpr ColumnSpec kLineitem[] = {
      {"l_orderkey", 'L'},    {"l_partkey", 'L'},       {"l_suppkey", 'L'},  {"l_linenumber", 'L'},
      {"l_quantity", 'M'},    {"l_extendedprice", 'M'}, {"l_discount", 'M'}, {"l_tax", 'M'},
      {"l_returnflag", 'S'},  {"l_linestatus", 'S'},    {"l_shipdate", 'D'}, {"l_commitdate", 'D'},
      {"l_receiptdate", 'D'}, {"l_shipinstruct", 'S'},  {"l_shipmode", 'S'}, {"l_comment", 'S'}};
  switch (table) {
    case TpchTable::kRegion:
      return kRegion;
    case TpchTable::kNation:
      return kNation;
    case TpchTable::kPart:
      return kPart;
    case TpchTable::kSupplier:
      return kSupplier;
    case TpchTable::kPartSupp:
      return kPartSupp;
    case TpchTable::kCustomer:
      return kCustomer;
    case TpchTable::kOrders:
      return kOrders;
    case TpchTable::kLineitem:
      return kLineitem;
  }
  return {};
}

}  // namespace

std::span<const TpchTable> AllTpchTables() {
  static constexpr TpchTable kAll[] = {
      TpchTable::kRegion,   TpchTable::kNation,   TpchTable::kPart,   TpchTable::kSupplier,
      TpchTable::kPartSupp, TpchTable::kCustomer, TpchTable::kOrders, TpchTable::kLineitem};
  return kAll;
}

std::string_view TpchTableName(TpchTable table) {
  switch (table) {
    case TpchTable::kRegion:
      return "region";
    case TpchTable::kNation:
      return "nation";
    case TpchTable::kPart:
      return "part";
    case TpchTable::kSupplier:
      return "supplier";
    case TpchTable::kPartSupp:
      return "partsupp";
    case TpchTable::kCustomer:
      return "customer";
    case TpchTable::kOrders:
      return "orders";
    case TpchTable::kLineitem:
      return "lineitem";
  }
  return "";
}

Result<TpchTable> TpchTableFromName(std::string_view name) {
  std::string names;
  for (TpchTable t : AllTpchTables()) {
    if (TpchTableName(t) == name) return t;
    names += (names.empty() ? "" : ", ") + std::string(TpchTableName(t));
  }
  return Status::InvalidArgument("unknown TPC-H table '" + std::string(name) +
                                 "' (tables: " + names + ")");
}

columnar::SchemaPtr TpchSchema(TpchTable table) {
  std::vector<Field> fields;
  for (const ColumnSpec& c : Columns(table)) {
    columnar::TypePtr type;
    switch (c.kind) {
      case 'L':
        type = columnar::Int64();
        break;
      case 'I':
        type = columnar::Int32();
        break;
      case 'M':
        type = columnar::Decimal(15, 2);
        break;
      case 'D':
        type = columnar::Date32();
        break;
      default:
        type = columnar::String();
        break;
    }
    fields.emplace_back(c.name, std::move(type), /*nullable=*/false);
  }
  return columnar::Schema::Make(std::move(fields));
}

std::string TpchIcebergSchemaJson(TpchTable table) {
  std::string json = R"({"type":"struct","schema-id":0,"fields":[)";
  int id = 1;
  for (const ColumnSpec& c : Columns(table)) {
    const char* type = "string";
    switch (c.kind) {
      case 'L':
        type = "long";
        break;
      case 'I':
        type = "int";
        break;
      case 'M':
        type = "decimal(15, 2)";
        break;
      case 'D':
        type = "date";
        break;
    }
    if (id > 1) json += ",";
    json += R"({"id":)" + std::to_string(id++) + R"(,"name":")" + c.name +
            R"(","required":true,"type":")" + type + "\"}";
  }
  return json + "]}";
}

int64_t TpchUnitCount(TpchTable table, double sf) {
  int64_t base = 0;
  switch (table) {
    case TpchTable::kRegion:
      return 5;
    case TpchTable::kNation:
      return 25;
    case TpchTable::kPart:
      base = 200000;
      break;
    case TpchTable::kSupplier:
      base = 10000;
      break;
    case TpchTable::kPartSupp:
      return 4 * TpchUnitCount(TpchTable::kPart, sf);
    case TpchTable::kCustomer:
      base = 150000;
      break;
    case TpchTable::kOrders:
    case TpchTable::kLineitem:
      base = 1500000;
      break;
  }
  // The epsilon keeps 0.3 x 150000 at 45000 despite binary fractions.
  return std::max<int64_t>(1,
                           static_cast<int64_t>(std::floor(sf * static_cast<double>(base) + 1e-6)));
}

}  // namespace sqe::datagen
