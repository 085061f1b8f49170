#pragma once
/// Test-only: running a small plan over in-memory batches (ValuesSource -> operator ->
/// ResultCollector) on N threads and reading the result as text rows, for the tests of
/// the pipeline breakers (hash aggregate, hash join, sort, top-N). Included by
/// *_test.cc only.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "columnar/json_value_encoding.h"
#include "columnar/test_columns.h"
#include "common/task_scheduler.h"
#include "exec/pipeline.h"
#include "exec/result_collector.h"
#include "exec/values_source.h"

namespace sqe::exec::testing {

/// `columns` cut into batches of `batch_rows` rows, with a schema of nullable fields
/// named c0, c1, ...
inline std::vector<columnar::Batch> MakeBatches(const std::vector<columnar::Column>& columns,
                                                int64_t batch_rows,
                                                columnar::SchemaPtr* schema_out = nullptr) {
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    fields.emplace_back("c" + std::to_string(i), columns[i].type());
  }
  auto schema = columnar::Schema::Make(fields);
  if (schema_out != nullptr) *schema_out = schema;
  const int64_t rows = columns.empty() ? 0 : columns[0].length();
  std::vector<columnar::Batch> batches;
  for (int64_t begin = 0; begin < rows; begin += batch_rows) {
    std::vector<columnar::Column> slice;
    for (const auto& c : columns) slice.push_back(c.Slice(begin, batch_rows));
    batches.push_back(
        columnar::testing::ValueOrDie(columnar::Batch::Make(schema, std::move(slice))));
  }
  return batches;
}

inline PhysicalOperatorPtr Source(const std::vector<columnar::Column>& columns,
                                  int64_t batch_rows = 1000) {
  columnar::SchemaPtr schema;
  auto batches = MakeBatches(columns, batch_rows, &schema);
  return std::make_unique<ValuesSource>(schema, std::move(batches), /*ordered=*/false);
}

/// One string per row: the row's values as JSON, separated by '|'.
inline std::vector<std::string> Rows(const std::vector<columnar::Batch>& batches) {
  std::vector<std::string> rows;
  for (const auto& b : batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      std::string row;
      for (int c = 0; c < b.num_columns(); ++c) {
        if (c) row += "|";
        columnar::testing::DieIfError(columnar::AppendJsonValue(b.column(c), r, &row));
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

inline std::vector<std::string> Sorted(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// Runs `plan` under a ResultCollector with `threads` threads; the result batches.
inline Result<std::vector<columnar::Batch>> RunPlan(
    PhysicalOperatorPtr plan, int threads = 1, std::shared_ptr<MemoryTracker> tracker = nullptr,
    int64_t batch_size = 8192) {
  static TaskScheduler scheduler(2);
  ExecContext ctx;
  ctx.tracker = tracker != nullptr ? tracker : MemoryTracker::Create(MemoryScope::kQuery, "test");
  ctx.scheduler = &scheduler;
  ctx.threads = threads;
  ctx.batch_size = batch_size;
  ResultCollector collector(std::move(plan), 0);
  SQE_RETURN_NOT_OK(ExecutePlan(ctx, collector));
  return collector.TakeBatches();
}

}  // namespace sqe::exec::testing
