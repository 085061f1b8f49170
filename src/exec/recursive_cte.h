#pragma once
/// RecursiveCte and WorkingTableScan: WITH RECURSIVE evaluated iteratively. RecursiveCte
/// runs its anchor plan to completion; its rows are the first working table. Then, until
/// an iteration yields no new rows, it runs a fresh instance of the recursive step's plan,
/// whose WorkingTableScan reads the previous iteration's new rows, and appends what the
/// step produced (UNION: only rows not seen before, so a cycle terminates). Once done it
/// is a source of the accumulated rows. Step k (1-based) may produce rows only while k <=
/// ExecContext::max_recursion_depth; a step beyond that which still produces rows fails
/// the query naming the session property, as Trino does.
///
/// The sub-plans run to completion inside the first GetData call, each through a nested
/// ExecutePlan (the scheduler's ParallelFor nests without deadlock); the operator's
/// source pipeline runs on one thread. The accumulated rows (and, for UNION, the set of
/// seen rows) are charged to the operator's tracker.

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/memory_tracker.h"
#include "exec/physical_operator.h"

namespace sqe::exec {

/// The rows the recursive step reads in one iteration. RecursiveCte writes it between
/// iterations, WorkingTableScan reads it during one; never both at once.
struct WorkingTable {
  std::vector<columnar::Batch> batches;
};

/// The recursive reference inside the step: a source over the current working table.
/// One instance serves one iteration (the step plan is made anew for each).
class WorkingTableScan : public PhysicalOperator {
 public:
  WorkingTableScan(std::shared_ptr<const WorkingTable> table, std::string cte_name,
                   columnar::SchemaPtr schema);

  bool IsSource() const override { return true; }
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  std::string Details() const override { return cte_name_; }

 private:
  std::shared_ptr<const WorkingTable> table_;
  std::string cte_name_;
  std::atomic<size_t> next_{0};
};

class RecursiveCte : public PhysicalOperator {
 public:
  /// A fresh, unexecuted instance of the step's plan (columns in this operator's order)
  /// whose WorkingTableScan reads `working`.
  using StepFactory = std::function<Result<PhysicalOperatorPtr>()>;

  /// `anchor` and `first_step` (the step instance for iteration 1, shown by EXPLAIN)
  /// produce `schema`'s columns; `working` is the table the steps' scans read.
  RecursiveCte(std::string cte_name, PhysicalOperatorPtr anchor, PhysicalOperatorPtr first_step,
               StepFactory make_step, std::shared_ptr<WorkingTable> working, bool union_all,
               columnar::SchemaPtr schema);
  ~RecursiveCte() override;

  bool IsSource() const override { return true; }
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  int64_t SourceParallelism() const override { return 1; }
  void BuildPipelines(PipelineBuilder& builder) override;
  std::string Details() const override;

 private:
  /// Runs the anchor and the iterations into result_.
  Status Compute(ExecContext& ctx);
  /// Keeps the rows of `batches` not seen before (UNION) and charges the kept ones;
  /// `*rows` counts them.
  Result<std::vector<columnar::Batch>> KeepNew(ExecContext& ctx,
                                               std::vector<columnar::Batch> batches, int64_t* rows);

  std::string cte_name_;
  StepFactory make_step_;
  std::shared_ptr<WorkingTable> working_;
  bool union_all_;

  std::mutex mutex_;
  bool computed_ = false;
  Status compute_status_;
  std::vector<columnar::Batch> result_;
  size_t next_ = 0;
  int64_t iterations_ = 0;
  Reservation reservation_;
  /// UNION: the encoded rows seen so far.
  std::unique_ptr<struct SeenRows> seen_;
};

/// Runs `plan` (a tree with no sink at its top) to completion and returns its batches in
/// arrival order. Used for sub-plans an operator evaluates inside its own GetData.
Result<std::vector<columnar::Batch>> RunToBatches(ExecContext& ctx, PhysicalOperator& plan);

/// The stored batch `next` names next (advancing it), as a batch of `schema`; nullopt past
/// the end. For sources that replay stored results (thread-safe through `next`).
Result<std::optional<columnar::Batch>> NextStoredBatch(const std::vector<columnar::Batch>& batches,
                                                       std::atomic<size_t>& next,
                                                       const columnar::SchemaPtr& schema);

}  // namespace sqe::exec
