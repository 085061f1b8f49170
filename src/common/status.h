#pragma once
/// Status: the outcome of a fallible call across a module boundary (ARCHITECTURE.md).
/// A Status is either OK or carries a code and a message meant for the user; protocol
/// layers map the codes to gRPC / Trino error codes in one place each.

#include <memory>
#include <string>
#include <string_view>

namespace sqe {

/// The error categories every layer shares. Keep in sync with StatusCodeName().
enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument,
  kNotFound,
  kAlreadyExists,
  kPermissionDenied,
  kUnauthenticated,
  kResourceExhausted,
  kConflict,
  kCancelled,
  kDeadlineExceeded,
  kIOError,
  kCorruption,
  kNotImplemented,
  kInternal,
};

/// The stable name of a code, e.g. "InvalidArgument".
std::string_view StatusCodeName(StatusCode code);

/// A cheap-to-copy success-or-error value. OK statuses hold no allocation.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message);

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return {StatusCode::kInvalidArgument, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) { return {StatusCode::kAlreadyExists, std::move(msg)}; }
  static Status PermissionDenied(std::string msg) { return {StatusCode::kPermissionDenied, std::move(msg)}; }
  static Status Unauthenticated(std::string msg) { return {StatusCode::kUnauthenticated, std::move(msg)}; }
  static Status ResourceExhausted(std::string msg) { return {StatusCode::kResourceExhausted, std::move(msg)}; }
  static Status Conflict(std::string msg) { return {StatusCode::kConflict, std::move(msg)}; }
  static Status Cancelled(std::string msg) { return {StatusCode::kCancelled, std::move(msg)}; }
  static Status DeadlineExceeded(std::string msg) { return {StatusCode::kDeadlineExceeded, std::move(msg)}; }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status Corruption(std::string msg) { return {StatusCode::kCorruption, std::move(msg)}; }
  static Status NotImplemented(std::string msg) { return {StatusCode::kNotImplemented, std::move(msg)}; }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  /// The user-facing message ("" for OK).
  const std::string& message() const;
  /// "Code: message", or "OK".
  std::string ToString() const;

  /// Returns a copy whose message is "<context>: <message>"; OK stays OK.
  Status WithContext(std::string_view context) const;

  bool operator==(const Status& other) const {
    return code() == other.code() && message() == other.message();
  }

 private:
  struct State {
    StatusCode code;
    std::string message;
  };
  std::shared_ptr<const State> state_;
};

}  // namespace sqe

/// Returns from the enclosing function when `expr` (a Status) is not OK.
#define SQE_RETURN_NOT_OK(expr)            \
  do {                                     \
    ::sqe::Status _sqe_st = (expr);        \
    if (!_sqe_st.ok()) return _sqe_st;     \
  } while (false)
