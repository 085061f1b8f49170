#pragma once
/// RangeSource: the rows of the range / generate_series table functions, made as they
/// are asked for (nothing is materialized): `count` BIGINT values start, start + step,
/// ... in batches of ExecContext::batch_size rows, handed to whichever pipeline thread
/// asks next (so the order across batches is not kept; one batch is in order). With no
/// output column (count(*) over a range), the batches carry only their row count.
///
/// Thread safety: GetData is called concurrently; the next row is an atomic counter.

#include <atomic>
#include <cstdint>

#include "exec/physical_operator.h"

namespace sqe::exec {

class RangeSource : public PhysicalOperator {
 public:
  /// `schema`: one BIGINT column, or none.
  RangeSource(columnar::SchemaPtr schema, int64_t start, int64_t step, int64_t count);

  bool IsSource() const override { return true; }
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  int64_t SourceParallelism() const override;
  std::string Details() const override;

  /// The number of values of range(start, stop, step) (stop exclusive) or, with
  /// `inclusive`, of generate_series(start, stop, step); 0 when the step points away from
  /// stop. Precondition: step != 0.
  static int64_t CountValues(int64_t start, int64_t stop, int64_t step, bool inclusive);

 private:
  int64_t start_;
  int64_t step_;
  int64_t count_;
  std::atomic<int64_t> next_{0};
};

}  // namespace sqe::exec
