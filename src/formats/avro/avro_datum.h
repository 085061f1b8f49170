#pragma once
/// Generic datum reading and writing: a Value against the schema Node it was written
/// with (specification, "Binary Encoding" of complex types).
///
/// Decoding is bounded: nesting deeper than kMaxDatumDepth, a block count larger than the
/// bytes left (for items that take at least one byte) or more than
/// kMaxZeroByteItems items that take no bytes at all is Corruption, so hostile input
/// never makes us allocate much more than its own size.

#include <cstdint>
#include <string>

#include "common/result.h"
#include "formats/avro/avro_encoding.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace sqe::avro {

inline constexpr int kMaxDatumDepth = 128;
inline constexpr int64_t kMaxZeroByteItems = int64_t{1} << 18;

/// Per-call decoding state (the zero-byte item budget).
struct DecodeContext {
  int64_t zero_byte_items_left = kMaxZeroByteItems;
};

/// Decodes one datum of `schema` into `out` (union branches recorded on the values).
Status DecodeDatum(Decoder* decoder, const Node& schema, Value* out, DecodeContext* context);

/// Whether a datum of `schema` may encode to zero bytes (null, records of such, fixed 0).
bool CanEncodeEmpty(const Node& schema);

/// Encodes `value` as a datum of `schema`. A union picks the value's union_branch() when
/// it is set, else the first branch the value's kind fits. int values fit long, float
/// values fit double. InvalidArgument naming the schema path on a mismatch.
Status EncodeDatum(const Value& value, const Node& schema, Encoder* encoder);

/// The union branch EncodeDatum would choose for `value`, or -1.
int ChooseUnionBranch(const Value& value, const Node& union_schema);

}  // namespace sqe::avro
