#pragma once
/// Avro binary encoding of primitives (specification, "Binary Encoding"): zig-zag
/// varints for int/long, little-endian IEEE float/double, length-prefixed bytes/string,
/// and the block counts of arrays and maps (a negative count is followed by the block's
/// byte size).
///
/// Decoder reads a borrowed byte range and never reads past it: every short read, varint
/// longer than 10 bytes (5 for int) or length larger than the bytes left is Corruption
/// naming the offset. Encoder appends to a std::string.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "common/result.h"

namespace sqe::avro {

class Decoder {
 public:
  /// `base_offset` is added to positions in error messages (the range's offset in its
  /// file); `what` names the source ("avro file 'x' block 3").
  Decoder(const uint8_t* data, size_t size, int64_t base_offset = 0, std::string_view what = "")
      : data_(data), size_(size), base_offset_(base_offset), what_(what) {}
  explicit Decoder(std::string_view bytes, int64_t base_offset = 0, std::string_view what = "")
      : Decoder(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), base_offset, what) {}

  Result<int64_t> ReadLong();
  Result<int32_t> ReadInt();
  Result<bool> ReadBoolean();
  Result<float> ReadFloat();
  Result<double> ReadDouble();
  /// bytes and string: a long length, then that many bytes (a view into the input).
  Result<std::string_view> ReadBytes();
  /// Exactly `n` raw bytes (fixed, sync markers).
  Result<std::string_view> ReadFixed(size_t n);
  Status Skip(size_t n);

  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }
  bool at_end() const { return pos_ == size_; }
  /// Corruption "<what>: <message> at offset N".
  Status Error(std::string_view message) const;

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  int64_t base_offset_;
  std::string_view what_;
};

class Encoder {
 public:
  explicit Encoder(std::string* out) : out_(out) {}

  void WriteLong(int64_t v);
  void WriteInt(int32_t v) { WriteLong(v); }
  void WriteBoolean(bool v) { out_->push_back(v ? 1 : 0); }
  void WriteFloat(float v);
  void WriteDouble(double v);
  void WriteBytes(std::string_view v) {
    WriteLong(static_cast<int64_t>(v.size()));
    out_->append(v);
  }
  void WriteFixed(std::string_view v) { out_->append(v); }

  std::string* out() { return out_; }

 private:
  std::string* out_;
};

}  // namespace sqe::avro
