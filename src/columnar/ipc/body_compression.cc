#include <lz4frame.h>
#include <zstd.h>

#include <cstring>

#include "columnar/ipc/body_compression_internal.h"

namespace sqe::columnar::ipc {

std::string_view CompressionName(Compression compression) {
  switch (compression) {
    case Compression::kNone:
      return "none";
    case Compression::kLz4Frame:
      return "lz4";
    case Compression::kZstd:
      return "zstd";
  }
  return "none";
}

Result<Compression> ParseCompression(std::string_view name) {
  if (name == "none") return Compression::kNone;
  if (name == "lz4" || name == "lz4_frame") return Compression::kLz4Frame;
  if (name == "zstd") return Compression::kZstd;
  return Status::InvalidArgument("unknown IPC compression '" + std::string(name) +
                                 "' (expected none, lz4 or zstd)");
}

namespace {

void AppendInt64(int64_t value, std::string* out) {
  char bytes[8];
  std::memcpy(bytes, &value, 8);
  out->append(bytes, 8);
}

}  // namespace

Status CompressBuffer(Compression codec, int level, std::string_view data, std::string* out) {
  const size_t start = out->size();
  AppendInt64(static_cast<int64_t>(data.size()), out);
  size_t written = 0;
  if (codec == Compression::kLz4Frame) {
    LZ4F_preferences_t prefs;
    std::memset(&prefs, 0, sizeof(prefs));
    prefs.frameInfo.contentSize = data.size();
    const size_t bound = LZ4F_compressFrameBound(data.size(), &prefs);
    out->resize(start + 8 + bound);
    written = LZ4F_compressFrame(out->data() + start + 8, bound, data.data(), data.size(), &prefs);
    if (LZ4F_isError(written)) {
      return Status::Internal(std::string("lz4 compression failed: ") + LZ4F_getErrorName(written));
    }
  } else if (codec == Compression::kZstd) {
    const size_t bound = ZSTD_compressBound(data.size());
    out->resize(start + 8 + bound);
    written = ZSTD_compress(out->data() + start + 8, bound, data.data(), data.size(), level);
    if (ZSTD_isError(written)) {
      return Status::Internal(std::string("zstd compression failed: ") +
                              ZSTD_getErrorName(written));
    }
  } else {
    return Status::InvalidArgument("CompressBuffer without a codec");
  }
  if (written >= data.size()) {  // not worth it: store raw behind a -1 prefix
    out->resize(start);
    AppendInt64(-1, out);
    out->append(data);
    return Status::OK();
  }
  out->resize(start + 8 + written);
  return Status::OK();
}

Result<BufferPtr> DecompressBuffer(Compression codec, std::string_view data, int64_t max_size,
                                   const std::shared_ptr<MemoryTracker>& tracker) {
  if (data.empty()) {
    SQE_ASSIGN_OR_RETURN(auto empty, Buffer::Allocate(0, tracker));
    return BufferPtr(std::move(empty));
  }
  if (data.size() < 8) {
    return Status::Corruption("compressed buffer of " + std::to_string(data.size()) +
                              " bytes has no 8-byte length prefix");
  }
  int64_t length = 0;
  std::memcpy(&length, data.data(), 8);
  std::string_view payload = data.substr(8);
  if (length == -1) {
    SQE_ASSIGN_OR_RETURN(auto copy, Buffer::CopyOf(payload, tracker));
    return BufferPtr(std::move(copy));
  }
  if (length < 0 || length > max_size) {
    return Status::Corruption("compressed buffer declares " + std::to_string(length) +
                              " uncompressed bytes (limit " + std::to_string(max_size) + ")");
  }
  // Refuse sizes the frame cannot produce before allocating them: an LZ4 sequence
  // expands at most ~255x; a zstd frame usually records its content size.
  if (codec == Compression::kLz4Frame && length > static_cast<int64_t>(payload.size()) * 255 + 64) {
    return Status::Corruption("lz4 buffer of " + std::to_string(payload.size()) +
                              " bytes cannot hold " + std::to_string(length) + " bytes");
  }
  if (codec == Compression::kZstd) {
    const unsigned long long content = ZSTD_getFrameContentSize(payload.data(), payload.size());
    if (content == ZSTD_CONTENTSIZE_ERROR)
      return Status::Corruption("zstd frame header is invalid");
    if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != static_cast<unsigned long long>(length)) {
      return Status::Corruption("zstd frame holds " + std::to_string(content) +
                                " bytes, the buffer prefix says " + std::to_string(length));
    }
  }
  SQE_ASSIGN_OR_RETURN(auto buffer, Buffer::Allocate(length, tracker));
  if (length == 0) return BufferPtr(std::move(buffer));
  size_t produced = 0;
  if (codec == Compression::kLz4Frame) {
    LZ4F_dctx* ctx = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) {
      return Status::Internal("lz4 decompression context failed");
    }
    const char* src = payload.data();
    size_t src_left = payload.size();
    uint8_t* dst = buffer->mutable_data();
    size_t dst_left = static_cast<size_t>(length);
    size_t ret = 1;
    while (ret != 0 && src_left > 0 && dst_left > 0) {
      size_t dst_size = dst_left;
      size_t src_size = src_left;
      ret = LZ4F_decompress(ctx, dst, &dst_size, src, &src_size, nullptr);
      if (LZ4F_isError(ret)) break;
      src += src_size;
      src_left -= src_size;
      dst += dst_size;
      dst_left -= dst_size;
      produced += dst_size;
      if (src_size == 0 && dst_size == 0) break;
    }
    LZ4F_freeDecompressionContext(ctx);
    if (LZ4F_isError(ret)) {
      return Status::Corruption(std::string("lz4 frame: ") + LZ4F_getErrorName(ret));
    }
  } else if (codec == Compression::kZstd) {
    produced = ZSTD_decompress(buffer->mutable_data(), static_cast<size_t>(length), payload.data(),
                               payload.size());
    if (ZSTD_isError(produced)) {
      return Status::Corruption(std::string("zstd frame: ") + ZSTD_getErrorName(produced));
    }
  } else {
    return Status::Corruption("compressed buffer without a codec");
  }
  if (static_cast<int64_t>(produced) != length) {
    return Status::Corruption("compressed buffer decoded to " + std::to_string(produced) +
                              " bytes, expected " + std::to_string(length));
  }
  return BufferPtr(std::move(buffer));
}

}  // namespace sqe::columnar::ipc
