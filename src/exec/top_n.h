#pragma once
/// TopN: ORDER BY ... LIMIT n OFFSET m without sorting everything. Each sinking thread
/// keeps at most about 2 (n + m) candidate rows: when its buffered rows pass that, it
/// compacts them to the best n + m (a partial sort on normalized keys,
/// sort_key_encoder.h). Finalize merges the threads' candidates the same way and keeps
/// rows [m, m + n) in order; the (ordered) source emits them in batches.
///
/// Memory: buffered candidates reserve on the operator's tracker (ResourceExhausted at
/// the query limit); they are bounded by the limit, so no spilling is planned.

#include <memory>
#include <mutex>
#include <vector>

#include "exec/physical_operator.h"
#include "exec/sort_key_encoder.h"

namespace sqe::exec {

class TopN : public PhysicalOperator {
 public:
  TopN(PhysicalOperatorPtr child, std::vector<SortKey> keys, int64_t limit, int64_t offset);
  ~TopN() override;

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

 private:
  std::shared_ptr<MemoryTracker> Tracker(ExecContext& ctx);
  /// The best `keep` rows of `batches`, in order (one batch), or nullopt for no rows.
  Result<std::optional<columnar::Batch>> Best(const std::vector<columnar::Batch>& batches,
                                              int64_t keep, int64_t skip);

  std::vector<SortKey> keys_;
  int64_t limit_;
  int64_t offset_;
  int64_t keep_;  // limit + offset

  std::mutex mutex_;
  std::shared_ptr<MemoryTracker> tracker_;
  std::vector<columnar::Batch> candidates_;
  Reservation reservation_;
  std::optional<columnar::Batch> result_;
  int64_t next_ = 0;
};

}  // namespace sqe::exec
