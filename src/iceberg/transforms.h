#pragma once
/// Iceberg partition transforms (spec "Partition Transforms", "Bucket Transform Details",
/// "Truncate Transform Details", Appendix B): parsing/printing their JSON names, the
/// result type for a source type, and applying one to a value. Transforms this engine
/// does not know are kept verbatim (kUnknown), as v3 requires readers to tolerate them;
/// they cannot be applied. Value type, thread-safe.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "iceberg/literal.h"
#include "iceberg/types.h"

namespace sqe::iceberg {

enum class TransformKind : uint8_t {
  kIdentity,
  kBucket,
  kTruncate,
  kYear,
  kMonth,
  kDay,
  kHour,
  kVoid,
  kUnknown,
};

class Transform {
 public:
  static Transform Identity() { return Transform(TransformKind::kIdentity, 0); }
  static Transform Bucket(int32_t num_buckets) {
    return Transform(TransformKind::kBucket, num_buckets);
  }
  static Transform Truncate(int32_t width) { return Transform(TransformKind::kTruncate, width); }
  static Transform Year() { return Transform(TransformKind::kYear, 0); }
  static Transform Month() { return Transform(TransformKind::kMonth, 0); }
  static Transform Day() { return Transform(TransformKind::kDay, 0); }
  static Transform Hour() { return Transform(TransformKind::kHour, 0); }
  static Transform Void() { return Transform(TransformKind::kVoid, 0); }

  /// "identity", "bucket[16]", "truncate[10]", "year", "month", "day", "hour", "void"
  /// (whitespace and case tolerated). A name not in that list becomes kUnknown holding
  /// the text; "bucket[0]" or "truncate[x]" is InvalidArgument (N and W must be > 0).
  static Result<Transform> Parse(std::string_view text);

  TransformKind kind() const { return kind_; }
  /// N of bucket[N], W of truncate[W]; 0 otherwise.
  int32_t param() const { return param_; }
  /// The canonical JSON name; an unknown transform prints its original text.
  std::string ToString() const;

  /// Whether the transform accepts values of `source` (spec's "Source types" column).
  bool CanTransform(const Type& source) const;
  /// The partition value type for a source type; InvalidArgument when not applicable.
  Result<TypePtr> ResultType(const TypePtr& source) const;
  /// The partition value of `value` (whose type is the source type). Null gives null.
  /// Errors: InvalidArgument (type not accepted, result out of int range),
  /// NotImplemented (unknown transform).
  Result<Literal> Apply(const Literal& value) const;

  friend bool operator==(const Transform& a, const Transform& b) {
    return a.kind_ == b.kind_ && a.param_ == b.param_ && a.unknown_text_ == b.unknown_text_;
  }

 private:
  Transform(TransformKind kind, int32_t param) : kind_(kind), param_(param) {}

  TransformKind kind_;
  int32_t param_;
  std::string unknown_text_;
};

/// The spec's 32-bit hash of a value (Appendix B), as Java's signed int: both tables,
/// so boolean/float/double hash too although they are not valid bucket sources.
/// InvalidArgument for null, variant, geometry, geography, nested values.
Result<int32_t> HashValue(const Literal& value);

}  // namespace sqe::iceberg
