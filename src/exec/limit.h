#pragma once
/// Limit: LIMIT n OFFSET m. A sink that keeps the first offset + n rows it receives and
/// reports itself full (so scans stop early), then an ordered source of rows [m, m + n).
/// Over an ordered input (after a sort) the pipeline runs on one thread, so "first"
/// follows the order; otherwise any n rows qualify, as in SQL.

#include <mutex>
#include <vector>

#include "exec/physical_operator.h"

namespace sqe::exec {

class Limit : public PhysicalOperator {
 public:
  /// `limit` < 0: no limit (OFFSET only).
  Limit(PhysicalOperatorPtr child, int64_t limit, int64_t offset);

  bool IsSink() const override { return true; }
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  bool SinkIsFull() const override;
  bool IsSource() const override { return true; }
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  bool SourceIsOrdered() const override { return true; }
  std::string Details() const override;

 private:
  int64_t limit_;
  int64_t offset_;
  mutable std::mutex mutex_;
  int64_t rows_ = 0;  // rows kept (offset included)
  std::vector<columnar::Batch> batches_;
  size_t next_ = 0;
  int64_t skipped_ = 0;
};

/// UnionAll: the rows of every child (UNION ALL); a sink over every child's pipeline and
/// a source of what they produced (no order).
class UnionAll : public PhysicalOperator {
 public:
  UnionAll(std::vector<PhysicalOperatorPtr> children, columnar::SchemaPtr schema);

  bool IsSink() const override { return true; }
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  bool IsSource() const override { return true; }
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  void BuildPipelines(PipelineBuilder& builder) override;

 private:
  std::mutex mutex_;
  std::vector<columnar::Batch> batches_;
  size_t next_ = 0;
};

}  // namespace sqe::exec
