#pragma once
/// Result<T>: a value or the Status explaining why there is none. Returned by every
/// fallible call that produces something, across module boundaries.

#include <cassert>
#include <optional>
#include <utility>

#include "common/status.h"

namespace sqe {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    if (status_.ok()) status_ = Status::Internal("Result constructed from an OK status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  /// The value; only valid when ok().
  T& value() & { assert(ok()); return *value_; }
  const T& value() const& { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The value, or `fallback` when this holds an error.
  T ValueOr(T fallback) const& { return ok() ? *value_ : std::move(fallback); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace sqe

#define SQE_CONCAT_INNER(a, b) a##b
#define SQE_CONCAT(a, b) SQE_CONCAT_INNER(a, b)

/// `SQE_ASSIGN_OR_RETURN(auto x, F())`: on error returns F()'s status, else binds the value.
#define SQE_ASSIGN_OR_RETURN(lhs, expr) \
  SQE_ASSIGN_OR_RETURN_IMPL(SQE_CONCAT(_sqe_result_, __LINE__), lhs, expr)
#define SQE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
