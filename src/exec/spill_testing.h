#pragma once
/// Test-only: running a small plan under a query memory limit with spilling on, for the
/// spill tests of the pipeline breakers. The result rows are kept as text (untracked) and
/// every batch is dropped at once, so the limit applies to the operators alone; the
/// result also tells whether the query's spill directory was used and that it is gone
/// afterwards. Included by *_test.cc only.

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/breaker_testing.h"

namespace sqe::exec::testing {

/// The root sink of a test plan: each row as text (Rows() of breaker_testing.h).
class TextRowsSink : public PhysicalOperator {
 public:
  explicit TextRowsSink(PhysicalOperatorPtr child) : PhysicalOperator("TextRows", nullptr, {}) {
    schema_ = child->schema();
    children_.push_back(std::move(child));
  }
  bool IsSink() const override { return true; }
  Status Sink(ExecContext&, const columnar::Batch& input, OperatorState&) override {
    std::vector<std::string> rows = Rows({input});
    std::lock_guard<std::mutex> lock(mutex_);
    rows_.insert(rows_.end(), rows.begin(), rows.end());
    return Status::OK();
  }
  void BuildPipelines(PipelineBuilder& builder) override {
    children_[0]->BuildPipelines(builder);
    builder.current().sink = this;
  }
  std::vector<std::string> TakeRows() { return std::move(rows_); }

 private:
  std::mutex mutex_;
  std::vector<std::string> rows_;
};

struct SpillRun {
  std::vector<std::string> rows;  ///< in output order
  int64_t spilled_bytes = 0;      ///< written to the query's spill directory
  std::string explain;            ///< EXPLAIN ANALYZE of the plan
};

/// Runs `plan` with a query tracker limited to `limit` bytes (0 = none) and spilling to
/// `spill_dir` ("" = off). The spill directory must be empty again afterwards.
inline Result<SpillRun> RunPlanSpilling(PhysicalOperatorPtr plan, int threads, int64_t limit,
                                        const std::string& spill_dir, int64_t batch_size = 1024) {
  static TaskScheduler scheduler(2);
  SpillRun run;
  Status status;
  TextRowsSink sink(std::move(plan));
  {
    ExecContext ctx;
    ctx.tracker = MemoryTracker::Create(
        MemoryTracker::Options{MemoryScope::kQuery, "test", limit, "query.max_query_memory"});
    ctx.scheduler = &scheduler;
    ctx.threads = threads;
    ctx.batch_size = batch_size;
    ctx.spill_dir = spill_dir;
    status = ExecutePlan(ctx, sink);
    if (!spill_dir.empty()) {
      auto dir = ctx.SpillDirectoryForQuery();
      if (dir.ok()) run.spilled_bytes = (*dir)->bytes_spilled().load();
    }
    run.explain = ExplainPhysicalPlan(sink, true);
  }
  if (!spill_dir.empty()) {
    std::error_code error;
    const bool empty = std::filesystem::is_empty(spill_dir, error);
    EXPECT_TRUE(error || empty) << "spill directory " << spill_dir << " not empty";
  }
  SQE_RETURN_NOT_OK(status);
  run.rows = sink.TakeRows();
  return run;
}

/// Expects `status` to be the ResourceExhausted of a query over `limit_setting` with
/// spilling off (the message names the limit and worker.spill_to_disk).
inline void ExpectSpillOffError(const Status& status,
                                const std::string& limit_setting = "query.max_query_memory") {
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted) << status.ToString();
  EXPECT_NE(status.message().find(limit_setting), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("worker.spill_to_disk"), std::string::npos) << status.message();
}

/// A fresh directory for one test's spill files (removed by the destructor).
class ScopedSpillDir {
 public:
  ScopedSpillDir() {
    path_ = (std::filesystem::temp_directory_path() /
             ("sqe-spill-test-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                .string();
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScopedSpillDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace sqe::exec::testing
