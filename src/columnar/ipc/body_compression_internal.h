#pragma once
/// Per-buffer body compression of Arrow IPC (BodyCompression method BUFFER): each
/// buffer is an int64 little-endian uncompressed length followed by the LZ4 frame or
/// zstd frame; length -1 means the bytes that follow are not compressed.

#include <string>
#include <string_view>

#include "columnar/buffer.h"
#include "columnar/ipc/ipc_options.h"
#include "common/result.h"

namespace sqe::columnar::ipc {

/// Appends the compressed form of `data` (prefix included) to *out. Falls back to the
/// uncompressed form (-1 prefix) when compression does not shrink the data.
Status CompressBuffer(Compression codec, int level, std::string_view data, std::string* out);

/// Decodes one compressed buffer (prefix included). `data` empty yields an empty buffer.
/// Corruption for a short prefix, a length over `max_size` or a codec failure.
Result<BufferPtr> DecompressBuffer(Compression codec, std::string_view data, int64_t max_size,
                                   const std::shared_ptr<MemoryTracker>& tracker);

}  // namespace sqe::columnar::ipc
