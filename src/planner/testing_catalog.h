// Test support for the planner's tests: a BinderCatalog of in-memory table descriptions
// (schema, row count, per-column distinct bounds) and the optimized plan of a query over
// it. Nothing is read or run.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planner/binder.h"
#include "planner/optimizer.h"
#include "sql/parser.h"

namespace sqe::planner::testing {

/// One column of a test table; `distinct` is its distinct-value bound (-1 unknown).
struct TestColumn {
  std::string name;
  columnar::TypePtr type;
  int64_t distinct = -1;
};

/// Tables added with Add(), in catalog "iceberg", schema "tpch" ("tpch.<name>" in EXPLAIN).
class TestCatalog : public BinderCatalog {
 public:
  TestCatalog() { eval_.query_start_micros = 0; }

  void Add(const std::string& name, const std::vector<TestColumn>& columns, int64_t rows) {
    auto source = std::make_shared<ScanSource>();
    source->kind = ScanSource::Kind::kParquet;
    source->display_name = "tpch." + name;
    std::vector<columnar::Field> fields;
    for (const TestColumn& c : columns) {
      fields.emplace_back(c.name, c.type, true);
      source->distinct_bounds.push_back(c.distinct);
    }
    source->schema = columnar::Schema::Make(fields);
    source->row_count = rows;
    tables_[name] = source;
  }

  const std::string& current_catalog() const override { return catalog_; }
  const std::string& current_schema() const override { return schema_; }
  const std::string& user() const override { return user_; }
  Result<std::shared_ptr<const ScanSource>> LoadTable(const TableName& name,
                                                      const TimeTravel&) override {
    auto it = tables_.find(name.table);
    if (it == tables_.end())
      return Status::NotFound("Table '" + name.ToString() + "' does not exist");
    return it->second;
  }
  Result<std::shared_ptr<const ScanSource>> ReadParquet(const std::vector<std::string>&) override {
    return Status::NotImplemented("no files here");
  }
  Result<std::optional<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>>> SystemTable(
      const TableName&) override {
    return std::optional<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>>();
  }
  Result<std::vector<columnar::Batch>> Execute(const LogicalPtr&) override {
    return Status::NotImplemented("nothing runs here");
  }
  const exec::EvalContext& eval_context() const override { return eval_; }

 private:
  std::string catalog_ = "iceberg";
  std::string schema_ = "tpch";
  std::string user_ = "test";
  exec::EvalContext eval_;
  std::map<std::string, std::shared_ptr<const ScanSource>> tables_;
};

/// The optimized plan of `sql` over `catalog`, or nullptr (with a test failure).
inline LogicalPtr OptimizedPlanOver(BinderCatalog& catalog, const std::string& sql) {
  auto statement = sql::ParseStatement(sql);
  EXPECT_TRUE(statement.ok()) << statement.status().message();
  if (!statement.ok()) return nullptr;
  auto& query = *static_cast<const sql::ast::QueryStatement&>(**statement).query;
  auto bound = BindQuery(query, catalog, sql);
  EXPECT_TRUE(bound.ok()) << sql << ": " << bound.status().message();
  if (!bound.ok()) return nullptr;
  auto optimized = Optimize(bound->plan);
  EXPECT_TRUE(optimized.ok()) << optimized.status().message();
  return optimized.ok() ? *optimized : nullptr;
}

}  // namespace sqe::planner::testing
