#pragma once
/// ValuesSource: a source over batches known at planning time (VALUES lists, constant
/// SELECTs without FROM, SHOW results, metadata tables). Batches go to whichever thread
/// asks next; with `ordered` they are emitted in order on one thread.

#include <atomic>
#include <vector>

#include "exec/physical_operator.h"

namespace sqe::exec {

class ValuesSource : public PhysicalOperator {
 public:
  ValuesSource(columnar::SchemaPtr schema, std::vector<columnar::Batch> batches,
               bool ordered = true, std::string name = "Values");

  bool IsSource() const override { return true; }
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  bool SourceIsOrdered() const override { return ordered_; }
  std::string Details() const override;

 private:
  std::vector<columnar::Batch> batches_;
  bool ordered_;
  std::atomic<size_t> next_{0};
};

}  // namespace sqe::exec
