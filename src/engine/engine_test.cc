// Session behaviour that is not about one operator: statements end to end on an embedded
// warehouse, session state (USE, SET SESSION, PREPARE/EXECUTE), the query limits
// (max_result_rows, timeout, cancellation, memory) and their error messages.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "columnar/json_value_encoding.h"
#include "engine/engine.h"
#include "engine/engine_internal.h"

namespace sqe::engine {
namespace {

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sqe-engine-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    Open(config::Config{});
  }
  void TearDown() override {
    session_.reset();
    engine_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Open(config::Config config) {
    session_.reset();
    EngineOptions options;
    options.config = std::move(config);
    options.warehouse = dir_.string();
    options.threads = 2;
    auto engine = Engine::Open(std::move(options));
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    engine_ = *engine;
    session_ = engine_->NewSession("tester");
  }
  /// The single value of a one-row, one-column result, as its JSON text.
  std::string Scalar(const std::string& sql) {
    auto r = session_->Execute(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().message();
    if (!r.ok() || r->num_rows() != 1) return "<no single row>";
    for (const columnar::Batch& b : r->batches) {
      if (b.num_rows() == 0) continue;
      std::string out;
      if (b.column(0).IsNull(0)) return "NULL";
      EXPECT_TRUE(columnar::AppendJsonValue(b.column(0), 0, &out).ok());
      return out;
    }
    return "";
  }

  std::filesystem::path dir_;
  std::shared_ptr<Engine> engine_;
  std::unique_ptr<Session> session_;
};

TEST_F(EngineTest, SelectWithoutFrom) {
  EXPECT_EQ(Scalar("SELECT 1 + 2"), "3");
  EXPECT_EQ(Scalar("SELECT 'a' || 'b'"), "\"ab\"");
  EXPECT_EQ(Scalar("SELECT CAST(NULL AS integer)"), "NULL");
}

TEST_F(EngineTest, SessionStateUseAndSet) {
  auto missing = session_->Execute("USE nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("Schema 'nope' does not exist"), std::string::npos);
  ASSERT_TRUE(session_->Execute("CREATE SCHEMA s1").ok());
  auto use = session_->Execute("USE s1");
  ASSERT_TRUE(use.ok()) << use.status().message();
  EXPECT_EQ(session_->current_schema(), "s1");
  EXPECT_EQ(use->set_schema.value_or(""), "s1");
  EXPECT_EQ(Scalar("SELECT current_schema"), "\"s1\"");
  ASSERT_TRUE(session_->Execute("SET SESSION threads = 1").ok());
  auto show = session_->Execute("SHOW SESSION LIKE 'threads'");
  ASSERT_TRUE(show.ok());
  EXPECT_EQ(show->num_rows(), 1);
}

TEST_F(EngineTest, PrepareExecuteDeallocate) {
  ASSERT_TRUE(session_->Execute("PREPARE q FROM SELECT ? * 2").ok());
  EXPECT_EQ(Scalar("EXECUTE q USING 21"), "42");
  ASSERT_TRUE(session_->Execute("DEALLOCATE PREPARE q").ok());
  auto gone = session_->Execute("EXECUTE q USING 1");
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.status().message().find("Prepared statement not found: q"), std::string::npos);
}

TEST_F(EngineTest, ResultRowLimitFailsInsteadOfTruncating) {
  config::Config config;
  config.query.max_result_rows = 5;
  Open(config);
  EXPECT_TRUE(session_->Execute("SELECT * FROM (VALUES 1, 2, 3, 4, 5) t(x)").ok());
  auto r = session_->Execute("SELECT * FROM (VALUES 1, 2, 3, 4, 5, 6) t(x)");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(r.status().message().find("query.max_result_rows"), std::string::npos);
}

/// A query that runs for a long time: a big cross join aggregated to one row.
constexpr const char* kSlowQuery =
    "WITH t(x) AS (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) "
    "SELECT count(*) FROM t a, t b, t c, t d, t e, t f, t g, t h, t i";

TEST_F(EngineTest, CancelStopsARunningQueryWithinASecond) {
  std::chrono::steady_clock::time_point cancelled_at;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancelled_at = std::chrono::steady_clock::now();
    session_->Cancel();
  });
  auto r = session_->Execute(kSlowQuery);
  auto ended = std::chrono::steady_clock::now();
  canceller.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCancelled) << r.status().message();
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(ended - cancelled_at).count(),
            1000);
  // Its memory is released, and the next statement runs normally.
  EXPECT_EQ(engine_->impl().process_tracker->current(), 0);
  EXPECT_EQ(Scalar("SELECT 7"), "7");
}

TEST_F(EngineTest, TimeoutNamesTheSetting) {
  config::Config config;
  config.query.timeout_secs = 1;
  Open(config);
  auto start = std::chrono::steady_clock::now();
  auto r = session_->Execute(kSlowQuery);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDeadlineExceeded) << r.status().message();
  EXPECT_NE(r.status().message().find("query.timeout_secs"), std::string::npos);
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 2000);
  EXPECT_EQ(engine_->impl().process_tracker->current(), 0);
}

TEST_F(EngineTest, NotYetSupportedStatementsSayWhich) {
  auto r = session_->Execute("GRANT SELECT ON t TO alice");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotImplemented);
  EXPECT_NE(r.status().message().find("GRANT"), std::string::npos);
}

}  // namespace
}  // namespace sqe::engine
