#include "formats/parquet/compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <limits>

namespace sqe::parquet {
namespace {

Status Corrupt(CompressionCodec codec, const std::string& what) {
  return Status::Corruption("parquet " + std::string(CompressionCodecName(codec)) +
                            " page: " + what);
}

Status SizeMismatch(CompressionCodec codec, uint64_t got, int64_t want) {
  return Corrupt(codec, "decompressed to " + std::to_string(got) + " bytes, header declares " +
                            std::to_string(want));
}

Status SnappyDecompress(std::string_view in, uint8_t* out, int64_t n) {
  size_t len = 0;
  if (snappy_uncompressed_length(in.data(), in.size(), &len) != SNAPPY_OK) {
    return Corrupt(CompressionCodec::kSnappy, "invalid stream header");
  }
  if (len != static_cast<uint64_t>(n)) return SizeMismatch(CompressionCodec::kSnappy, len, n);
  size_t out_len = len;
  if (snappy_uncompress(in.data(), in.size(), reinterpret_cast<char*>(out), &out_len) !=
          SNAPPY_OK ||
      out_len != len) {
    return Corrupt(CompressionCodec::kSnappy, "invalid compressed data");
  }
  return Status::OK();
}

Status GzipDecompress(std::string_view in, uint8_t* out, int64_t n) {
  const auto codec = CompressionCodec::kGzip;
  z_stream zs{};
  // 15 + 32: accept both gzip and zlib headers, as older writers produced either.
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return Status::Internal("zlib inflateInit2 failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  uint64_t produced = 0;
  Status st;
  while (true) {
    uint64_t room = static_cast<uint64_t>(n) - produced;
    zs.next_out = out + produced;
    zs.avail_out = static_cast<uInt>(std::min<uint64_t>(room, std::numeric_limits<uInt>::max()));
    uint8_t probe;
    if (room == 0) {  // full: any further output means the header lied
      zs.next_out = &probe;
      zs.avail_out = 1;
    }
    uInt before = zs.avail_out;
    int rc = inflate(&zs, Z_NO_FLUSH);
    uint64_t wrote = before - zs.avail_out;
    if (room == 0 && wrote > 0) {
      st = Corrupt(codec, "stream inflates past the declared " + std::to_string(n) + " bytes");
      break;
    }
    produced += wrote;
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members: continue with the next one.
      if (zs.avail_in > 0 && inflateReset(&zs) == Z_OK) continue;
      if (produced != static_cast<uint64_t>(n)) st = SizeMismatch(codec, produced, n);
      break;
    }
    if (rc != Z_OK) {
      st = Corrupt(codec, std::string("invalid deflate data") + (zs.msg ? ": " : "") +
                              (zs.msg ? zs.msg : ""));
      break;
    }
    if (zs.avail_in == 0 && wrote == 0) {
      st = Corrupt(codec, "truncated stream");
      break;
    }
  }
  inflateEnd(&zs);
  return st;
}

// One decompression context per thread, reused across pages: ZSTD_decompress would
// allocate and initialise a fresh one (~100 KB) for every page.
ZSTD_DCtx* ThreadZstdContext() {
  struct Context {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    ~Context() { ZSTD_freeDCtx(dctx); }
  };
  thread_local Context context;
  return context.dctx;
}

Status ZstdDecompress(std::string_view in, uint8_t* out, int64_t n) {
  ZSTD_DCtx* dctx = ThreadZstdContext();
  size_t got = dctx != nullptr
                   ? ZSTD_decompressDCtx(dctx, out, static_cast<size_t>(n), in.data(), in.size())
                   : ZSTD_decompress(out, static_cast<size_t>(n), in.data(), in.size());
  if (ZSTD_isError(got)) {
    return Corrupt(CompressionCodec::kZstd, ZSTD_getErrorName(got));
  }
  if (got != static_cast<uint64_t>(n)) return SizeMismatch(CompressionCodec::kZstd, got, n);
  return Status::OK();
}

Status Lz4RawDecompress(std::string_view in, uint8_t* out, int64_t n,
                        CompressionCodec codec = CompressionCodec::kLz4Raw) {
  if (in.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      n > std::numeric_limits<int>::max()) {
    return Corrupt(codec, "block larger than 2 GiB");
  }
  int got = LZ4_decompress_safe(in.data(), reinterpret_cast<char*>(out),
                                static_cast<int>(in.size()), static_cast<int>(n));
  if (got < 0) return Corrupt(codec, "invalid LZ4 block");
  if (got != n) return SizeMismatch(codec, static_cast<uint64_t>(got), n);
  return Status::OK();
}

uint32_t LoadBigEndian32(const char* p) {
  auto b = reinterpret_cast<const uint8_t*>(p);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
}

// Hadoop framing: repeated [u32 BE uncompressed][u32 BE compressed][LZ4 block].
bool TryLz4Hadoop(std::string_view in, uint8_t* out, int64_t n) {
  uint64_t produced = 0;
  while (!in.empty()) {
    if (in.size() < 8) return false;
    uint32_t raw = LoadBigEndian32(in.data());
    uint32_t comp = LoadBigEndian32(in.data() + 4);
    in.remove_prefix(8);
    if (comp > in.size() || raw > static_cast<uint64_t>(n) - produced) return false;
    if (!Lz4RawDecompress(in.substr(0, comp), out + produced, raw).ok()) return false;
    produced += raw;
    in.remove_prefix(comp);
  }
  return produced == static_cast<uint64_t>(n);
}

Status Lz4HadoopDecompress(std::string_view in, uint8_t* out, int64_t n) {
  if (TryLz4Hadoop(in, out, n)) return Status::OK();
  // Some writers labelled raw LZ4 blocks as LZ4; readers accept those too.
  return Lz4RawDecompress(in, out, n, CompressionCodec::kLz4);
}

Status BrotliDecompress(std::string_view in, uint8_t* out, int64_t n) {
  size_t size = static_cast<size_t>(n);
  BrotliDecoderResult rc =
      BrotliDecoderDecompress(in.size(), reinterpret_cast<const uint8_t*>(in.data()), &size, out);
  if (rc != BROTLI_DECODER_RESULT_SUCCESS) {
    return Corrupt(CompressionCodec::kBrotli, "invalid stream or larger than declared size");
  }
  if (size != static_cast<uint64_t>(n)) return SizeMismatch(CompressionCodec::kBrotli, size, n);
  return Status::OK();
}

Result<std::string> GzipCompress(std::string_view in, int level) {
  z_stream zs{};
  if (deflateInit2(&zs, level == kDefaultCompressionLevel ? Z_DEFAULT_COMPRESSION : level,
                   Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::InvalidArgument("gzip: bad compression level " + std::to_string(level));
  }
  std::string out(deflateBound(&zs, in.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return Status::Internal("gzip: deflate failed");
  return out;
}

}  // namespace

bool IsCodecSupported(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kUncompressed:
    case CompressionCodec::kSnappy:
    case CompressionCodec::kGzip:
    case CompressionCodec::kBrotli:
    case CompressionCodec::kLz4:
    case CompressionCodec::kZstd:
    case CompressionCodec::kLz4Raw:
      return true;
    default:
      return false;
  }
}

Status DecompressInto(CompressionCodec codec, std::string_view input, uint8_t* out, int64_t n) {
  if (n < 0) return Corrupt(codec, "negative uncompressed size");
  switch (codec) {
    case CompressionCodec::kUncompressed:
      if (input.size() != static_cast<uint64_t>(n)) return SizeMismatch(codec, input.size(), n);
      if (n > 0) std::memcpy(out, input.data(), input.size());
      return Status::OK();
    case CompressionCodec::kSnappy:
      return SnappyDecompress(input, out, n);
    case CompressionCodec::kGzip:
      return GzipDecompress(input, out, n);
    case CompressionCodec::kZstd:
      return ZstdDecompress(input, out, n);
    case CompressionCodec::kLz4Raw:
      return Lz4RawDecompress(input, out, n);
    case CompressionCodec::kLz4:
      return Lz4HadoopDecompress(input, out, n);
    case CompressionCodec::kBrotli:
      return BrotliDecompress(input, out, n);
    default:
      return Status::NotImplemented("parquet: compression codec " +
                                    std::string(CompressionCodecName(codec)) + " (" +
                                    std::to_string(static_cast<int>(codec)) + ") is not supported");
  }
}

Result<std::string> Decompress(CompressionCodec codec, std::string_view input,
                               int64_t uncompressed_size, int64_t max_size) {
  if (uncompressed_size < 0 || uncompressed_size > max_size) {
    return Corrupt(codec, "declared uncompressed size " + std::to_string(uncompressed_size) +
                              " is outside [0, " + std::to_string(max_size) + "]");
  }
  std::string out(static_cast<size_t>(uncompressed_size), '\0');
  SQE_RETURN_NOT_OK(
      DecompressInto(codec, input, reinterpret_cast<uint8_t*>(out.data()), uncompressed_size));
  return out;
}

Result<std::string> Compress(CompressionCodec codec, std::string_view in, int level) {
  const bool dflt = level == kDefaultCompressionLevel;
  switch (codec) {
    case CompressionCodec::kUncompressed:
      return std::string(in);
    case CompressionCodec::kSnappy: {
      std::string out(snappy_max_compressed_length(in.size()), '\0');
      size_t len = out.size();
      if (snappy_compress(in.data(), in.size(), out.data(), &len) != SNAPPY_OK) {
        return Status::Internal("snappy: compress failed");
      }
      out.resize(len);
      return out;
    }
    case CompressionCodec::kGzip:
      return GzipCompress(in, level);
    case CompressionCodec::kZstd: {
      std::string out(ZSTD_compressBound(in.size()), '\0');
      size_t len = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), dflt ? 3 : level);
      if (ZSTD_isError(len))
        return Status::Internal(std::string("zstd: ") + ZSTD_getErrorName(len));
      out.resize(len);
      return out;
    }
    case CompressionCodec::kLz4Raw:
    case CompressionCodec::kLz4: {
      if (in.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
        return Status::InvalidArgument("lz4: input larger than LZ4_MAX_INPUT_SIZE");
      }
      const size_t prefix = codec == CompressionCodec::kLz4 ? 8 : 0;
      std::string out(prefix + LZ4_compressBound(static_cast<int>(in.size())), '\0');
      int len = LZ4_compress_default(in.data(), out.data() + prefix, static_cast<int>(in.size()),
                                     static_cast<int>(out.size() - prefix));
      if (len <= 0 && !in.empty()) return Status::Internal("lz4: compress failed");
      if (prefix != 0) {  // one Hadoop frame: big-endian sizes
        uint32_t sizes[2] = {static_cast<uint32_t>(in.size()), static_cast<uint32_t>(len)};
        for (int i = 0; i < 2; ++i) {
          for (int b = 0; b < 4; ++b) out[i * 4 + b] = static_cast<char>(sizes[i] >> (24 - 8 * b));
        }
      }
      out.resize(prefix + len);
      return out;
    }
    case CompressionCodec::kBrotli: {
      size_t len = BrotliEncoderMaxCompressedSize(in.size());
      if (len == 0) len = in.size() + 1024;
      std::string out(len, '\0');
      if (!BrotliEncoderCompress(dflt ? BROTLI_DEFAULT_QUALITY : level, BROTLI_DEFAULT_WINDOW,
                                 BROTLI_MODE_GENERIC, in.size(),
                                 reinterpret_cast<const uint8_t*>(in.data()), &len,
                                 reinterpret_cast<uint8_t*>(out.data()))) {
        return Status::Internal("brotli: compress failed");
      }
      out.resize(len);
      return out;
    }
    default:
      return Status::NotImplemented("parquet: compression codec " +
                                    std::string(CompressionCodecName(codec)) + " is not supported");
  }
}

}  // namespace sqe::parquet
