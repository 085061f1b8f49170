// The system catalog (system_tables.cc) through Session::Execute: the JDBC tables' rows and
// Trino's column types, LIKE ... ESCAPE filters as the JDBC driver writes them, the empty
// tables, table comments, and system.runtime.* fed by registered listers.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "columnar/json_value_encoding.h"
#include "engine/runtime_queries.h"
#include "engine/testing_engine.h"

namespace sqe::engine {
namespace {

class SystemTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDirectory("sqe-system-tables-test-");
    auto engine = testing::OpenTestEngine(dir_);
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    engine_ = *engine;
    session_ = engine_->NewSession("tester");
    Rows("CREATE SCHEMA shop");
    Rows(
        "CREATE TABLE shop.items (id bigint, name varchar, price decimal(10,2), at "
        "timestamp(6), ok boolean) WITH (comment = 'what we sell')");
  }
  void TearDown() override {
    session_.reset();
    engine_.reset();
    std::filesystem::remove_all(dir_);
  }

  /// Every row as one JSON array text per row.
  std::vector<std::string> Rows(const std::string& sql) {
    auto r = session_->Execute(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().message();
    std::vector<std::string> rows;
    if (!r.ok()) return rows;
    for (const columnar::Batch& b : r->batches) {
      for (int64_t i = 0; i < b.num_rows(); ++i) {
        std::string row;
        EXPECT_TRUE(columnar::AppendJsonRowArray(b, i, &row).ok());
        rows.push_back(row);
      }
    }
    return rows;
  }
  /// "name type, ..." of a query's result columns.
  std::string Columns(const std::string& sql) {
    auto r = session_->Execute(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().message();
    std::string out;
    if (!r.ok()) return out;
    for (const columnar::Field& f : r->schema->fields()) {
      out += (out.empty() ? "" : ", ") + f.name() + " " + f.type()->ToString();
    }
    return out;
  }

  std::filesystem::path dir_;
  std::shared_ptr<Engine> engine_;
  std::unique_ptr<Session> session_;
};

TEST_F(SystemTablesTest, JdbcCatalogsSchemasAndTables) {
  EXPECT_EQ(Rows("SELECT table_cat FROM system.jdbc.catalogs ORDER BY table_cat"),
            (std::vector<std::string>{R"j(["iceberg"])j", R"j(["system"])j"}));
  EXPECT_EQ(Rows("SELECT table_schem, table_catalog FROM system.jdbc.schemas "
                 "WHERE table_catalog = 'iceberg' ORDER BY table_schem"),
            (std::vector<std::string>{R"j(["information_schema","iceberg"])j",
                                      R"j(["shop","iceberg"])j"}));
  // The driver's getTables(catalog, "sh_p", "%", {"TABLE"}).
  EXPECT_EQ(Rows("SELECT TABLE_CAT, TABLE_SCHEM, TABLE_NAME, TABLE_TYPE, REMARKS, TYPE_CAT "
                 "FROM system.jdbc.tables WHERE TABLE_CAT = 'iceberg' AND TABLE_SCHEM LIKE "
                 "'sh\\_p' ESCAPE '\\' AND TABLE_NAME LIKE '%' ESCAPE '\\' AND TABLE_TYPE IN "
                 "('TABLE')"),
            (std::vector<std::string>{}));
  EXPECT_EQ(
      Rows("SELECT TABLE_CAT, TABLE_SCHEM, TABLE_NAME, TABLE_TYPE, REMARKS, TYPE_CAT "
           "FROM system.jdbc.tables WHERE TABLE_CAT = 'iceberg' AND TABLE_SCHEM LIKE "
           "'sh_p' ESCAPE '\\' AND TABLE_TYPE IN ('TABLE')"),
      (std::vector<std::string>{R"j(["iceberg","shop","items","TABLE","what we sell",null])j"}));
  EXPECT_EQ(Rows("SELECT table_type FROM system.jdbc.table_types ORDER BY 1"),
            (std::vector<std::string>{R"j(["TABLE"])j", R"j(["VIEW"])j"}));
}

TEST_F(SystemTablesTest, JdbcColumnsDescribeEachTypeAsTheDriverExpects) {
  EXPECT_EQ(Rows("SELECT column_name, data_type, type_name, column_size, decimal_digits, "
                 "num_prec_radix, char_octet_length, ordinal_position, nullable "
                 "FROM system.jdbc.columns WHERE table_schem = 'shop' AND table_name = 'items' "
                 "ORDER BY ordinal_position"),
            (std::vector<std::string>{
                R"j(["id",-5,"bigint",19,null,10,null,1,2])j",
                R"j(["name",12,"varchar",2147483647,null,null,2147483647,2,2])j",
                R"j(["price",3,"decimal(10,2)",10,2,10,null,3,2])j",
                R"j(["at",93,"timestamp(6)",28,6,null,null,4,2])j",
                R"j(["ok",16,"boolean",null,null,null,null,5,2])j",
            }));
  EXPECT_EQ(Columns("SELECT * FROM system.jdbc.columns LIMIT 0"),
            "table_cat varchar, table_schem varchar, table_name varchar, column_name varchar, "
            "data_type bigint, type_name varchar, column_size bigint, buffer_length bigint, "
            "decimal_digits bigint, num_prec_radix bigint, nullable bigint, remarks varchar, "
            "column_def varchar, sql_data_type bigint, sql_datetime_sub bigint, "
            "char_octet_length bigint, ordinal_position bigint, is_nullable varchar, "
            "scope_catalog varchar, scope_schema varchar, scope_table varchar, "
            "source_data_type bigint, is_autoincrement varchar, is_generatedcolumn varchar");
  // The system tables describe themselves too (without computing their own rows).
  EXPECT_EQ(Rows("SELECT count(*) FROM system.jdbc.columns WHERE table_cat = 'system' AND "
                 "table_name = 'columns'"),
            (std::vector<std::string>{"[24]"}));
}

TEST_F(SystemTablesTest, TypesEmptyTablesAndComments) {
  EXPECT_EQ(Rows("SELECT type_name, data_type, precision, num_prec_radix, case_sensitive "
                 "FROM system.jdbc.types WHERE type_name IN ('bigint', 'array', 'decimal') "
                 "ORDER BY type_name"),
            (std::vector<std::string>{R"j(["array",2003,null,null,false])j",
                                      R"j(["bigint",-5,19,10,false])j",
                                      R"j(["decimal",2000,null,null,false])j"}));
  for (const char* t : {"procedures", "procedure_columns", "pseudo_columns", "super_tables",
                        "super_types", "udts", "attributes"}) {
    EXPECT_TRUE(Rows(std::string("SELECT * FROM system.jdbc.") + t).empty()) << t;
  }
  EXPECT_EQ(Rows("SELECT * FROM system.metadata.table_comments WHERE schema_name = 'shop'"),
            (std::vector<std::string>{R"j(["iceberg","shop","items","what we sell"])j"}));
  auto missing = session_->Execute("SELECT * FROM system.jdbc.nothing");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("system.jdbc has attributes, catalogs"),
            std::string::npos)
      << missing.status().message();
}

TEST_F(SystemTablesTest, RuntimeTablesListWhatListersReport) {
  EXPECT_EQ(Rows("SELECT node_id, coordinator, state FROM system.runtime.nodes"),
            (std::vector<std::string>{R"j(["local",true,"active"])j"}));
  int id = AddRuntimeLister(*engine_, [] {
    RuntimeSnapshot s;
    s.nodes.push_back(RuntimeNode{"n1", "http://127.0.0.1:8080", "sqe-9", true, "active"});
    RuntimeQuery q;
    q.query_id = "q1";
    q.state = "FAILED";
    q.user = "ann";
    q.query = "SELECT 1";
    q.created_ms = 1000;
    q.end_ms = 2000;
    q.error_type = "USER_ERROR";
    q.error_code = "SYNTAX_ERROR";
    s.queries.push_back(q);
    return s;
  });
  EXPECT_EQ(Rows("SELECT node_id, http_uri, node_version FROM system.runtime.nodes"),
            (std::vector<std::string>{R"j(["n1","http://127.0.0.1:8080","sqe-9"])j"}));
  EXPECT_EQ(
      Rows("SELECT query_id, state, \"user\", source, query, error_code, "
           "to_unixtime(\"end\") - to_unixtime(created) FROM system.runtime.queries"),
      (std::vector<std::string>{R"j(["q1","FAILED","ann",null,"SELECT 1","SYNTAX_ERROR",1])j"}));
  RemoveRuntimeLister(*engine_, id);
  EXPECT_TRUE(Rows("SELECT * FROM system.runtime.queries").empty());
}

}  // namespace
}  // namespace sqe::engine
