#pragma once
/// WarehouseTest: a GTest fixture with an Engine on a fresh embedded warehouse in a temp
/// directory and one session, plus helpers that run SQL and render results as text, for
/// the statement tests of src/engine (test-only).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "columnar/json_value_encoding.h"
#include "engine/engine.h"
#include "engine/engine_internal.h"
#include "engine/testing_engine.h"

namespace sqe::engine {

class WarehouseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDirectory("sqe-ddl-test-");
    auto engine = testing::OpenTestEngine(dir_);
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    engine_ = *engine;
    session_ = engine_->NewSession("tester");
  }
  void TearDown() override {
    session_.reset();
    engine_.reset();
    std::filesystem::remove_all(dir_);
  }

  /// Runs `sql`, failing the test on error.
  QueryResult Run(const std::string& sql) {
    auto r = session_->Execute(sql);
    EXPECT_TRUE(r.ok()) << sql << "\n  -> " << r.status().message();
    return r.ok() ? std::move(*r) : QueryResult{};
  }
  /// Runs `sql`, which must fail; returns the error message.
  std::string Error(const std::string& sql) {
    auto r = session_->Execute(sql);
    EXPECT_FALSE(r.ok()) << sql << " unexpectedly succeeded";
    return r.ok() ? std::string() : r.status().message();
  }
  /// The error's status code of a failing statement.
  StatusCode ErrorCode(const std::string& sql) {
    auto r = session_->Execute(sql);
    return r.ok() ? StatusCode::kOk : r.status().code();
  }
  /// Each row as its values' JSON text joined by '|' (NULL for nulls).
  std::vector<std::string> Rows(const std::string& sql) {
    QueryResult r = Run(sql);
    std::vector<std::string> out;
    for (const columnar::Batch& b : r.batches) {
      for (int64_t row = 0; row < b.num_rows(); ++row) {
        std::string line;
        for (int c = 0; c < b.num_columns(); ++c) {
          if (c > 0) line += "|";
          if (b.column(c).IsNull(row)) {
            line += "NULL";
          } else {
            EXPECT_TRUE(columnar::AppendJsonValue(b.column(c), row, &line).ok());
          }
        }
        out.push_back(std::move(line));
      }
    }
    return out;
  }
  /// The configured catalog (to check what DDL stored).
  std::shared_ptr<catalog::Catalog> Catalog() {
    return engine_->impl().catalogs.at(engine_->impl().default_catalog);
  }
  /// The current metadata of table `schema`.`table`.
  std::shared_ptr<const iceberg::TableMetadata> Metadata(const std::string& schema,
                                                         const std::string& table) {
    auto loaded = Catalog()->LoadTable(catalog::TableIdentifier{{schema}, table});
    EXPECT_TRUE(loaded.ok()) << loaded.status().message();
    return loaded.ok() ? loaded->metadata : nullptr;
  }
  /// Files under the warehouse whose path contains `part` (e.g. "/data/").
  int CountFiles(const std::string& part) {
    int n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir_)) {
      if (e.is_regular_file() && e.path().string().find(part) != std::string::npos) ++n;
    }
    return n;
  }

  std::filesystem::path dir_;
  std::shared_ptr<Engine> engine_;
  std::unique_ptr<Session> session_;
};

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace sqe::engine
