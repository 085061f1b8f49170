#pragma once
/// Window: the window functions of one SELECT (`f(...) OVER (PARTITION BY .. ORDER BY ..
/// frame)`) as a pipeline breaker. As a sink it collects its whole input (charging the
/// operator's tracker; ResourceExhausted at the query limit). Finalize concatenates the
/// input, then for each distinct (PARTITION BY, ORDER BY) of its functions sorts the rows
/// once (normalized keys, sort_key_encoder.h), finds the partition and peer-group
/// boundaries, and evaluates every function of that spec over the sorted rows: ranking
/// functions and lag / lead from the boundaries, value functions as one gather,
/// aggregates with the accumulators of the function registry (one accumulator per
/// partition for whole-partition frames, a running accumulator for frames that start at
/// the partition start, a per-row group for any other frame). Each result is scattered
/// back to the input's row order. As a source it emits the input columns followed by one
/// column per function, in batches of ExecContext::batch_size rows, on any number of
/// threads.
///
/// Spilling would go in Finalize: sort runs per spec written to spill_dir.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/functions/registry.h"
#include "exec/physical_operator.h"
#include "exec/sort_key_encoder.h"

namespace sqe::exec {

enum class WindowFunctionKind : uint8_t {
  kAggregate,  ///< any aggregate of the registry over the frame
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,       ///< args: bucket count (bigint)
  kLag,         ///< args: value [, offset (bigint) [, default (value's type)]]
  kLead,        ///< as kLag
  kFirstValue,  ///< args: value (over the frame)
  kLastValue,   ///< args: value (over the frame)
  kNthValue,    ///< args: value, n (bigint) (over the frame)
};

/// The name SQL spells the function with ("row_number", "lag"); aggregates have their own.
const char* WindowFunctionKindName(WindowFunctionKind kind);

enum class WindowFrameUnit : uint8_t { kRows, kRange, kGroups };
enum class WindowBoundType : uint8_t {
  kUnboundedPreceding,
  kPreceding,
  kCurrentRow,
  kFollowing,
  kUnboundedFollowing,
};

/// One end of a frame. ROWS / GROUPS offsets are counts (rows, peer groups); a RANGE
/// offset bound reads, per row, the key value the frame reaches (`range_value`: the ORDER
/// BY key minus or plus the offset, in the direction of the ORDER BY) from a column.
struct WindowBound {
  WindowBoundType type = WindowBoundType::kCurrentRow;
  int64_t offset = 0;
  int range_value = -1;  ///< input column (RANGE with an offset only)
};

/// ROWS | RANGE | GROUPS BETWEEN start AND end. For RANGE with an offset, `range_key` is
/// the input column holding the single ORDER BY key in the bound values' type.
struct WindowFrame {
  WindowFrameUnit unit = WindowFrameUnit::kRange;
  WindowBound start{WindowBoundType::kUnboundedPreceding, 0, -1};
  WindowBound end{WindowBoundType::kCurrentRow, 0, -1};
  int range_key = -1;
};

/// One window function call of a Window operator; column numbers index its input.
struct WindowCall {
  WindowFunctionKind kind = WindowFunctionKind::kRowNumber;
  const AggregateFunction* aggregate = nullptr;  ///< kAggregate
  std::vector<int> args;
  bool ignore_nulls = false;  ///< lag, lead, first_value, last_value, nth_value
  std::vector<int> partition_by;
  std::vector<SortKey> order_by;
  WindowFrame frame;
  columnar::TypePtr type;  ///< the result type
};

/// "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW": `start_amount` / `end_amount` are the
/// offsets' text (used for n PRECEDING / n FOLLOWING only).
std::string WindowFrameText(WindowFrameUnit unit, WindowBoundType start,
                            const std::string& start_amount, WindowBoundType end,
                            const std::string& end_amount);

/// "row_number() OVER (PARTITION BY #0 ORDER BY #1 ASC NULLS LAST RANGE ...)" for EXPLAIN.
std::string WindowCallToString(const WindowCall& call);

class Window : public PhysicalOperator {
 public:
  /// `output`: the input's columns, then one column per call (its `type`).
  Window(PhysicalOperatorPtr child, std::vector<WindowCall> calls, columnar::SchemaPtr output);
  ~Window() override;

  std::string Details() const override;

  bool IsSink() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSinkState(ExecContext& ctx) override;
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  Status Combine(ExecContext& ctx, OperatorState& state) override;
  Status Finalize(ExecContext& ctx) override;

  bool IsSource() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSourceState(ExecContext& ctx) override;
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;

 private:
  std::vector<WindowCall> calls_;
  std::mutex mutex_;
  std::vector<columnar::Batch> collected_;
  Reservation collected_reservation_;
  // After Finalize: the input with every result column.
  columnar::Batch output_;
  std::atomic<int64_t> next_{0};
};

}  // namespace sqe::exec
