#pragma once
/// StatValue: one Parquet value in the order its column's statistics use (parquet.thrift,
/// ColumnOrder TYPE_ORDER): exact numbers (signed and unsigned integers, decimals, dates,
/// times, timestamps) as an unscaled 128-bit integer with a decimal scale, so that values
/// of different scales or time units compare exactly; floating point in numeric order;
/// byte strings in unsigned lexicographic order. Predicate literals are converted into
/// this form when bound and statistics are decoded into it, so pruning compares like with
/// like. StatType says how one column's min/max bytes decode. Value types, thread-safe.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "columnar/decimal128.h"
#include "formats/parquet/schema_mapping.h"

namespace sqe::parquet {

struct StatValue {
  enum class Kind : uint8_t { kNumber, kFloat, kBytes };
  Kind kind = Kind::kNumber;
  columnar::Decimal128 unscaled;  // kNumber: the value is unscaled / 10^scale
  int32_t scale = 0;
  double real = 0;    // kFloat
  std::string bytes;  // kBytes

  static StatValue Number(columnar::Decimal128 unscaled, int32_t scale = 0);
  static StatValue Float(double value);
  static StatValue Bytes(std::string value);
  bool is_nan() const;
  std::string ToString() const;
};

/// <0, 0 or >0. Precondition: same kind and neither is NaN. -0.0 equals +0.0.
int Compare(const StatValue& a, const StatValue& b);

/// A kNumber value as an unscaled integer at `to_scale`: nullopt when that is not exact
/// (digits would be lost) or does not fit in 128 bits.
std::optional<columnar::Decimal128> Rescale(const StatValue& number, int32_t to_scale);

/// How the PLAIN-encoded (BYTE_ARRAY without its length prefix) min/max bytes of a leaf
/// column decode into StatValues.
enum class StatEncoding : uint8_t {
  kNone,              // no usable order (INT96, unknown types): min/max are ignored
  kBoolean,           // 1 byte, false < true
  kInt32,             // 4 bytes LE, signed
  kUint32,            // 4 bytes LE, unsigned (UINT_8/16/32)
  kInt64,             // 8 bytes LE, signed
  kFloat,             // 4 bytes IEEE 754
  kDouble,            // 8 bytes IEEE 754
  kFloat16,           // 2 bytes IEEE 754 binary16 (FIXED_LEN_BYTE_ARRAY(2))
  kBytes,             // unsigned lexicographic (strings, binary, fixed, uuid)
  kDecimalBigEndian,  // big-endian two's complement (decimal on BYTE_ARRAY / FLBA)
};

struct StatType {
  StatEncoding encoding = StatEncoding::kNone;
  /// kNumber scale of the decoded values: decimal scale, 3/6/9 for milli/micro/nano
  /// times and timestamps, 0 otherwise.
  int32_t scale = 0;
  /// Whether the deprecated Statistics.min/max (signed order only) are valid for this
  /// column: signed integers, dates, times, timestamps, int-backed decimals, floats and
  /// booleans. Never for byte arrays or unsigned integers, whose old values used the
  /// wrong (signed) order.
  bool legacy_min_max_valid = false;
  /// Decoded value kind.
  StatValue::Kind kind() const;
};

/// The statistics type of a leaf column.
StatType StatTypeOf(const ColumnDescriptor& column);

/// Decodes one min/max value; nullopt when the bytes have the wrong size for the type
/// (unknown, so the caller must not prune on it).
std::optional<StatValue> DecodeStatValue(std::string_view raw, const StatType& type);

}  // namespace sqe::parquet
