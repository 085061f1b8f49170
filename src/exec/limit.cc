#include "exec/limit.h"

#include <algorithm>
#include <cstdint>

#include "exec/pipeline.h"

namespace sqe::exec {

Limit::Limit(PhysicalOperatorPtr child, int64_t limit, int64_t offset)
    : PhysicalOperator("Limit", nullptr, {}),
      limit_(limit),
      offset_(offset) {
  // The schema is read before the child moves (argument evaluation order is unspecified).
  schema_ = child->schema();
  children_.push_back(std::move(child));
}

Status Limit::Sink(ExecContext&, const columnar::Batch& input, OperatorState&) {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t wanted = limit_ < 0 ? INT64_MAX : offset_ + limit_;
  if (rows_ >= wanted) return Status::OK();
  int64_t take = std::min<int64_t>(input.num_rows(), wanted - rows_);
  batches_.push_back(take == input.num_rows() ? input : input.Slice(0, take));
  rows_ += take;
  return Status::OK();
}

bool Limit::SinkIsFull() const {
  if (limit_ < 0) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  return rows_ >= offset_ + limit_;
}

Result<std::optional<columnar::Batch>> Limit::GetData(ExecContext&, OperatorState&) {
  std::lock_guard<std::mutex> lock(mutex_);
  while (next_ < batches_.size()) {
    columnar::Batch batch = batches_[next_++];
    if (skipped_ < offset_) {
      int64_t skip = std::min<int64_t>(batch.num_rows(), offset_ - skipped_);
      skipped_ += skip;
      if (skip == batch.num_rows()) continue;
      batch = batch.Slice(skip, batch.num_rows() - skip);
    }
    return std::optional<columnar::Batch>(std::move(batch));
  }
  return std::optional<columnar::Batch>();
}

std::string Limit::Details() const {
  std::string out = limit_ < 0 ? "all" : std::to_string(limit_);
  if (offset_ > 0) out += " offset " + std::to_string(offset_);
  return out;
}

UnionAll::UnionAll(std::vector<PhysicalOperatorPtr> children, columnar::SchemaPtr schema)
    : PhysicalOperator("UnionAll", std::move(schema), std::move(children)) {}

Status UnionAll::Sink(ExecContext&, const columnar::Batch& input, OperatorState&) {
  // Children may name their columns differently: re-label with the union's schema.
  SQE_ASSIGN_OR_RETURN(columnar::Batch batch,
                       columnar::Batch::Make(schema_, input.columns(), input.num_rows()));
  std::lock_guard<std::mutex> lock(mutex_);
  batches_.push_back(std::move(batch));
  return Status::OK();
}

Result<std::optional<columnar::Batch>> UnionAll::GetData(ExecContext&, OperatorState&) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (next_ >= batches_.size()) return std::optional<columnar::Batch>();
  return std::optional<columnar::Batch>(std::move(batches_[next_++]));
}

void UnionAll::BuildPipelines(PipelineBuilder& builder) {
  std::vector<int> finished;
  for (auto& child : children_) {
    child->BuildPipelines(builder);
    builder.current().sink = this;
    finished.push_back(builder.current_index());
  }
  int next = builder.StartPipeline(this);
  for (int f : finished) builder.AddDependency(next, f);
}

}  // namespace sqe::exec
