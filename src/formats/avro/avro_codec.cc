#include "formats/avro/avro_codec.h"

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>

namespace sqe::avro {

namespace {

Status Corrupt(Codec codec, const std::string& what) {
  return Status::Corruption("avro " + std::string(CodecName(codec)) + " block: " + what);
}

uint32_t Crc32(std::string_view data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths; feed in slices for blocks larger than 4 GiB.
  size_t pos = 0;
  while (pos < data.size()) {
    size_t n = std::min<size_t>(data.size() - pos, 1u << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data() + pos), static_cast<uInt>(n));
    pos += n;
  }
  return static_cast<uint32_t>(crc);
}

Status Inflate(std::string_view in, std::string* out, int64_t max_size) {
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) return Status::Internal("zlib inflateInit2 failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  out->clear();
  Status st;
  size_t chunk = std::min<size_t>(std::max<size_t>(in.size() * 4, 4096),
                                  static_cast<size_t>(std::max<int64_t>(max_size, 1)));
  while (true) {
    size_t old = out->size();
    if (static_cast<int64_t>(old) >= max_size) {
      // Room is exhausted: the stream must end without producing more.
      char probe;
      zs.next_out = reinterpret_cast<Bytef*>(&probe);
      zs.avail_out = 1;
      int rc = inflate(&zs, Z_FINISH);
      if (rc == Z_STREAM_END && zs.avail_out == 1) break;
      st = Corrupt(Codec::kDeflate, "inflates past " + std::to_string(max_size) + " bytes");
      break;
    }
    size_t grow = std::min<size_t>(chunk, static_cast<size_t>(max_size) - old);
    out->resize(old + grow);
    zs.next_out = reinterpret_cast<Bytef*>(out->data() + old);
    zs.avail_out = static_cast<uInt>(grow);
    int rc = inflate(&zs, Z_NO_FLUSH);
    out->resize(old + (grow - zs.avail_out));
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      st = Corrupt(Codec::kDeflate, "truncated stream");
      break;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      st = Corrupt(Codec::kDeflate, zs.msg ? zs.msg : "inflate failed");
      break;
    }
    chunk = std::min<size_t>(chunk * 2, 64u << 20);
  }
  inflateEnd(&zs);
  return st;
}

Status Deflate(std::string_view in, std::string* out, int level) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::InvalidArgument("avro deflate: bad level " + std::to_string(level));
  }
  out->resize(deflateBound(&zs, static_cast<uLong>(in.size())));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(out->size());
  int rc = deflate(&zs, Z_FINISH);
  out->resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return Status::Internal("avro deflate: compress failed");
  return Status::OK();
}

Status ZstdDecompress(std::string_view in, std::string* out, int64_t max_size) {
  ZSTD_DStream* ds = ZSTD_createDStream();
  if (ds == nullptr) return Status::Internal("zstd: out of memory");
  out->clear();
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  Status st;
  size_t chunk = std::min<size_t>(std::max<size_t>(in.size() * 4, 4096),
                                  static_cast<size_t>(std::max<int64_t>(max_size, 1)));
  bool ended = false;
  while (true) {
    size_t old = out->size();
    if (static_cast<int64_t>(old) >= max_size) {
      char probe;
      ZSTD_outBuffer output{&probe, 1, 0};
      size_t rc = ZSTD_decompressStream(ds, &output, &input);
      if (!ZSTD_isError(rc) && output.pos == 0 && (rc == 0 || ended) && input.pos == input.size)
        break;
      st = Corrupt(Codec::kZstandard, "decompresses past " + std::to_string(max_size) + " bytes");
      break;
    }
    size_t grow = std::min<size_t>(chunk, static_cast<size_t>(max_size) - old);
    out->resize(old + grow);
    ZSTD_outBuffer output{out->data() + old, grow, 0};
    size_t rc = ZSTD_decompressStream(ds, &output, &input);
    out->resize(old + output.pos);
    if (ZSTD_isError(rc)) {
      st = Corrupt(Codec::kZstandard, ZSTD_getErrorName(rc));
      break;
    }
    ended = rc == 0;
    if (ended && input.pos == input.size) break;
    if (input.pos == input.size && output.pos < grow) {
      // All input consumed and the decoder still wants more: a truncated frame.
      st = Corrupt(Codec::kZstandard, "truncated frame");
      break;
    }
    chunk = std::min<size_t>(chunk * 2, 64u << 20);
  }
  ZSTD_freeDStream(ds);
  return st;
}

}  // namespace

Result<Codec> CodecFromName(std::string_view name) {
  if (name == "null" || name.empty()) return Codec::kNull;
  if (name == "deflate") return Codec::kDeflate;
  if (name == "snappy") return Codec::kSnappy;
  if (name == "zstandard") return Codec::kZstandard;
  return Status::InvalidArgument("unsupported avro codec '" + std::string(name) +
                                 "' (supported: null, deflate, snappy, zstandard)");
}

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kNull:
      return "null";
    case Codec::kDeflate:
      return "deflate";
    case Codec::kSnappy:
      return "snappy";
    case Codec::kZstandard:
      return "zstandard";
  }
  return "?";
}

Status Compress(Codec codec, std::string_view input, std::string* out, int level) {
  switch (codec) {
    case Codec::kNull:
      out->assign(input);
      return Status::OK();
    case Codec::kDeflate:
      return Deflate(input, out, level < -1 || level > 9 ? -1 : level);
    case Codec::kSnappy: {
      size_t len = snappy_max_compressed_length(input.size());
      out->resize(len + 4);
      if (snappy_compress(input.data(), input.size(), out->data(), &len) != SNAPPY_OK) {
        return Status::Internal("avro snappy: compress failed");
      }
      uint32_t crc = Crc32(input);
      out->resize(len);
      for (int shift = 24; shift >= 0; shift -= 8) {
        out->push_back(static_cast<char>((crc >> shift) & 0xff));
      }
      return Status::OK();
    }
    case Codec::kZstandard: {
      out->resize(ZSTD_compressBound(input.size()));
      size_t rc = ZSTD_compress(out->data(), out->size(), input.data(), input.size(),
                                level <= 0 || level > 22 ? ZSTD_CLEVEL_DEFAULT : level);
      if (ZSTD_isError(rc)) return Status::Internal(std::string("zstd: ") + ZSTD_getErrorName(rc));
      out->resize(rc);
      return Status::OK();
    }
  }
  return Status::InvalidArgument("unknown avro codec");
}

Status Decompress(Codec codec, std::string_view input, std::string* out, int64_t max_size) {
  switch (codec) {
    case Codec::kNull:
      if (static_cast<int64_t>(input.size()) > max_size) {
        return Corrupt(codec, "block of " + std::to_string(input.size()) + " bytes exceeds " +
                                  std::to_string(max_size));
      }
      out->assign(input);
      return Status::OK();
    case Codec::kDeflate:
      return Inflate(input, out, max_size);
    case Codec::kSnappy: {
      if (input.size() < 4) return Corrupt(codec, "shorter than its CRC");
      std::string_view body = input.substr(0, input.size() - 4);
      size_t len = 0;
      if (snappy_uncompressed_length(body.data(), body.size(), &len) != SNAPPY_OK ||
          snappy_validate_compressed_buffer(body.data(), body.size()) != SNAPPY_OK) {
        return Corrupt(codec, "malformed snappy data");
      }
      if (static_cast<uint64_t>(len) > static_cast<uint64_t>(max_size)) {
        return Corrupt(codec, "uncompressed length " + std::to_string(len) + " exceeds " +
                                  std::to_string(max_size));
      }
      out->resize(len);
      size_t out_len = len;
      if (snappy_uncompress(body.data(), body.size(), out->data(), &out_len) != SNAPPY_OK ||
          out_len != len) {
        return Corrupt(codec, "malformed snappy data");
      }
      const auto* c = reinterpret_cast<const uint8_t*>(input.data() + body.size());
      uint32_t expected =
          (uint32_t{c[0]} << 24) | (uint32_t{c[1]} << 16) | (uint32_t{c[2]} << 8) | uint32_t{c[3]};
      if (Crc32(*out) != expected) return Corrupt(codec, "CRC32 mismatch");
      return Status::OK();
    }
    case Codec::kZstandard:
      return ZstdDecompress(input, out, max_size);
  }
  return Status::InvalidArgument("unknown avro codec");
}

}  // namespace sqe::avro
