#include "exec/set_operation.h"

#include <algorithm>

#include "columnar/take.h"

namespace sqe::exec {

SetOperationOutput::SetOperationOutput(PhysicalOperatorPtr child, Kind kind, bool all,
                                       columnar::SchemaPtr schema)
    : PhysicalOperator(kind == Kind::kIntersect ? "Intersect" : "Except", std::move(schema),
                       Children(std::move(child))),
      kind_(kind),
      all_(all) {}

std::string SetOperationOutput::Details() const { return all_ ? "ALL" : "DISTINCT"; }

Status SetOperationOutput::Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState&,
                                   std::vector<columnar::Batch>* out) {
  const int values = schema_->num_fields();
  const columnar::Column& left = input.column(values);
  const columnar::Column& right = input.column(values + 1);
  columnar::SelectionVector selection;
  for (int64_t r = 0; r < input.num_rows(); ++r) {
    int64_t l = left.IsNull(r) ? 0 : left.Value<int64_t>(r);
    int64_t rc = right.IsNull(r) ? 0 : right.Value<int64_t>(r);
    int64_t times;
    if (kind_ == Kind::kIntersect) {
      times = all_ ? std::min(l, rc) : (l > 0 && rc > 0 ? 1 : 0);
    } else {
      times = all_ ? std::max<int64_t>(l - rc, 0) : (l > 0 && rc == 0 ? 1 : 0);
    }
    for (int64_t i = 0; i < times; ++i) selection.Append(static_cast<uint32_t>(r));
  }
  if (selection.empty()) return Status::OK();
  std::vector<columnar::Column> columns;
  for (int c = 0; c < values; ++c) {
    SQE_ASSIGN_OR_RETURN(columnar::Column column,
                         columnar::Take(input.column(c), selection, ctx.eval.tracker));
    columns.push_back(std::move(column));
  }
  SQE_ASSIGN_OR_RETURN(columnar::Batch batch,
                       columnar::Batch::Make(schema_, std::move(columns), selection.size()));
  out->push_back(std::move(batch));
  return Status::OK();
}

}  // namespace sqe::exec
