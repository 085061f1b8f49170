#pragma once
/// Projection: a streaming operator computing one output column per expression over
/// the child's columns (column references pass through without copying).

#include "exec/expression.h"
#include "exec/physical_operator.h"

namespace sqe::exec {

class Projection : public PhysicalOperator {
 public:
  /// `expressions` refer to the child's columns by index; `schema` names the outputs.
  Projection(PhysicalOperatorPtr child, std::vector<ExprPtr> expressions,
             columnar::SchemaPtr schema);

  Status Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
                 std::vector<columnar::Batch>* out) override;
  std::string Details() const override;

 private:
  std::vector<ExprPtr> expressions_;
};

}  // namespace sqe::exec
