#include "iceberg/read/deletion_vector.h"

#include <zlib.h>

#include <string>

namespace sqe::iceberg {
namespace {

constexpr uint32_t kSerialCookieNoRun = 12346;
constexpr uint32_t kSerialCookie = 12347;

uint32_t Le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
uint16_t Le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
uint32_t Be32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

Status Bad(const std::string& what) { return Status::Corruption("deletion vector: " + what); }

// One 32-bit Roaring bitmap at p[0..size); appends (high << 32 | value) and sets *used.
Status ReadBitmap32(const uint8_t* p, size_t size, uint64_t high, int64_t max_positions,
                    std::vector<int64_t>* out, size_t* used) {
  if (size < 4) return Bad("truncated roaring bitmap");
  const uint32_t cookie = Le32(p);
  size_t pos = 0;
  uint32_t count = 0;
  const uint8_t* run_bitmap = nullptr;
  if ((cookie & 0xFFFF) == kSerialCookie) {
    count = (cookie >> 16) + 1;
    pos = 4;
    const size_t run_bytes = (count + 7) / 8;
    if (size - pos < run_bytes) return Bad("truncated run bitmap");
    run_bitmap = p + pos;
    pos += run_bytes;
  } else if (cookie == kSerialCookieNoRun) {
    if (size < 8) return Bad("truncated roaring header");
    count = Le32(p + 4);
    pos = 8;
  } else {
    return Bad("unknown roaring cookie " + std::to_string(cookie));
  }
  if (count > 65536) return Bad("more than 65536 roaring containers");
  if ((size - pos) / 4 < count) return Bad("truncated container headers");
  const uint8_t* headers = p + pos;
  pos += 4 * size_t{count};
  if (run_bitmap == nullptr || count >= 4) {  // the offset header
    if ((size - pos) / 4 < count) return Bad("truncated offset header");
    pos += 4 * size_t{count};
  }
  int prev_key = -1;
  for (uint32_t i = 0; i < count; ++i) {
    const uint16_t key = Le16(headers + 4 * i);
    const uint32_t cardinality = uint32_t{Le16(headers + 4 * i + 2)} + 1;
    if (static_cast<int>(key) <= prev_key) return Bad("container keys out of order");
    prev_key = key;
    const uint64_t base = high << 32 | uint64_t{key} << 16;
    auto emit = [&](uint32_t low) -> Status {
      if (static_cast<int64_t>(out->size()) >= max_positions) {
        return Bad("more positions than the data file has rows (" + std::to_string(max_positions) +
                   ")");
      }
      out->push_back(static_cast<int64_t>(base | low));
      return Status::OK();
    };
    if (run_bitmap != nullptr && (run_bitmap[i / 8] >> (i % 8)) & 1) {
      if (size - pos < 2) return Bad("truncated run container");
      const uint16_t runs = Le16(p + pos);
      pos += 2;
      if ((size - pos) / 4 < runs) return Bad("truncated run container");
      int64_t last = -1;
      for (uint16_t r = 0; r < runs; ++r) {
        const uint32_t start = Le16(p + pos + 4 * r);
        const uint32_t end = start + Le16(p + pos + 4 * r + 2);
        if (end > 0xFFFF || static_cast<int64_t>(start) <= last) return Bad("bad run");
        for (uint32_t v = start; v <= end; ++v) SQE_RETURN_NOT_OK(emit(v));
        last = end;
      }
      pos += 4 * size_t{runs};
    } else if (cardinality <= 4096) {
      if ((size - pos) / 2 < cardinality) return Bad("truncated array container");
      int64_t last = -1;
      for (uint32_t k = 0; k < cardinality; ++k) {
        const uint16_t v = Le16(p + pos + 2 * k);
        if (static_cast<int64_t>(v) <= last) return Bad("array container not sorted");
        last = v;
        SQE_RETURN_NOT_OK(emit(v));
      }
      pos += 2 * size_t{cardinality};
    } else {
      if (size - pos < 8192) return Bad("truncated bitmap container");
      for (uint32_t v = 0; v < 65536; ++v) {
        if ((p[pos + v / 8] >> (v % 8)) & 1) SQE_RETURN_NOT_OK(emit(v));
      }
      pos += 8192;
    }
  }
  *used = pos;
  return Status::OK();
}

}  // namespace

Result<std::vector<int64_t>> DecodeDeletionVector(std::string_view blob, int64_t max_positions) {
  const auto* p = reinterpret_cast<const uint8_t*>(blob.data());
  if (blob.size() < 4 + 4 + 8 + 4) return Bad("blob of " + std::to_string(blob.size()) + " bytes");
  const uint32_t length = Be32(p);
  if (length != blob.size() - 8) {
    return Bad("length prefix " + std::to_string(length) + " does not match the blob size " +
               std::to_string(blob.size()));
  }
  if (p[4] != 0xD1 || p[5] != 0xD3 || p[6] != 0x39 || p[7] != 0x64) return Bad("bad magic");
  const uint32_t crc = static_cast<uint32_t>(crc32(0, p + 4, length));
  if (crc != Be32(p + 4 + length)) return Bad("CRC-32 mismatch");
  const uint8_t* body = p + 8;
  size_t size = length - 4;
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = n << 8 | body[i];
  size_t pos = 8;
  std::vector<int64_t> out;
  int64_t prev_key = -1;
  for (uint64_t i = 0; i < n; ++i) {
    if (size - pos < 4) return Bad("truncated bitmap key");
    const uint32_t key = Le32(body + pos);
    if (static_cast<int64_t>(key) <= prev_key) return Bad("bitmap keys out of order");
    if (key & 0x80000000u) return Bad("a position with the most significant bit set");
    prev_key = key;
    pos += 4;
    size_t used = 0;
    SQE_RETURN_NOT_OK(ReadBitmap32(body + pos, size - pos, key, max_positions, &out, &used));
    pos += used;
  }
  if (pos != size) return Bad("trailing bytes after the bitmaps");
  return out;
}

}  // namespace sqe::iceberg
