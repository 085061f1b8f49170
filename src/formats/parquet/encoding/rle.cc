#include "formats/parquet/encoding/rle.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "formats/parquet/encoding/bit_packing.h"

namespace sqe::parquet {

RleBitPackedDecoder::RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width)
    : data_(data), size_(size), bit_width_(bit_width) {}

Status RleBitPackedDecoder::NextRun() {
  if (bit_width_ < 0 || bit_width_ > 32) {
    return Status::Corruption("parquet RLE: bit width " + std::to_string(bit_width_) +
                              " is outside 0..32");
  }
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (pos_ >= size_) {
      return Status::Corruption("parquet RLE: stream ended at byte " + std::to_string(pos_) +
                                " while values were still expected");
    }
    if (shift > 35) return Status::Corruption("parquet RLE: run header varint too long");
    uint8_t b = data_[pos_++];
    header |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  uint64_t count = header >> 1;
  if (count == 0)
    return Status::Corruption("parquet RLE: empty run at byte " + std::to_string(pos_));
  if (header & 1) {
    // Bit-packed run. A final run may be cut short by writers that trim padding; accept
    // the whole groups that are present and fail only if values run out.
    uint64_t avail_groups = bit_width_ == 0 ? count : (size_ - pos_) / bit_width_;
    literal_groups_left_ = static_cast<int64_t>(std::min<uint64_t>(count, avail_groups));
    if (literal_groups_left_ == 0) {
      return Status::Corruption("parquet RLE: bit-packed run at byte " + std::to_string(pos_) +
                                " has no data");
    }
  } else {
    size_t bytes = (bit_width_ + 7) / 8;
    if (bytes > size_ - pos_) {
      return Status::Corruption("parquet RLE: truncated run value at byte " + std::to_string(pos_));
    }
    uint32_t v = 0;
    std::memcpy(&v, data_ + pos_, bytes);
    pos_ += bytes;
    if (bit_width_ < 32 && (v >> bit_width_) != 0) {
      return Status::Corruption("parquet RLE: run value " + std::to_string(v) +
                                " wider than bit width " + std::to_string(bit_width_));
    }
    rle_value_ = v;
    rle_left_ =
        static_cast<int64_t>(std::min<uint64_t>(count, std::numeric_limits<int64_t>::max()));
  }
  return Status::OK();
}

template <typename T>
Status RleBitPackedDecoder::GetBatch(T* out, int64_t n) {
  int64_t done = 0;
  while (done < n) {
    if (buffer_pos_ < buffer_len_) {
      int64_t take = std::min<int64_t>(n - done, buffer_len_ - buffer_pos_);
      for (int64_t i = 0; i < take; ++i) out[done + i] = static_cast<T>(buffer_[buffer_pos_ + i]);
      buffer_pos_ += static_cast<int>(take);
      done += take;
      continue;
    }
    if (rle_left_ > 0) {
      int64_t take = std::min(n - done, rle_left_);
      std::fill(out + done, out + done + take, static_cast<T>(rle_value_));
      rle_left_ -= take;
      done += take;
      continue;
    }
    if (literal_groups_left_ > 0) {
      int64_t groups = std::min<int64_t>(literal_groups_left_, kBufferValues / 8);
      UnpackBits32(data_ + pos_, groups, bit_width_, buffer_);
      pos_ += groups * bit_width_;
      literal_groups_left_ -= groups;
      buffer_pos_ = 0;
      buffer_len_ = static_cast<int>(groups * 8);
      continue;
    }
    SQE_RETURN_NOT_OK(NextRun());
  }
  return Status::OK();
}

template Status RleBitPackedDecoder::GetBatch<uint8_t>(uint8_t*, int64_t);
template Status RleBitPackedDecoder::GetBatch<int16_t>(int16_t*, int64_t);
template Status RleBitPackedDecoder::GetBatch<int32_t>(int32_t*, int64_t);
template Status RleBitPackedDecoder::GetBatch<uint32_t>(uint32_t*, int64_t);

namespace {

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

}  // namespace

void RleBitPackedEncoder::Finish(std::string* out) {
  const int64_t n = static_cast<int64_t>(values_.size());
  const size_t value_bytes = (bit_width_ + 7) / 8;
  std::vector<uint64_t> literal;
  auto flush_literal = [&] {
    if (literal.empty()) return;
    PutVarint((static_cast<uint64_t>((literal.size() + 7) / 8) << 1) | 1, out);
    PackBits(literal.data(), static_cast<int64_t>(literal.size()), bit_width_, out);
    literal.clear();
  };
  int64_t i = 0;
  while (i < n) {
    int64_t run = 1;
    while (i + run < n && values_[i + run] == values_[i]) ++run;
    // Literal runs must hold whole groups of 8 unless they end the stream; borrow values
    // from this run to complete the group before switching to RLE.
    if (run >= 8 && literal.size() % 8 != 0) {
      int64_t borrow = 8 - static_cast<int64_t>(literal.size() % 8);
      for (int64_t k = 0; k < borrow; ++k) literal.push_back(values_[i + k]);
      i += borrow;
      run -= borrow;
    }
    if (run >= 8) {
      flush_literal();
      PutVarint(static_cast<uint64_t>(run) << 1, out);
      uint32_t v = values_[i];
      out->append(reinterpret_cast<const char*>(&v), value_bytes);
      i += run;
    } else {
      for (int64_t k = 0; k < run; ++k) literal.push_back(values_[i + k]);
      i += run;
    }
  }
  flush_literal();
  values_.clear();
}

}  // namespace sqe::parquet
