#include "exec/top_n.h"

#include <algorithm>
#include <limits>
#include <string>

#include "columnar/take.h"
#include "exec/batch_concatenate.h"
#include "exec/sort.h"

namespace sqe::exec {

using columnar::Batch;

namespace {

struct SinkState : OperatorState {
  std::vector<Batch> batches;
  int64_t rows = 0;
  Reservation reservation;
};

}  // namespace

TopN::TopN(PhysicalOperatorPtr child, std::vector<SortKey> keys, int64_t limit, int64_t offset)
    : PhysicalOperator("TopN", nullptr, Children(std::move(child), nullptr)),
      keys_(std::move(keys)),
      limit_(std::max<int64_t>(0, limit)),
      offset_(std::max<int64_t>(0, offset)) {
  schema_ = children_[0]->schema();
  keep_ = limit_ > std::numeric_limits<int64_t>::max() - offset_
              ? std::numeric_limits<int64_t>::max()
              : limit_ + offset_;
}

TopN::~TopN() = default;

std::string TopN::Details() const {
  std::string out = "keys=[" + SortKeysToString(keys_) + "], limit=" + std::to_string(limit_);
  if (offset_ > 0) out += ", offset=" + std::to_string(offset_);
  return out;
}

std::shared_ptr<MemoryTracker> TopN::Tracker(ExecContext& ctx) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (tracker_ == nullptr) {
    tracker_ = MakeTracker(ctx);
    reservation_ = std::move(Reservation::Make(tracker_, 0)).value();
  }
  return tracker_;
}

Result<std::optional<Batch>> TopN::Best(const std::vector<Batch>& batches, int64_t keep,
                                        int64_t skip) {
  int64_t rows = 0;
  for (const auto& b : batches) rows += b.num_rows();
  if (rows == 0 || keep <= skip) return std::optional<Batch>();
  SQE_ASSIGN_OR_RETURN(Batch all, Concatenate(schema_, batches, tracker_));
  SQE_ASSIGN_OR_RETURN(std::vector<uint32_t> order, SortedRowOrder(all, keys_, keep));
  if (static_cast<int64_t>(order.size()) <= skip) return std::optional<Batch>();
  order.erase(order.begin(), order.begin() + skip);
  SQE_ASSIGN_OR_RETURN(Batch best,
                       columnar::Take(all, columnar::SelectionVector(std::move(order)), tracker_));
  return std::optional<Batch>(std::move(best));
}

Result<std::unique_ptr<OperatorState>> TopN::MakeSinkState(ExecContext& ctx) {
  auto state = std::make_unique<SinkState>();
  SQE_ASSIGN_OR_RETURN(state->reservation, Reservation::Make(Tracker(ctx), 0));
  return std::unique_ptr<OperatorState>(std::move(state));
}

Status TopN::Sink(ExecContext& ctx, const Batch& input, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  if (keep_ == 0) return Status::OK();
  SQE_RETURN_NOT_OK(s.reservation.Resize(s.reservation.bytes() + BatchBytes(input)));
  s.batches.push_back(input);
  s.rows += input.num_rows();
  const int64_t threshold =
      std::max<int64_t>(ctx.batch_size, keep_ > (INT64_MAX / 2) ? keep_ : 2 * keep_);
  if (s.rows > threshold) {
    SQE_ASSIGN_OR_RETURN(std::optional<Batch> best, Best(s.batches, keep_, 0));
    s.batches.clear();
    s.rows = 0;
    s.reservation.Reset();
    if (best) {
      SQE_RETURN_NOT_OK(s.reservation.Resize(BatchBytes(*best)));
      s.rows = best->num_rows();
      s.batches.push_back(std::move(*best));
    }
  }
  return Status::OK();
}

Status TopN::Combine(ExecContext&, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  if (s.batches.empty()) return Status::OK();
  SQE_ASSIGN_OR_RETURN(std::optional<Batch> best, Best(s.batches, keep_, 0));
  s.batches.clear();
  s.reservation.Reset();
  if (!best) return Status::OK();
  std::lock_guard<std::mutex> lock(mutex_);
  SQE_RETURN_NOT_OK(reservation_.Resize(reservation_.bytes() + BatchBytes(*best)));
  candidates_.push_back(std::move(*best));
  return Status::OK();
}

Status TopN::Finalize(ExecContext& ctx) {
  next_ = 0;
  Tracker(ctx);
  SQE_ASSIGN_OR_RETURN(result_, Best(candidates_, keep_, offset_));
  candidates_.clear();
  return Status::OK();
}

Result<std::unique_ptr<OperatorState>> TopN::MakeSourceState(ExecContext&) {
  return std::make_unique<OperatorState>();
}

Result<std::optional<Batch>> TopN::GetData(ExecContext& ctx, OperatorState&) {
  if (!result_ || next_ >= result_->num_rows()) return std::optional<Batch>();
  const int64_t rows = std::min(ctx.batch_size, result_->num_rows() - next_);
  Batch out = result_->Slice(next_, rows);
  next_ += rows;
  return std::optional<Batch>(std::move(out));
}

}  // namespace sqe::exec
