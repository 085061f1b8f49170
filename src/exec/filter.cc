#include "exec/filter.h"

#include "columnar/take.h"
#include "exec/expression_evaluator.h"

namespace sqe::exec {

Filter::Filter(PhysicalOperatorPtr child, ExprPtr predicate)
    : PhysicalOperator("Filter", nullptr, {}),
      predicate_(std::move(predicate)) {
  // The schema is read before the child moves (argument evaluation order is unspecified).
  schema_ = child->schema();
  children_.push_back(std::move(child));
}

Status Filter::Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState&,
                       std::vector<columnar::Batch>* out) {
  SQE_ASSIGN_OR_RETURN(columnar::SelectionVector selection,
                       EvaluatePredicate(*predicate_, input, ctx.eval));
  if (selection.empty()) return Status::OK();
  if (selection.size() == input.num_rows()) {
    out->push_back(input);
    return Status::OK();
  }
  SQE_ASSIGN_OR_RETURN(columnar::Batch kept, columnar::Take(input, selection, ctx.eval.tracker));
  out->push_back(std::move(kept));
  return Status::OK();
}

}  // namespace sqe::exec
