#pragma once
/// Unnest: a streaming operator that expands array and map values into rows (SQL's
/// UNNEST). For every input row it evaluates the array expressions and emits as many
/// rows as the longest of them has elements: the input's columns repeated, then one
/// column per array (its elements, NULL past the end of a shorter array; a map gives two
/// columns, its keys and its values; an array of rows gives one column per field, all
/// NULL for a NULL row), then, WITH ORDINALITY, a 1-based bigint position.
/// A NULL or empty array has no elements; an input row whose arrays are all empty
/// produces no row, or with `outer` (LEFT JOIN UNNEST ... ON true) one row whose
/// unnested columns (and ordinality) are NULL.
///
/// Output batches hold at most ExecContext::batch_size rows, however large one array is;
/// they are handed on as they are made (ExecuteStreaming), so the operator never holds
/// more than one output batch. Result buffers are charged to a per-thread child tracker.

#include <memory>
#include <string>
#include <vector>

#include "exec/expression.h"
#include "exec/physical_operator.h"

namespace sqe::exec {

class Unnest : public PhysicalOperator {
 public:
  /// `arrays` are evaluated over the child's columns (by index) and must be of list or
  /// map type. `schema`: the child's columns, then the unnested columns (one per list,
  /// two per map, one per field for a list of rows), then the ordinality column when
  /// `with_ordinality`.
  Unnest(PhysicalOperatorPtr child, std::vector<ExprPtr> arrays, bool with_ordinality, bool outer,
         columnar::SchemaPtr schema);

  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
                 std::vector<columnar::Batch>* out) override;
  Status ExecuteStreaming(ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
                          const std::function<Status(const columnar::Batch&)>& emit) override;
  std::string Details() const override;

 private:
  class State;
  /// Builds one output batch from the gathered row positions in `state`.
  Result<columnar::Batch> Flush(const columnar::Batch& input,
                                const std::vector<columnar::Column>& arrays, State& state) const;

  std::vector<ExprPtr> arrays_;
  bool with_ordinality_;
  bool outer_;
};

}  // namespace sqe::exec
