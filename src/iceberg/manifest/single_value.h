#pragma once
/// Iceberg's binary single-value serialization (table spec, Appendix D): the bytes of
/// column lower/upper bounds in manifests and of partition field summaries in manifest
/// lists. boolean = 1 byte; int/date = 4 bytes little-endian; long/time/timestamp(tz)
/// (also _ns) = 8 bytes LE; float/double = IEEE 754 LE; string = UTF-8 bytes; uuid = 16
/// bytes big-endian; fixed/binary = the bytes; decimal = the unscaled value as a minimal
/// big-endian two's complement integer. Pure functions, thread-safe.

#include <string>
#include <string_view>

#include "columnar/decimal128.h"
#include "common/result.h"
#include "iceberg/literal.h"
#include "iceberg/types.h"

namespace sqe::iceberg {

/// The bytes of a non-null `value` read as `type`. InvalidArgument for a null value, a
/// value whose representation does not fit the type (a 3-byte uuid), or a type with no
/// single-value form (nested, variant, unknown); NotImplemented for geometry/geography.
Result<std::string> EncodeSingleValue(const Literal& value, const Type& type);

/// The value of `type` held in `bytes`. Accepts the widened forms readers must accept
/// (4-byte ints for long, 4-byte floats for double). Wrong lengths are Corruption.
Result<Literal> DecodeSingleValue(std::string_view bytes, const Type& type);

/// Two's complement big-endian bytes of `value`: the minimal number of bytes when
/// `width` is 0, else exactly `width` bytes (sign-extended; InvalidArgument if it does
/// not fit).
Result<std::string> DecimalToBigEndian(const columnar::Decimal128& value, int width = 0);
/// The value of 1..16 big-endian two's complement bytes; Corruption otherwise.
Result<columnar::Decimal128> DecimalFromBigEndian(std::string_view bytes);

}  // namespace sqe::iceberg
