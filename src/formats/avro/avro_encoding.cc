#include "formats/avro/avro_encoding.h"

namespace sqe::avro {

Status Decoder::Error(std::string_view message) const {
  std::string out;
  if (!what_.empty()) {
    out.append(what_);
    out.append(": ");
  }
  out.append(message);
  out.append(" at offset ");
  out.append(std::to_string(base_offset_ + static_cast<int64_t>(pos_)));
  return Status::Corruption(std::move(out));
}

Result<int64_t> Decoder::ReadLong() {
  uint64_t value = 0;
  int shift = 0;
  for (int i = 0; i < 10; ++i) {
    if (pos_ >= size_) return Error("truncated varint");
    uint8_t byte = data_[pos_++];
    // The 10th byte may only contribute the top bit.
    if (i == 9 && (byte & 0xfe) != 0) return Error("varint overflows 64 bits");
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
    }
    shift += 7;
  }
  return Error("varint longer than 10 bytes");
}

Result<int32_t> Decoder::ReadInt() {
  size_t start = pos_;
  SQE_ASSIGN_OR_RETURN(int64_t v, ReadLong());
  if (pos_ - start > 5 || v < INT32_MIN || v > INT32_MAX) {
    pos_ = start;
    return Error("int varint out of the 32-bit range");
  }
  return static_cast<int32_t>(v);
}

Result<bool> Decoder::ReadBoolean() {
  if (pos_ >= size_) return Error("truncated boolean");
  uint8_t b = data_[pos_];
  if (b > 1) return Error("boolean byte " + std::to_string(b) + " is neither 0 nor 1");
  ++pos_;
  return b == 1;
}

Result<float> Decoder::ReadFloat() {
  if (remaining() < 4) return Error("truncated float");
  uint32_t bits = 0;
  for (int i = 0; i < 4; ++i) bits |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
  pos_ += 4;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

Result<double> Decoder::ReadDouble() {
  if (remaining() < 8) return Error("truncated double");
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
  pos_ += 8;
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}

Result<std::string_view> Decoder::ReadBytes() {
  size_t start = pos_;
  SQE_ASSIGN_OR_RETURN(int64_t n, ReadLong());
  if (n < 0) {
    pos_ = start;
    return Error("negative length " + std::to_string(n));
  }
  if (static_cast<uint64_t>(n) > remaining()) {
    pos_ = start;
    return Error("length " + std::to_string(n) + " exceeds the " + std::to_string(size_ - start) +
                 " bytes left");
  }
  std::string_view out(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(n));
  pos_ += static_cast<size_t>(n);
  return out;
}

Result<std::string_view> Decoder::ReadFixed(size_t n) {
  if (n > remaining()) {
    return Error("need " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
  }
  std::string_view out(reinterpret_cast<const char*>(data_ + pos_), n);
  pos_ += n;
  return out;
}

Status Decoder::Skip(size_t n) {
  if (n > remaining()) return Error("skip past the end");
  pos_ += n;
  return Status::OK();
}

void Encoder::WriteLong(int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  char buf[10];
  int n = 0;
  while (z >= 0x80) {
    buf[n++] = static_cast<char>((z & 0x7f) | 0x80);
    z >>= 7;
  }
  buf[n++] = static_cast<char>(z);
  out_->append(buf, n);
}

void Encoder::WriteFloat(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  char buf[4];
  for (int i = 0; i < 4; ++i) buf[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
  out_->append(buf, 4);
}

void Encoder::WriteDouble(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
  out_->append(buf, 8);
}

}  // namespace sqe::avro
