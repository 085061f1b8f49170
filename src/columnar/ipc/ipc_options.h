#pragma once
/// Options of the Arrow IPC stream writer and reader: body compression, dictionary
/// encoding and the limits a reader enforces on untrusted input. Plain value types.

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::columnar::ipc {

/// Arrow's BodyCompression codecs (kNone = no BodyCompression table).
enum class Compression : uint8_t { kNone, kLz4Frame, kZstd };

/// "none", "lz4", "zstd".
std::string_view CompressionName(Compression compression);
/// Parses "none", "lz4" / "lz4_frame", "zstd" (case-sensitive).
Result<Compression> ParseCompression(std::string_view name);

struct WriteOptions {
  Compression compression = Compression::kNone;
  /// zstd level (lz4 uses its default).
  int compression_level = 1;
  /// Writes top-level string columns dictionary-encoded (int32 indices, one
  /// replacement DictionaryBatch before every record batch).
  bool dictionary_encode_strings = false;
  /// Alignment of every buffer inside a message body: 64 (the spec's recommendation,
  /// cache-line and SIMD friendly) or 8 (the minimum, what pyarrow writes by default).
  int32_t buffer_alignment = 64;
};

struct ReadOptions {
  /// Largest flatbuffer metadata accepted (bytes).
  int64_t max_metadata_size = int64_t{64} << 20;
  /// Largest message body accepted (bytes).
  int64_t max_body_size = int64_t{2} << 30;
  /// Largest uncompressed size of one compressed buffer (bytes).
  int64_t max_decompressed_buffer_size = int64_t{2} << 30;
  /// Largest flatbuffer nesting depth / field nesting depth.
  int max_nesting_depth = 64;
  /// Charged for decompressed buffers and copied bodies (nullptr = untracked).
  std::shared_ptr<MemoryTracker> tracker;
};

}  // namespace sqe::columnar::ipc
