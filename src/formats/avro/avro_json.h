#pragma once
/// Converting between Values and JSON: record field defaults as the specification writes
/// them (bytes and fixed as strings whose code points 0-255 are the bytes), and the
/// JSON-lines form of `sqe-avro cat` / `sqe-avro write` (bytes and fixed as base64).
///
/// In both forms a union is written as its value alone (no {"type": value} wrapper); when
/// reading, null picks the null branch and anything else the first branch it converts
/// to. Non-finite floats are the strings "NaN", "Infinity" and "-Infinity".

#include "common/result.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace sqe::avro {

enum class JsonBytes : uint8_t {
  kCodePoints,  // the spec's default-value encoding
  kBase64,      // standard alphabet, padded
};

/// InvalidArgument naming the schema type when `json` does not fit `schema`.
Result<Value> ValueFromJson(const Json& json, const Node& schema, JsonBytes bytes);
Json ValueToJson(const Value& value, const Node& schema, JsonBytes bytes);

std::string Base64Encode(std::string_view data);
Result<std::string> Base64Decode(std::string_view text);

}  // namespace sqe::avro
