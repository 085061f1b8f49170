#include "exec/range_source.h"

#include <algorithm>
#include <string>

#include "columnar/fixed_width_builder.h"

namespace sqe::exec {

RangeSource::RangeSource(columnar::SchemaPtr schema, int64_t start, int64_t step, int64_t count)
    : PhysicalOperator("Range", std::move(schema)), start_(start), step_(step), count_(count) {}

int64_t RangeSource::CountValues(int64_t start, int64_t stop, int64_t step, bool inclusive) {
  __extension__ using Int128 = __int128;
  const Int128 span = static_cast<Int128>(stop) - start;
  if (span == 0) return inclusive ? 1 : 0;
  if ((span > 0) != (step > 0)) return 0;
  const Int128 abs_span = span > 0 ? span : -span;
  const Int128 abs_step = step > 0 ? static_cast<Int128>(step) : -static_cast<Int128>(step);
  const Int128 n = inclusive ? abs_span / abs_step + 1 : (abs_span + abs_step - 1) / abs_step;
  // Only a step of +-1 over (nearly) the whole int64 domain gives more than INT64_MAX.
  return n > INT64_MAX ? INT64_MAX : static_cast<int64_t>(n);
}

int64_t RangeSource::SourceParallelism() const { return std::max<int64_t>(1, count_ / 8192); }

std::string RangeSource::Details() const {
  return "start=" + std::to_string(start_) + ", step=" + std::to_string(step_) +
         ", rows=" + std::to_string(count_);
}

Result<std::optional<columnar::Batch>> RangeSource::GetData(ExecContext& ctx, OperatorState&) {
  const int64_t begin = next_.fetch_add(ctx.batch_size, std::memory_order_relaxed);
  if (begin >= count_) return std::optional<columnar::Batch>();
  SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
  const int64_t rows = std::min(ctx.batch_size, count_ - begin);
  std::vector<columnar::Column> columns;
  if (schema_->num_fields() > 0) {
    columnar::FixedWidthBuilder<int64_t> builder(columnar::Int64(), MakeTracker(ctx));
    SQE_RETURN_NOT_OK(builder.Reserve(rows));
    // Unsigned arithmetic: the values lie between start and stop, but i * step may not
    // fit in int64 on its way there.
    const auto start = static_cast<uint64_t>(start_);
    const auto step = static_cast<uint64_t>(step_);
    for (int64_t i = begin; i < begin + rows; ++i) {
      SQE_RETURN_NOT_OK(
          builder.Append(static_cast<int64_t>(start + static_cast<uint64_t>(i) * step)));
    }
    SQE_ASSIGN_OR_RETURN(columnar::Column column, builder.Finish());
    columns.push_back(std::move(column));
  }
  SQE_ASSIGN_OR_RETURN(columnar::Batch batch,
                       columnar::Batch::Make(schema_, std::move(columns), rows));
  return std::optional<columnar::Batch>(std::move(batch));
}

}  // namespace sqe::exec
