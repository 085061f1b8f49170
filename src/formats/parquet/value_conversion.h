#pragma once
/// The value conversions a LeafConversion (schema_mapping.h) names, as batch kernels the
/// column reader applies after decoding: Parquet's decimal, float16, millisecond and
/// unsigned representations into the columnar ones. Pure functions, thread-safe.

#include <cstdint>
#include <string_view>

#include "columnar/decimal128.h"
#include "common/result.h"

namespace sqe::parquet {

/// A big-endian two's-complement unscaled decimal (1..16 bytes; longer inputs are accepted
/// only when the extra leading bytes are pure sign extension) as Decimal128.
Result<columnar::Decimal128> DecimalFromBigEndian(std::string_view bytes);
/// The inverse for writing: the value in exactly `width` big-endian bytes (1..16);
/// InvalidArgument if it does not fit.
Status DecimalToBigEndian(const columnar::Decimal128& value, int32_t width, uint8_t* out);

/// IEEE 754 binary16 (little-endian on disk) to float, exact (incl. subnormals, inf, NaN).
float Float16ToFloat32(uint16_t half);

/// Multiplies millisecond values by 1000 in place; Corruption if one would overflow.
Status MillisToMicros(int64_t* values, int64_t n);

}  // namespace sqe::parquet
