#pragma once
/// MemoryTracker: hierarchical memory accounting (process -> query -> operator), the
/// gate every sizeable allocation passes before it happens (ARCHITECTURE.md). Operators
/// reserve before they allocate and spill or fail with the ResourceExhausted status the
/// tracker returns, which names the tracker whose limit was hit and the requester.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/result.h"
#include "common/status.h"

namespace sqe {

/// What a tracker accounts for; it names the tracker in error messages.
enum class MemoryScope { kProcess, kWorker, kQuery, kOperator, kOther };

/// "process", "worker", "query", "operator", "memory".
std::string_view MemoryScopeName(MemoryScope scope);

/// A node of the memory accounting tree. A reservation on a tracker is charged to it and
/// to every ancestor, all or nothing: either every level had room (each stays within its
/// limit) or nothing is charged and the call returns ResourceExhausted.
///
/// Thread safety: every method is safe to call concurrently. The hot path (TryReserve,
/// Release, the getters) is lock-free (atomics, no mutex); usage stays exact under
/// concurrency and no level ever exceeds its limit, even transiently.
///
/// Ownership: trackers live in std::shared_ptr; a child keeps its parent alive, so
/// anything holding a tracker (a Buffer, a Reservation) may outlive the code that made
/// it. A tracker destroyed while still charged returns the remainder to its ancestors
/// (a leak in one query must not shrink the process budget forever).
class MemoryTracker : public std::enable_shared_from_this<MemoryTracker> {
 public:
  /// `limit` in bytes; 0 means unlimited. `limit_setting` optionally names the config
  /// field that sets the limit ("query.max_query_memory"); errors then point at it.
  struct Options {
    MemoryScope scope = MemoryScope::kOther;
    std::string label;
    int64_t limit = 0;
    std::string limit_setting;
  };

  /// A tracker without a parent (the process, or a standalone one in tests).
  static std::shared_ptr<MemoryTracker> Create(Options options);
  static std::shared_ptr<MemoryTracker> Create(MemoryScope scope, std::string label,
                                               int64_t limit = 0);

  /// A tracker whose reservations are also charged to this one (and its ancestors).
  std::shared_ptr<MemoryTracker> CreateChild(Options options);
  std::shared_ptr<MemoryTracker> CreateChild(MemoryScope scope, std::string label,
                                             int64_t limit = 0);

  ~MemoryTracker();
  MemoryTracker(const MemoryTracker&) = delete;
  MemoryTracker& operator=(const MemoryTracker&) = delete;

  /// Charges `bytes` (>= 0) to this tracker and every ancestor, or nothing when any of
  /// them would exceed its limit: then ResourceExhausted, e.g. "query 'q7' memory limit
  /// 256MB exceeded by operator 'hash_aggregate' (requested 64MB, in use 220MB)".
  Status TryReserve(int64_t bytes);

  /// Returns `bytes` previously reserved here (to this tracker and every ancestor).
  /// Releasing more than is in use is a caller bug (asserted in debug builds).
  void Release(int64_t bytes);

  /// Bytes charged to this tracker now (its own reservations and its descendants').
  int64_t current() const { return current_.load(std::memory_order_relaxed); }
  /// The highest current() seen since creation (or the last ResetPeak()).
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  /// The limit in bytes; 0 = unlimited.
  int64_t limit() const { return limit_.load(std::memory_order_relaxed); }
  /// Changes the limit; reservations already made stay (current() may exceed it until
  /// enough is released).
  void SetLimit(int64_t limit) { limit_.store(limit < 0 ? 0 : limit, std::memory_order_relaxed); }
  /// Bytes this tracker could still reserve, considering every ancestor's limit too
  /// (INT64_MAX when no level is limited). A snapshot: racing reservers may take it.
  int64_t Available() const;
  void ResetPeak() { peak_.store(current(), std::memory_order_relaxed); }

  MemoryScope scope() const { return scope_; }
  const std::string& label() const { return label_; }
  const std::shared_ptr<MemoryTracker>& parent() const { return parent_; }
  /// "operator 'hash_aggregate'", or just "process" when the label is empty.
  std::string Describe() const;

 private:
  MemoryTracker(Options options, std::shared_ptr<MemoryTracker> parent);

  // Charges this level only; false when the limit does not allow it.
  bool TryChargeSelf(int64_t bytes);
  Status LimitExceeded(const MemoryTracker& limited, int64_t bytes, int64_t in_use) const;

  const MemoryScope scope_;
  const std::string label_;
  const std::string limit_setting_;
  const std::shared_ptr<MemoryTracker> parent_;
  std::atomic<int64_t> limit_;
  std::atomic<int64_t> current_{0};
  std::atomic<int64_t> peak_{0};
};

/// RAII ownership of bytes reserved on a tracker: released when the Reservation is
/// destroyed (or reset). Movable, not copyable. Not thread-safe itself (one owner);
/// the tracker it charges is.
class Reservation {
 public:
  Reservation() = default;
  /// Reserves `bytes` on `tracker` (nullptr: an untracked, always-successful reservation).
  static Result<Reservation> Make(std::shared_ptr<MemoryTracker> tracker, int64_t bytes);

  Reservation(Reservation&& other) noexcept;
  Reservation& operator=(Reservation&& other) noexcept;
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() { Reset(); }

  /// Grows or shrinks the reservation to `bytes`; on failure the old size stays.
  Status Resize(int64_t bytes);
  /// Releases everything held (the tracker stays attached; Resize can grow again).
  void Reset();

  int64_t bytes() const { return bytes_; }
  const std::shared_ptr<MemoryTracker>& tracker() const { return tracker_; }

 private:
  Reservation(std::shared_ptr<MemoryTracker> tracker, int64_t bytes)
      : tracker_(std::move(tracker)), bytes_(bytes) {}

  std::shared_ptr<MemoryTracker> tracker_;
  int64_t bytes_ = 0;
};

}  // namespace sqe
