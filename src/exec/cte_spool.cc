#include "exec/cte_spool.h"

#include "exec/batch_concatenate.h"
#include "exec/pipeline.h"
#include "exec/recursive_cte.h"

namespace sqe::exec {

CteScan::CteScan(std::string cte_name, std::shared_ptr<SharedCteResult> result,
                 PhysicalOperatorPtr plan, columnar::SchemaPtr schema)
    : PhysicalOperator("CteScan", std::move(schema)),
      cte_name_(std::move(cte_name)),
      result_(std::move(result)),
      owner_(plan != nullptr) {
  if (plan != nullptr) {
    result_->plan = plan.get();
    children_.push_back(std::move(plan));
  }
  ++result_->references;
}

void CteScan::BuildPipelines(PipelineBuilder& builder) {
  // The shared plan runs nested inside the first GetData, not as pipelines here.
  builder.StartPipeline(this);
}

std::string CteScan::Details() const {
  return cte_name_ + (owner_ ? " materialized, references=" + std::to_string(result_->references)
                             : " (shared result)");
}

Result<std::optional<columnar::Batch>> CteScan::GetData(ExecContext& ctx, OperatorState&) {
  {
    std::lock_guard<std::mutex> lock(result_->mutex);
    if (!result_->computed) {
      result_->computed = true;
      if (result_->plan == nullptr) {
        result_->status = Status::Internal("WITH query '" + cte_name_ + "' has no plan");
      } else {
        Result<std::vector<columnar::Batch>> batches = RunToBatches(ctx, *result_->plan);
        if (batches.ok()) {
          int64_t bytes = 0;
          for (const columnar::Batch& b : *batches) bytes += BatchBytes(b);
          Result<Reservation> reserved = Reservation::Make(MakeTracker(ctx), bytes);
          if (reserved.ok()) {
            result_->reservation = std::move(*reserved);
            result_->batches = std::move(*batches);
          } else {
            result_->status = reserved.status();
          }
        } else {
          result_->status = batches.status();
        }
      }
    }
    SQE_RETURN_NOT_OK(result_->status);
  }
  return NextStoredBatch(result_->batches, next_, schema_);
}

}  // namespace sqe::exec
