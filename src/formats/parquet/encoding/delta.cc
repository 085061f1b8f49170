#include "formats/parquet/encoding/delta.h"

#include <algorithm>
#include <limits>

#include "formats/parquet/encoding/bit_packing.h"
#include "formats/parquet/thrift_compact.h"

namespace sqe::parquet {
namespace {

Status Corrupt(const std::string& what, size_t pos) {
  return Status::Corruption("parquet DELTA_BINARY_PACKED: " + what + " at byte " +
                            std::to_string(pos));
}

// Bounds the per-miniblock buffer a header can make us allocate.
constexpr uint64_t kMaxBlockSize = 1 << 16;

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

}  // namespace

Result<uint64_t> DeltaBinaryPackedDecoder::ReadVarint() {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= size_) return Corrupt("truncated varint", pos_);
    uint8_t b = data_[pos_++];
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return result;
  }
  return Corrupt("varint too long", pos_);
}

Status DeltaBinaryPackedDecoder::Init(const uint8_t* data, size_t size) {
  *this = DeltaBinaryPackedDecoder();
  data_ = data;
  size_ = size;
  SQE_ASSIGN_OR_RETURN(block_size_, ReadVarint());
  SQE_ASSIGN_OR_RETURN(miniblocks_per_block_, ReadVarint());
  SQE_ASSIGN_OR_RETURN(uint64_t total, ReadVarint());
  SQE_ASSIGN_OR_RETURN(uint64_t first, ReadVarint());
  if (block_size_ == 0 || block_size_ % 128 != 0 || block_size_ > kMaxBlockSize) {
    return Corrupt("block size " + std::to_string(block_size_) + " is invalid", pos_);
  }
  if (miniblocks_per_block_ == 0 || block_size_ % miniblocks_per_block_ != 0 ||
      (block_size_ / miniblocks_per_block_) % 32 != 0) {
    return Corrupt("miniblock count " + std::to_string(miniblocks_per_block_) + " is invalid",
                   pos_);
  }
  if (total > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
    return Corrupt("value count " + std::to_string(total) + " is too large", pos_);
  }
  // Every block needs a min-delta varint and its bit widths, which bounds how many values
  // the header may claim (and so what callers allocate).
  if (total > 1 && ((total - 2) / block_size_ + 1) > (size_ - pos_) / (1 + miniblocks_per_block_)) {
    return Corrupt("value count " + std::to_string(total) + " exceeds what the data can hold",
                   pos_);
  }
  values_per_miniblock_ = block_size_ / miniblocks_per_block_;
  total_values_ = static_cast<int64_t>(total);
  last_value_ = static_cast<uint64_t>(ZigZagDecode64(first));
  first_pending_ = total_values_ > 0;
  miniblock_in_block_ = miniblocks_per_block_;  // forces a block header on first use
  return Status::OK();
}

Status DeltaBinaryPackedDecoder::NextMiniblock() {
  if (miniblock_in_block_ == miniblocks_per_block_) {
    SQE_ASSIGN_OR_RETURN(uint64_t min_delta, ReadVarint());
    min_delta_ = static_cast<uint64_t>(ZigZagDecode64(min_delta));
    if (miniblocks_per_block_ > size_ - pos_) return Corrupt("truncated bit widths", pos_);
    bit_widths_ = data_ + pos_;
    pos_ += miniblocks_per_block_;
    miniblock_in_block_ = 0;
  }
  int width = bit_widths_[miniblock_in_block_++];
  if (width > 64) return Corrupt("miniblock bit width " + std::to_string(width), pos_);
  const uint64_t groups = values_per_miniblock_ / 8;
  const uint64_t bytes = groups * width;
  deltas_.resize(values_per_miniblock_);
  if (bytes <= size_ - pos_) {
    UnpackBits64(data_ + pos_, static_cast<int64_t>(groups), width, deltas_.data());
    pos_ += bytes;
  } else {
    // The last miniblock may be cut short; unpack from a zero-padded copy and let the
    // value count decide whether enough is there.
    uint64_t needed = static_cast<uint64_t>(values_left()) - (first_pending_ ? 1 : 0);
    if ((std::min(needed, values_per_miniblock_) * width + 7) / 8 > size_ - pos_) {
      return Corrupt("truncated miniblock", pos_);
    }
    std::string padded(reinterpret_cast<const char*>(data_ + pos_), size_ - pos_);
    padded.resize(bytes, '\0');
    UnpackBits64(reinterpret_cast<const uint8_t*>(padded.data()), static_cast<int64_t>(groups),
                 width, deltas_.data());
    pos_ = size_;
  }
  delta_pos_ = 0;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder::Decode(T* out, int64_t n) {
  if (n > values_left()) {
    return Corrupt(
        "asked for " + std::to_string(n) + " values, " + std::to_string(values_left()) + " remain",
        pos_);
  }
  int64_t i = 0;
  if (n > 0 && first_pending_) {
    out[i++] = static_cast<T>(last_value_);
    first_pending_ = false;
    ++emitted_;
  }
  while (i < n) {
    if (delta_pos_ == deltas_.size()) SQE_RETURN_NOT_OK(NextMiniblock());
    int64_t take = std::min<int64_t>(n - i, deltas_.size() - delta_pos_);
    uint64_t v = last_value_;
    for (int64_t k = 0; k < take; ++k) {
      v += min_delta_ + deltas_[delta_pos_ + k];
      out[i + k] = static_cast<T>(v);
    }
    last_value_ = v;
    delta_pos_ += take;
    i += take;
    emitted_ += take;
  }
  return Status::OK();
}

template Status DeltaBinaryPackedDecoder::Decode<int32_t>(int32_t*, int64_t);
template Status DeltaBinaryPackedDecoder::Decode<int64_t>(int64_t*, int64_t);

template <typename T>
void EncodeDeltaBinaryPacked(const T* values, int64_t n, std::string* out) {
  using U = std::make_unsigned_t<T>;
  constexpr int64_t kBlock = 128, kMiniblocks = 4, kPerMini = kBlock / kMiniblocks;
  PutVarint(kBlock, out);
  PutVarint(kMiniblocks, out);
  PutVarint(static_cast<uint64_t>(n), out);
  PutVarint(ZigZagEncode64(n > 0 ? values[0] : 0), out);
  std::vector<uint64_t> deltas(kBlock);
  for (int64_t start = 1; start < n; start += kBlock) {
    int64_t count = std::min(kBlock, n - start);
    // Deltas in T's width with wraparound, as readers reconstruct them.
    T min_delta = std::numeric_limits<T>::max();
    std::vector<T> d(count);
    for (int64_t k = 0; k < count; ++k) {
      d[k] =
          static_cast<T>(static_cast<U>(values[start + k]) - static_cast<U>(values[start + k - 1]));
      min_delta = std::min(min_delta, d[k]);
    }
    PutVarint(ZigZagEncode64(min_delta), out);
    std::fill(deltas.begin(), deltas.end(), 0);
    for (int64_t k = 0; k < count; ++k) {
      deltas[k] = static_cast<U>(static_cast<U>(d[k]) - static_cast<U>(min_delta));
    }
    size_t widths_at = out->size();
    out->append(kMiniblocks, '\0');
    int64_t used = (count + kPerMini - 1) / kPerMini;
    for (int64_t m = 0; m < used; ++m) {
      uint64_t max = 0;
      for (int64_t k = 0; k < kPerMini; ++k) max = std::max(max, deltas[m * kPerMini + k]);
      int width = BitWidthOf(max);
      (*out)[widths_at + m] = static_cast<char>(width);
      PackBits(deltas.data() + m * kPerMini, kPerMini, width, out);
    }
  }
}

template void EncodeDeltaBinaryPacked<int32_t>(const int32_t*, int64_t, std::string*);
template void EncodeDeltaBinaryPacked<int64_t>(const int64_t*, int64_t, std::string*);

namespace {

Result<size_t> DecodeLengths(const uint8_t* data, size_t size, std::vector<int32_t>* lengths) {
  DeltaBinaryPackedDecoder dec;
  SQE_RETURN_NOT_OK(dec.Init(data, size));
  // total_values() is bounded by the data size (Init).
  lengths->resize(static_cast<size_t>(dec.total_values()));
  SQE_RETURN_NOT_OK(dec.Decode(lengths->data(), dec.total_values()));
  return dec.consumed();
}

}  // namespace

Result<size_t> DecodeDeltaLengthByteArray(const uint8_t* data, size_t size,
                                          std::vector<std::string_view>* out) {
  std::vector<int32_t> lengths;
  SQE_ASSIGN_OR_RETURN(size_t pos, DecodeLengths(data, size, &lengths));
  out->clear();
  out->reserve(lengths.size());
  for (size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] < 0 || static_cast<uint64_t>(lengths[i]) > size - pos) {
      return Status::Corruption("parquet DELTA_LENGTH_BYTE_ARRAY: value " + std::to_string(i) +
                                " has length " + std::to_string(lengths[i]) + ", " +
                                std::to_string(size - pos) + " bytes remain");
    }
    out->emplace_back(reinterpret_cast<const char*>(data + pos), lengths[i]);
    pos += lengths[i];
  }
  return pos;
}

void EncodeDeltaLengthByteArray(const std::string_view* values, int64_t n, std::string* out) {
  std::vector<int32_t> lengths(n);
  for (int64_t i = 0; i < n; ++i) lengths[i] = static_cast<int32_t>(values[i].size());
  EncodeDeltaBinaryPacked(lengths.data(), n, out);
  for (int64_t i = 0; i < n; ++i) out->append(values[i]);
}

Result<size_t> DecodeDeltaByteArray(const uint8_t* data, size_t size, BinaryValues* out,
                                    int64_t max_output_bytes) {
  std::vector<int32_t> prefixes;
  SQE_ASSIGN_OR_RETURN(size_t pos, DecodeLengths(data, size, &prefixes));
  std::vector<std::string_view> suffixes;
  SQE_ASSIGN_OR_RETURN(size_t used, DecodeDeltaLengthByteArray(data + pos, size - pos, &suffixes));
  if (suffixes.size() != prefixes.size()) {
    return Status::Corruption("parquet DELTA_BYTE_ARRAY: " + std::to_string(prefixes.size()) +
                              " prefixes but " + std::to_string(suffixes.size()) + " suffixes");
  }
  out->data.clear();
  out->offsets.assign(1, 0);
  out->offsets.reserve(prefixes.size() + 1);
  int64_t prev_start = 0, prev_len = 0;
  for (size_t i = 0; i < prefixes.size(); ++i) {
    if (prefixes[i] < 0 || prefixes[i] > prev_len) {
      return Status::Corruption("parquet DELTA_BYTE_ARRAY: value " + std::to_string(i) +
                                " has prefix length " + std::to_string(prefixes[i]) +
                                " but the previous value has " + std::to_string(prev_len) +
                                " bytes");
    }
    int64_t len = prefixes[i] + static_cast<int64_t>(suffixes[i].size());
    if (static_cast<int64_t>(out->data.size()) + len > max_output_bytes) {
      return Status::Corruption("parquet DELTA_BYTE_ARRAY: decoded values exceed " +
                                std::to_string(max_output_bytes) + " bytes");
    }
    int64_t start = static_cast<int64_t>(out->data.size());
    out->data.append(out->data, prev_start, prefixes[i]);
    out->data.append(suffixes[i]);
    out->offsets.push_back(static_cast<int32_t>(out->data.size()));
    prev_start = start;
    prev_len = len;
  }
  return pos + used;
}

void EncodeDeltaByteArray(const std::string_view* values, int64_t n, std::string* out) {
  std::vector<int32_t> prefixes(n);
  std::vector<std::string_view> suffixes(n);
  for (int64_t i = 0; i < n; ++i) {
    std::string_view prev = i > 0 ? values[i - 1] : std::string_view();
    size_t p = 0;
    size_t limit = std::min(prev.size(), values[i].size());
    while (p < limit && prev[p] == values[i][p]) ++p;
    prefixes[i] = static_cast<int32_t>(p);
    suffixes[i] = values[i].substr(p);
  }
  EncodeDeltaBinaryPacked(prefixes.data(), n, out);
  EncodeDeltaLengthByteArray(suffixes.data(), n, out);
}

}  // namespace sqe::parquet
