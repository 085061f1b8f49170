#pragma once
/// Sort: ORDER BY as a pipeline breaker. Each sinking thread collects its batches; its
/// Combine turns them into one sorted run (normalized keys, sort_key_encoder.h, sorted
/// by memcmp), so runs sort in parallel. Finalize merges the runs' orders (k-way, on the
/// normalized keys) into one global order over their concatenation, and the (ordered,
/// single-threaded) source emits it in batches of ExecContext::batch_size rows.
/// Not stable.
///
/// Memory: collected batches, runs and keys reserve on the operator's tracker
/// (ResourceExhausted at the query limit). Spilling goes in Combine: a run over budget
/// would be written sorted to spill_dir and merged from disk in Finalize.

#include <memory>
#include <mutex>
#include <vector>

#include "exec/physical_operator.h"
#include "exec/sort_key_encoder.h"

namespace sqe::exec {

class Sort : public PhysicalOperator {
 public:
  Sort(PhysicalOperatorPtr child, std::vector<SortKey> keys);
  ~Sort() override;

  std::string Details() const override;

  bool IsSink() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSinkState(ExecContext& ctx) override;
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  Status Combine(ExecContext& ctx, OperatorState& state) override;
  Status Finalize(ExecContext& ctx) override;

  bool IsSource() const override { return true; }
  bool SourceIsOrdered() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSourceState(ExecContext& ctx) override;
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;

  struct Run;  // sort.cc

 private:
  std::vector<SortKey> keys_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Run>> runs_;
  // After Finalize: every row in one batch and the global order over it.
  columnar::Batch sorted_input_;
  std::vector<uint32_t> order_;
  Reservation order_reservation_;
  size_t next_ = 0;
};

/// Describes sort keys for EXPLAIN: "#0 ASC NULLS LAST, #2 DESC NULLS FIRST".
std::string SortKeysToString(const std::vector<SortKey>& keys);

}  // namespace sqe::exec
