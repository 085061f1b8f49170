#include "exec/unnest.h"

#include <algorithm>

#include "columnar/bit_util.h"
#include "columnar/take.h"
#include "exec/expression_evaluator.h"
#include "exec/functions/interleave.h"

namespace sqe::exec {

using columnar::Batch;
using columnar::Column;
using columnar::TypeId;

namespace {

/// An array of rows unnests into one column per field of the row.
bool IsRowList(const Column& array) {
  return array.type_id() == TypeId::kList &&
         array.type()->value_field().type()->id() == TypeId::kStruct;
}

}  // namespace

/// Per-thread state: the tracker output buffers are charged to and the positions of the
/// output batch being gathered (input row, element of each array, ordinal).
class Unnest::State : public OperatorState {
 public:
  std::shared_ptr<MemoryTracker> tracker;
  EvalContext eval;
  /// Charged for the position vectors below (they hold up to batch_size entries each).
  Reservation positions_reservation;
  columnar::SelectionVector input_rows;
  /// Per array: row of the list's values child (-1 piece: past the end, NULL).
  std::vector<std::vector<int32_t>> piece;
  std::vector<std::vector<uint32_t>> element;
  /// 1-based position; 0 for the NULL row of an outer unnest.
  std::vector<int64_t> ordinal;

  int64_t size() const { return input_rows.size(); }
  void Clear() {
    input_rows.Clear();
    for (auto& p : piece) p.clear();
    for (auto& e : element) e.clear();
    ordinal.clear();
  }
};

Unnest::Unnest(PhysicalOperatorPtr child, std::vector<ExprPtr> arrays, bool with_ordinality,
               bool outer, columnar::SchemaPtr schema)
    : PhysicalOperator("Unnest", std::move(schema), Children(std::move(child))),
      arrays_(std::move(arrays)),
      with_ordinality_(with_ordinality),
      outer_(outer) {}

Result<std::unique_ptr<OperatorState>> Unnest::MakeOperatorState(ExecContext& ctx) {
  auto state = std::make_unique<State>();
  state->tracker = MakeTracker(ctx);
  state->eval = ctx.eval;
  state->eval.tracker = state->tracker;
  const int64_t n = std::max<int64_t>(1, ctx.batch_size);
  const int64_t bytes =
      n * static_cast<int64_t>(sizeof(uint32_t) + sizeof(int64_t) +
                               arrays_.size() * (sizeof(int32_t) + sizeof(uint32_t)));
  SQE_ASSIGN_OR_RETURN(state->positions_reservation, Reservation::Make(state->tracker, bytes));
  state->input_rows.Reserve(n);
  state->piece.resize(arrays_.size());
  state->element.resize(arrays_.size());
  for (size_t a = 0; a < arrays_.size(); ++a) {
    state->piece[a].reserve(static_cast<size_t>(n));
    state->element[a].reserve(static_cast<size_t>(n));
  }
  state->ordinal.reserve(static_cast<size_t>(n));
  return std::unique_ptr<OperatorState>(std::move(state));
}

Status Unnest::Execute(ExecContext& ctx, const Batch& input, OperatorState& state,
                       std::vector<Batch>* out) {
  return ExecuteStreaming(ctx, input, state, [out](const Batch& b) {
    out->push_back(b);
    return Status::OK();
  });
}

Status Unnest::ExecuteStreaming(ExecContext& ctx, const Batch& input, OperatorState& base,
                                const std::function<Status(const Batch&)>& emit) {
  auto& state = static_cast<State&>(base);
  const int64_t batch_size = std::max<int64_t>(1, ctx.batch_size);
  std::vector<Column> arrays;
  arrays.reserve(arrays_.size());
  for (const ExprPtr& e : arrays_) {
    if (e->kind == ExprKind::kColumn) {
      arrays.push_back(input.column(e->column));
    } else {
      SQE_ASSIGN_OR_RETURN(Column c, Evaluate(*e, input, state.eval));
      arrays.push_back(std::move(c));
    }
    const TypeId id = arrays.back().type_id();
    if (id != TypeId::kList && id != TypeId::kMap) {
      return Status::InvalidArgument("Cannot unnest type: " + arrays.back().type()->ToString());
    }
  }
  state.Clear();
  auto flush = [&]() -> Status {
    SQE_ASSIGN_OR_RETURN(Batch batch, Flush(input, arrays, state));
    state.Clear();
    SQE_RETURN_NOT_OK(emit(batch));
    return ctx.CheckInterrupt();
  };
  const size_t num_arrays = arrays.size();
  std::vector<int64_t> start(num_arrays), length(num_arrays);
  for (int64_t r = 0; r < input.num_rows(); ++r) {
    int64_t rows = 0;
    for (size_t a = 0; a < num_arrays; ++a) {
      const Column& c = arrays[a];
      length[a] = c.IsNull(r) ? 0 : c.ListLength(r);
      start[a] = c.IsNull(r) ? 0 : c.ListStart(r);
      rows = std::max(rows, length[a]);
    }
    if (rows == 0 && outer_) {
      state.input_rows.Append(static_cast<uint32_t>(r));
      for (size_t a = 0; a < num_arrays; ++a) {
        state.piece[a].push_back(-1);
        state.element[a].push_back(0);
      }
      state.ordinal.push_back(0);
      if (state.size() >= batch_size) SQE_RETURN_NOT_OK(flush());
      continue;
    }
    for (int64_t k = 0; k < rows; ++k) {
      state.input_rows.Append(static_cast<uint32_t>(r));
      for (size_t a = 0; a < num_arrays; ++a) {
        const bool present = k < length[a];
        state.piece[a].push_back(present ? 0 : -1);
        state.element[a].push_back(present ? static_cast<uint32_t>(start[a] + k) : 0);
      }
      state.ordinal.push_back(k + 1);
      if (state.size() >= batch_size) SQE_RETURN_NOT_OK(flush());
    }
  }
  if (state.size() > 0) SQE_RETURN_NOT_OK(flush());
  return Status::OK();
}

Result<Batch> Unnest::Flush(const Batch& input, const std::vector<Column>& arrays,
                            State& state) const {
  const int64_t rows = state.size();
  std::vector<Column> columns;
  columns.reserve(static_cast<size_t>(schema_->num_fields()));
  // The input's columns, each input row repeated once per output row it produced.
  bool identity = rows == input.num_rows();
  for (int64_t i = 0; identity && i < rows; ++i)
    identity = state.input_rows[i] == static_cast<uint32_t>(i);
  for (int c = 0; c < input.num_columns(); ++c) {
    if (identity) {
      columns.push_back(input.column(c));
      continue;
    }
    SQE_ASSIGN_OR_RETURN(Column taken,
                         columnar::Take(input.column(c), state.input_rows, state.tracker));
    columns.push_back(std::move(taken));
  }
  // The unnested elements (a map: its keys, then its values).
  for (size_t a = 0; a < arrays.size(); ++a) {
    const Column& array = arrays[a];
    std::vector<Column> sources;
    const int32_t* piece = state.piece[a].data();
    std::vector<int32_t> row_piece;
    if (array.type_id() == TypeId::kMap) {
      sources = {array.MapKeys(), array.MapItems()};
    } else if (IsRowList(array)) {
      // An array of rows: one column per field; a NULL row makes every field NULL.
      const Column values = array.ListValues();
      for (int f = 0; f < values.type()->num_fields(); ++f)
        sources.push_back(values.StructField(f));
      row_piece.assign(state.piece[a].begin(), state.piece[a].end());
      for (int64_t i = 0; i < rows; ++i) {
        if (row_piece[i] >= 0 && values.IsNull(state.element[a][i])) row_piece[i] = -1;
      }
      piece = row_piece.data();
    } else {
      sources = {array.ListValues()};
    }
    for (const Column& source : sources) {
      std::vector<Column> pieces = {source};
      SQE_ASSIGN_OR_RETURN(Column values, Interleave(source.type(), pieces, piece,
                                                     state.element[a].data(), rows, state.eval));
      columns.push_back(std::move(values));
    }
  }
  if (with_ordinality_) {
    SQE_ASSIGN_OR_RETURN(auto values,
                         columnar::Buffer::AllocateUninitialized(
                             rows * static_cast<int64_t>(sizeof(int64_t)), state.tracker));
    std::copy(state.ordinal.begin(), state.ordinal.end(), values->mutable_data_as<int64_t>());
    columnar::BufferPtr validity;
    int64_t nulls = 0;
    for (int64_t i = 0; i < rows; ++i) nulls += state.ordinal[i] == 0 ? 1 : 0;
    if (nulls > 0) {
      SQE_ASSIGN_OR_RETURN(auto bits,
                           columnar::Buffer::Allocate(columnar::BytesForBits(rows), state.tracker));
      for (int64_t i = 0; i < rows; ++i) {
        if (state.ordinal[i] != 0) columnar::SetBit(bits->mutable_data(), i);
      }
      validity = std::move(bits);
    }
    SQE_ASSIGN_OR_RETURN(
        Column ordinal,
        Column::Make(columnar::Int64(), rows, {std::move(validity), std::move(values)}, {}, nulls));
    columns.push_back(std::move(ordinal));
  }
  return Batch::Make(schema_, std::move(columns), rows);
}

std::string Unnest::Details() const {
  std::string out = "[";
  for (size_t i = 0; i < arrays_.size(); ++i) {
    if (i > 0) out += ", ";
    out += arrays_[i]->ToString();
  }
  out += "]";
  if (with_ordinality_) out += " with_ordinality";
  if (outer_) out += " outer";
  return out;
}

}  // namespace sqe::exec
