#pragma once
/// Filter: a streaming operator keeping the rows where its predicate is true (not false,
/// not null). Empty results are dropped; a batch that passes whole is forwarded as is.

#include "exec/expression.h"
#include "exec/physical_operator.h"

namespace sqe::exec {

class Filter : public PhysicalOperator {
 public:
  /// `predicate` refers to the child's columns by index.
  Filter(PhysicalOperatorPtr child, ExprPtr predicate);

  Status Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
                 std::vector<columnar::Batch>* out) override;
  std::string Details() const override { return predicate_->ToString(); }
  const ExprPtr& predicate() const { return predicate_; }

 private:
  ExprPtr predicate_;
};

}  // namespace sqe::exec
