#include "exec/projection.h"

#include "exec/expression_evaluator.h"

namespace sqe::exec {

Projection::Projection(PhysicalOperatorPtr child, std::vector<ExprPtr> expressions,
                       columnar::SchemaPtr schema)
    : PhysicalOperator("Project", std::move(schema), Children(std::move(child))),
      expressions_(std::move(expressions)) {}

Status Projection::Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState&,
                           std::vector<columnar::Batch>* out) {
  std::vector<columnar::Column> columns;
  columns.reserve(expressions_.size());
  for (const ExprPtr& expr : expressions_) {
    if (expr->kind == ExprKind::kColumn) {
      columns.push_back(input.column(expr->column));
      continue;
    }
    SQE_ASSIGN_OR_RETURN(columnar::Column column, Evaluate(*expr, input, ctx.eval));
    columns.push_back(std::move(column));
  }
  SQE_ASSIGN_OR_RETURN(columnar::Batch batch,
                       columnar::Batch::Make(schema_, std::move(columns), input.num_rows()));
  out->push_back(std::move(batch));
  return Status::OK();
}

std::string Projection::Details() const {
  std::string out = "[";
  for (size_t i = 0; i < expressions_.size(); ++i) {
    if (i > 0) out += ", ";
    out += schema_->field(static_cast<int>(i)).name() + " := " + expressions_[i]->ToString();
  }
  return out + "]";
}

}  // namespace sqe::exec
