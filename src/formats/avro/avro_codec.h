#pragma once
/// Block codecs of Avro object container files (specification, "Required Codecs" and
/// "Optional Codecs"): null, deflate (RFC 1951 raw deflate, no zlib header), snappy (a
/// raw snappy block followed by the 4-byte big-endian CRC32 of the uncompressed data)
/// and zstandard. Decompression never produces more than `max_size` bytes (a bomb costs
/// at most that). Stateless and thread-safe.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace sqe::avro {

enum class Codec : uint8_t { kNull, kDeflate, kSnappy, kZstandard };

/// The codec called `name` in "avro.codec" (an absent codec is "null").
/// InvalidArgument for any other name (callers reading a file make it Corruption).
Result<Codec> CodecFromName(std::string_view name);
std::string_view CodecName(Codec codec);

/// Level for deflate (0-9, -1 = zlib default) or zstandard (1-22, 0 = default).
Status Compress(Codec codec, std::string_view input, std::string* out, int level = -1);
/// Corruption on malformed input, on a CRC mismatch (snappy) or when the output would
/// exceed `max_size`.
Status Decompress(Codec codec, std::string_view input, std::string* out, int64_t max_size);

}  // namespace sqe::avro
