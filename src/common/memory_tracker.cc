#include "common/memory_tracker.h"

#include <algorithm>
#include <cassert>
#include <cinttypes>
#include <cstdio>
#include <limits>

#include "common/logging.h"

namespace sqe {
namespace {

// Sizes for people: exact units when they divide ("256MB"), else one decimal ("220.5MB").
std::string HumanBytes(int64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  if (bytes < 1024) return std::to_string(bytes) + "B";
  int unit = 0;
  int64_t divisor = 1;
  while (unit < 6 && bytes / divisor >= 1024) {
    divisor *= 1024;
    ++unit;
  }
  char buf[48];
  if (bytes % divisor == 0) {
    std::snprintf(buf, sizeof(buf), "%" PRId64 "%s", bytes / divisor, kUnits[unit]);
  } else {
    std::snprintf(buf, sizeof(buf), "%.1f%s", static_cast<double>(bytes) / divisor, kUnits[unit]);
  }
  return buf;
}

}  // namespace

std::string_view MemoryScopeName(MemoryScope scope) {
  switch (scope) {
    case MemoryScope::kProcess:
      return "process";
    case MemoryScope::kWorker:
      return "worker";
    case MemoryScope::kQuery:
      return "query";
    case MemoryScope::kOperator:
      return "operator";
    case MemoryScope::kOther:
      return "memory";
  }
  return "memory";
}

MemoryTracker::MemoryTracker(Options options, std::shared_ptr<MemoryTracker> parent)
    : scope_(options.scope),
      label_(std::move(options.label)),
      limit_setting_(std::move(options.limit_setting)),
      parent_(std::move(parent)),
      limit_(options.limit < 0 ? 0 : options.limit) {}

std::shared_ptr<MemoryTracker> MemoryTracker::Create(Options options) {
  return std::shared_ptr<MemoryTracker>(new MemoryTracker(std::move(options), nullptr));
}

std::shared_ptr<MemoryTracker> MemoryTracker::Create(MemoryScope scope, std::string label,
                                                     int64_t limit) {
  return Create(Options{scope, std::move(label), limit, {}});
}

std::shared_ptr<MemoryTracker> MemoryTracker::CreateChild(Options options) {
  // Every tracker comes from Create*, so shared_from_this() is always valid here.
  return std::shared_ptr<MemoryTracker>(new MemoryTracker(std::move(options), shared_from_this()));
}

std::shared_ptr<MemoryTracker> MemoryTracker::CreateChild(MemoryScope scope, std::string label,
                                                          int64_t limit) {
  return CreateChild(Options{scope, std::move(label), limit, {}});
}

MemoryTracker::~MemoryTracker() {
  // Descendants keep this tracker alive, so what is left is this level's own charge.
  const int64_t leaked = current_.load(std::memory_order_relaxed);
  if (leaked > 0) {
    log::Warn("memory.tracker_leak", {{"tracker", Describe()}, {"bytes", leaked}});
    for (MemoryTracker* t = parent_.get(); t != nullptr; t = t->parent_.get()) {
      t->current_.fetch_sub(leaked, std::memory_order_relaxed);
    }
  }
}

bool MemoryTracker::TryChargeSelf(int64_t bytes) {
  const int64_t limit = limit_.load(std::memory_order_relaxed);
  int64_t cur = current_.load(std::memory_order_relaxed);
  int64_t next;
  do {
    if (bytes > std::numeric_limits<int64_t>::max() - cur) return false;
    next = cur + bytes;
    if (limit > 0 && next > limit) return false;
  } while (!current_.compare_exchange_weak(cur, next, std::memory_order_relaxed));
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (next > peak && !peak_.compare_exchange_weak(peak, next, std::memory_order_relaxed)) {
  }
  return true;
}

Status MemoryTracker::TryReserve(int64_t bytes) {
  assert(bytes >= 0);
  if (bytes <= 0) return Status::OK();
  for (MemoryTracker* t = this; t != nullptr; t = t->parent_.get()) {
    if (!t->TryChargeSelf(bytes)) {
      const int64_t in_use = t->current();
      for (MemoryTracker* u = this; u != t; u = u->parent_.get()) {
        u->current_.fetch_sub(bytes, std::memory_order_relaxed);
      }
      return LimitExceeded(*t, bytes, in_use);
    }
  }
  return Status::OK();
}

void MemoryTracker::Release(int64_t bytes) {
  assert(bytes >= 0);
  if (bytes <= 0) return;
  for (MemoryTracker* t = this; t != nullptr; t = t->parent_.get()) {
    [[maybe_unused]] const int64_t before = t->current_.fetch_sub(bytes, std::memory_order_relaxed);
    assert(before >= bytes && "MemoryTracker::Release of more than was reserved");
  }
}

int64_t MemoryTracker::Available() const {
  int64_t available = std::numeric_limits<int64_t>::max();
  for (const MemoryTracker* t = this; t != nullptr; t = t->parent_.get()) {
    const int64_t limit = t->limit();
    if (limit == 0) continue;
    const int64_t room = limit - t->current();
    available = std::min(available, room < 0 ? 0 : room);
  }
  return available;
}

std::string MemoryTracker::Describe() const {
  std::string out(MemoryScopeName(scope_));
  if (!label_.empty()) {
    out += " '";
    out += label_;
    out += "'";
  }
  return out;
}

Status MemoryTracker::LimitExceeded(const MemoryTracker& limited, int64_t bytes,
                                    int64_t in_use) const {
  std::string msg = limited.Describe();
  msg += " memory limit ";
  msg += HumanBytes(limited.limit());
  msg += " exceeded";
  if (&limited != this) {
    msg += " by ";
    msg += Describe();
  }
  msg += " (requested ";
  msg += HumanBytes(bytes);
  msg += ", in use ";
  msg += HumanBytes(in_use);
  msg += ")";
  if (!limited.limit_setting_.empty()) {
    msg += "; raise ";
    msg += limited.limit_setting_;
    msg += " or lower the memory the statement needs";
  }
  return Status::ResourceExhausted(std::move(msg));
}

Result<Reservation> Reservation::Make(std::shared_ptr<MemoryTracker> tracker, int64_t bytes) {
  if (bytes < 0) return Status::InvalidArgument("memory reservation of negative size");
  if (tracker != nullptr) SQE_RETURN_NOT_OK(tracker->TryReserve(bytes));
  return Reservation(std::move(tracker), bytes);
}

Reservation::Reservation(Reservation&& other) noexcept
    : tracker_(std::move(other.tracker_)), bytes_(other.bytes_) {
  other.bytes_ = 0;
}

Reservation& Reservation::operator=(Reservation&& other) noexcept {
  if (this != &other) {
    Reset();
    tracker_ = std::move(other.tracker_);
    bytes_ = other.bytes_;
    other.bytes_ = 0;
  }
  return *this;
}

Status Reservation::Resize(int64_t bytes) {
  if (bytes < 0) return Status::InvalidArgument("memory reservation of negative size");
  if (tracker_ != nullptr) {
    if (bytes > bytes_) {
      SQE_RETURN_NOT_OK(tracker_->TryReserve(bytes - bytes_));
    } else if (bytes < bytes_) {
      tracker_->Release(bytes_ - bytes);
    }
  }
  bytes_ = bytes;
  return Status::OK();
}

void Reservation::Reset() {
  if (tracker_ != nullptr && bytes_ > 0) tracker_->Release(bytes_);
  bytes_ = 0;
}

}  // namespace sqe
