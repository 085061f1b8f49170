#pragma once
/// ResultCollector: the root sink of a query; keeps the result batches in arrival order
/// (the order of an ordered source, since that pipeline runs on one thread). Fails with
/// ResourceExhausted naming query.max_result_rows when the result would be longer: a
/// result is never silently truncated. Batches are charged to the query's tracker.

#include <mutex>
#include <vector>

#include "exec/physical_operator.h"

namespace sqe::exec {

class ResultCollector : public PhysicalOperator {
 public:
  /// `max_rows` 0 = unlimited.
  ResultCollector(PhysicalOperatorPtr child, int64_t max_rows);

  bool IsSink() const override { return true; }
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  void BuildPipelines(PipelineBuilder& builder) override;

  /// The collected batches (after ExecutePlan).
  std::vector<columnar::Batch> TakeBatches();

 private:
  int64_t max_rows_;
  std::mutex mutex_;
  int64_t rows_ = 0;
  std::vector<columnar::Batch> batches_;
};

}  // namespace sqe::exec
