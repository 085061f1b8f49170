#pragma once
/// SetOperationOutput: the last step of INTERSECT / EXCEPT [ALL]. Its input is one row per
/// distinct value (the grouping of both sides' rows, NULLs equal) with two trailing
/// counts: how often the value occurs on the left and on the right. It emits the value
/// columns as many times as the operation keeps the value:
///   INTERSECT      1 if left > 0 and right > 0        INTERSECT ALL  min(left, right)
///   EXCEPT         1 if left > 0 and right = 0        EXCEPT ALL     max(left - right, 0)
/// A streaming operator; the counts are bigint columns.

#include "exec/physical_operator.h"

namespace sqe::exec {

class SetOperationOutput : public PhysicalOperator {
 public:
  enum class Kind { kIntersect, kExcept };
  /// `child` has the value columns, then the left and right counts; `schema` is the
  /// value columns'.
  SetOperationOutput(PhysicalOperatorPtr child, Kind kind, bool all, columnar::SchemaPtr schema);

  Status Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
                 std::vector<columnar::Batch>* out) override;
  std::string Details() const override;

 private:
  Kind kind_;
  bool all_;
};

}  // namespace sqe::exec
