#include "exec/sort.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <string>

#include "columnar/take.h"
#include "exec/batch_concatenate.h"

namespace sqe::exec {

using columnar::Batch;

struct Sort::Run {
  Batch batch;
  EncodedRows keys;
  std::vector<uint32_t> order;
  Reservation reservation;
};

namespace {

struct SinkState : OperatorState {
  std::vector<Batch> batches;
  Reservation reservation;
};

}  // namespace

std::string SortKeysToString(const std::vector<SortKey>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i) out += ", ";
    out += "#" + std::to_string(keys[i].column) + (keys[i].ascending ? " ASC" : " DESC") +
           (keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return out;
}

Sort::Sort(PhysicalOperatorPtr child, std::vector<SortKey> keys)
    : PhysicalOperator("Sort", nullptr, Children(std::move(child), nullptr)),
      keys_(std::move(keys)) {
  schema_ = children_[0]->schema();
}

Sort::~Sort() = default;

std::string Sort::Details() const { return "keys=[" + SortKeysToString(keys_) + "]"; }

Result<std::unique_ptr<OperatorState>> Sort::MakeSinkState(ExecContext& ctx) {
  auto state = std::make_unique<SinkState>();
  SQE_ASSIGN_OR_RETURN(state->reservation, Reservation::Make(MakeTracker(ctx), 0));
  return std::unique_ptr<OperatorState>(std::move(state));
}

Status Sort::Sink(ExecContext&, const Batch& input, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  SQE_RETURN_NOT_OK(s.reservation.Resize(s.reservation.bytes() + BatchBytes(input)));
  s.batches.push_back(input);
  return Status::OK();
}

Status Sort::Combine(ExecContext& ctx, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  if (s.batches.empty()) return Status::OK();
  auto run = std::make_unique<Run>();
  std::shared_ptr<MemoryTracker> tracker = MakeTracker(ctx);
  SQE_ASSIGN_OR_RETURN(run->batch, Concatenate(schema_, s.batches, tracker));
  s.batches.clear();
  s.reservation.Reset();  // the run's buffers are charged by Concatenate now
  SQE_RETURN_NOT_OK(EncodeSortKeys(run->batch, keys_, &run->keys));
  const int64_t rows = run->batch.num_rows();
  // Keys, offsets and order, plus OrderEncodedRows' 16-byte working entries while it sorts.
  SQE_ASSIGN_OR_RETURN(
      run->reservation,
      Reservation::Make(tracker, static_cast<int64_t>(run->keys.bytes.size()) + rows * 24));
  OrderEncodedRows(run->keys, -1, &run->order);
  SQE_RETURN_NOT_OK(
      run->reservation.Resize(static_cast<int64_t>(run->keys.bytes.size()) + rows * 8));
  std::lock_guard<std::mutex> lock(mutex_);
  runs_.push_back(std::move(run));
  return Status::OK();
}

Status Sort::Finalize(ExecContext& ctx) {
  next_ = 0;
  if (runs_.empty()) return Status::OK();
  if (runs_.size() == 1) {
    sorted_input_ = runs_[0]->batch;
    order_ = std::move(runs_[0]->order);
    runs_.clear();
    return Status::OK();
  }
  std::shared_ptr<MemoryTracker> tracker = MakeTracker(ctx);
  std::vector<Batch> batches;
  std::vector<uint32_t> bases;
  uint32_t total = 0;
  for (const auto& run : runs_) {
    batches.push_back(run->batch);
    bases.push_back(total);
    total += static_cast<uint32_t>(run->batch.num_rows());
  }
  SQE_ASSIGN_OR_RETURN(sorted_input_, Concatenate(schema_, batches, tracker));
  batches.clear();
  SQE_ASSIGN_OR_RETURN(order_reservation_, Reservation::Make(tracker, int64_t{total} * 4));
  // K-way merge of the runs' orders on their normalized keys.
  order_.clear();
  order_.reserve(total);
  std::vector<size_t> position(runs_.size(), 0);
  auto key_of = [&](size_t r) { return runs_[r]->keys.row(runs_[r]->order[position[r]]); };
  auto later = [&](size_t a, size_t b) { return key_of(b) < key_of(a); };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (!runs_[r]->order.empty()) heap.push(r);
  }
  while (!heap.empty()) {
    const size_t r = heap.top();
    heap.pop();
    order_.push_back(bases[r] + runs_[r]->order[position[r]]);
    if (++position[r] < runs_[r]->order.size()) heap.push(r);
  }
  runs_.clear();
  return Status::OK();
}

Result<std::unique_ptr<OperatorState>> Sort::MakeSourceState(ExecContext&) {
  return std::make_unique<OperatorState>();
}

Result<std::optional<Batch>> Sort::GetData(ExecContext& ctx, OperatorState&) {
  if (next_ >= order_.size()) return std::optional<Batch>();
  const size_t rows = std::min(order_.size() - next_, static_cast<size_t>(ctx.batch_size));
  columnar::SelectionVector selection(
      std::vector<uint32_t>(order_.begin() + next_, order_.begin() + next_ + rows));
  next_ += rows;
  SQE_ASSIGN_OR_RETURN(Batch out, columnar::Take(sorted_input_, selection, MakeTracker(ctx)));
  return std::optional<Batch>(std::move(out));
}

}  // namespace sqe::exec
