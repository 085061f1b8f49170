#pragma once
/// Pipeline and PipelineExecutor: the physical plan cut at its pipeline breakers into
/// source -> operators -> sink chains, run in dependency order, each on up to
/// ExecContext::threads threads of the scheduler (physical_operator.h explains the roles).

#include <memory>
#include <vector>

#include "common/result.h"
#include "exec/physical_operator.h"

namespace sqe::exec {

struct Pipeline {
  PhysicalOperator* source = nullptr;
  std::vector<PhysicalOperator*> operators;
  PhysicalOperator* sink = nullptr;
  /// Pipelines that must finish first (indices into the executor's list).
  std::vector<int> dependencies;
};

/// Collects pipelines while operators BuildPipelines (recursively, children first).
class PipelineBuilder {
 public:
  /// The pipeline being extended.
  Pipeline& current() { return pipelines_[current_]; }
  int current_index() const { return current_; }
  /// Starts a new pipeline with `source`; returns its index. The new one depends on
  /// the pipeline that was current (which must run first) when `depends_on_current`.
  int StartPipeline(PhysicalOperator* source);
  void SetCurrent(int index) { current_ = index; }
  void AddDependency(int pipeline, int depends_on);
  std::vector<Pipeline>& pipelines() { return pipelines_; }

 private:
  std::vector<Pipeline> pipelines_;
  int current_ = -1;
};

/// Runs the pipelines of a plan whose root is a sink (the result collector), in order,
/// each to completion. Returns the first error (Cancelled / DeadlineExceeded when the
/// query was stopped); every thread stops at its next batch after an error.
Status ExecutePlan(ExecContext& ctx, PhysicalOperator& root);

/// The pipelines of `root` in an order where dependencies come first.
std::vector<Pipeline> BuildPipelines(PhysicalOperator& root);

}  // namespace sqe::exec
