#include "exec/result_collector.h"

#include "exec/pipeline.h"

namespace sqe::exec {

ResultCollector::ResultCollector(PhysicalOperatorPtr child, int64_t max_rows)
    : PhysicalOperator("Output", nullptr, {}), max_rows_(max_rows) {
  schema_ = child->schema();
  children_.push_back(std::move(child));
}

Status ResultCollector::Sink(ExecContext&, const columnar::Batch& input, OperatorState&) {
  std::lock_guard<std::mutex> lock(mutex_);
  rows_ += input.num_rows();
  if (max_rows_ > 0 && rows_ > max_rows_) {
    return Status::ResourceExhausted("query result exceeds the limit of " +
                                     std::to_string(max_rows_) +
                                     " rows (query.max_result_rows); add a LIMIT or raise the "
                                     "limit");
  }
  stats_.rows_out.fetch_add(input.num_rows(), std::memory_order_relaxed);
  batches_.push_back(input);
  return Status::OK();
}

void ResultCollector::BuildPipelines(PipelineBuilder& builder) {
  children_[0]->BuildPipelines(builder);
  builder.current().sink = this;
}

std::vector<columnar::Batch> ResultCollector::TakeBatches() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(batches_);
}

}  // namespace sqe::exec
