#pragma once
/// Page compression codecs (Compression.md): UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD,
/// LZ4_RAW and the deprecated Hadoop-framed LZ4 (with the raw-block fallback other readers
/// use). LZO is NotImplemented.
///
/// Decompression is bounded by the size the page header declares: output never grows past
/// it, and a stream that yields more or fewer bytes is Corruption (so a decompression bomb
/// costs at most the declared size, itself capped by the caller). Stateless and
/// thread-safe.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "formats/parquet/parquet_types.h"

namespace sqe::parquet {

/// The largest page we agree to inflate unless the caller asks for more (pages are far
/// smaller in practice; the Thrift sizes are i32).
inline constexpr int64_t kDefaultMaxDecompressedSize = int64_t{1} << 30;

/// Asks Compress for the codec's own default level.
inline constexpr int kDefaultCompressionLevel = -1000;

/// Whether Compress/Decompress handle `codec`.
bool IsCodecSupported(CompressionCodec codec);

/// Decompresses `input` into exactly `uncompressed_size` bytes at `out`.
Status DecompressInto(CompressionCodec codec, std::string_view input, uint8_t* out,
                      int64_t uncompressed_size);

/// Allocating form; InvalidArgument/Corruption when `uncompressed_size` is negative or over
/// `max_size`.
Result<std::string> Decompress(CompressionCodec codec, std::string_view input,
                               int64_t uncompressed_size,
                               int64_t max_size = kDefaultMaxDecompressedSize);

/// Compresses `input`. `level` is codec-specific; the default picks each codec's default.
Result<std::string> Compress(CompressionCodec codec, std::string_view input,
                             int level = kDefaultCompressionLevel);
}  // namespace sqe::parquet
