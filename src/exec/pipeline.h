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
  /// False when another pipeline still feeds the same sink afterwards (a continuation,
  /// see PipelineBuilder::AddContinuation): the sink Finalizes after the last one only.
  bool finalize_sink = true;
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
  /// Adds a pipeline with `source` that continues the current one after the operators it
  /// has now: once every operator and the sink are added to the current pipeline, the
  /// continuation gets the operators appended after this point and the same sink (e.g.
  /// a FULL join's unmatched build rows flow through the operators above the join). It
  /// runs after the current pipeline (and after the current pipeline's earlier
  /// continuations); pipelines that depend on the current one also wait for it; the
  /// shared sink Finalizes once, after the last of them. The current pipeline stays
  /// current. Returns the continuation's index.
  int AddContinuation(PhysicalOperator* source);
  std::vector<Pipeline>& pipelines() { return pipelines_; }
  /// Completes the continuations (operators, sink, dependencies, finalize flags); called
  /// once after the root's BuildPipelines.
  void ResolveContinuations();

 private:
  struct Continuation {
    int pipeline;  ///< the continuation
    int parent;    ///< the pipeline it continues
    size_t from;   ///< the parent's operators from this position on are the continuation's
  };
  std::vector<Pipeline> pipelines_;
  std::vector<Continuation> continuations_;
  int current_ = -1;
};

/// Runs the pipelines of a plan whose root is a sink (the result collector), in order,
/// each to completion. Returns the first error (Cancelled / DeadlineExceeded when the
/// query was stopped); every thread stops at its next batch after an error.
Status ExecutePlan(ExecContext& ctx, PhysicalOperator& root);

/// The pipelines of `root` in an order where dependencies come first.
std::vector<Pipeline> BuildPipelines(PhysicalOperator& root);

}  // namespace sqe::exec
