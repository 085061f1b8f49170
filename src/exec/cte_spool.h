#pragma once
/// CteScan: one reference to a WITH query whose result every reference shares
/// (materialized): the first reference to run computes the query's plan to completion
/// through a nested ExecutePlan into a SharedCteResult and charges it to its tracker; every
/// reference (that one included) then emits the stored batches. One reference owns the
/// plan (its child, shown by EXPLAIN); the others only hold the shared result.
///
/// Thread safety: the computation runs once under the result's mutex; each reference's
/// source runs on one thread.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/memory_tracker.h"
#include "exec/physical_operator.h"

namespace sqe::exec {

/// The result of a materialized WITH query, shared by its references.
struct SharedCteResult {
  std::mutex mutex;
  bool computed = false;
  Status status;
  /// The plan that computes it (owned by the first reference's operator).
  PhysicalOperator* plan = nullptr;
  std::vector<columnar::Batch> batches;
  Reservation reservation;
  int references = 0;
};

class CteScan : public PhysicalOperator {
 public:
  /// `plan` is the query's plan for the owning reference, nullptr for the others.
  CteScan(std::string cte_name, std::shared_ptr<SharedCteResult> result, PhysicalOperatorPtr plan,
          columnar::SchemaPtr schema);

  bool IsSource() const override { return true; }
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  int64_t SourceParallelism() const override { return 1; }
  void BuildPipelines(PipelineBuilder& builder) override;
  std::string Details() const override;

 private:
  std::string cte_name_;
  std::shared_ptr<SharedCteResult> result_;
  bool owner_;
  std::atomic<size_t> next_{0};
};

}  // namespace sqe::exec
