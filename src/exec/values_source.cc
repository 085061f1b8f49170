#include "exec/values_source.h"

namespace sqe::exec {

ValuesSource::ValuesSource(columnar::SchemaPtr schema, std::vector<columnar::Batch> batches,
                           bool ordered, std::string name)
    : PhysicalOperator(std::move(name), std::move(schema)),
      batches_(std::move(batches)),
      ordered_(ordered) {}

Result<std::optional<columnar::Batch>> ValuesSource::GetData(ExecContext&, OperatorState&) {
  size_t i = next_.fetch_add(1, std::memory_order_relaxed);
  if (i >= batches_.size()) return std::optional<columnar::Batch>();
  return std::optional<columnar::Batch>(batches_[i]);
}

std::string ValuesSource::Details() const {
  int64_t rows = 0;
  for (const auto& b : batches_) rows += b.num_rows();
  return "rows=" + std::to_string(rows);
}

}  // namespace sqe::exec
