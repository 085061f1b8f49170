#pragma once
/// Thrift compact protocol (apache/thrift doc/specs/thrift-compact-protocol.md): the
/// encoding of every Parquet footer, page header and page index structure.
///
/// CompactReader is hardened for untrusted input: every read is bounds-checked, struct
/// nesting is limited, and container sizes are checked against the bytes that remain, so
/// malformed input yields Status::Corruption naming the byte offset, never a crash or a
/// large allocation. CompactWriter appends to a std::string. Neither is thread-safe.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "common/status.h"

namespace sqe::parquet {

/// The 4-bit wire type of a compact-protocol value.
enum class CompactType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

/// Zigzag mapping of signed to unsigned integers (0, -1, 1, -2 -> 0, 1, 2, 3).
inline uint64_t ZigZagEncode64(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t ZigZagDecode64(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

/// Reads compact-protocol values from a borrowed byte range, which must outlive it.
/// `base_offset` is added to offsets in error messages (e.g. the footer's file offset).
class CompactReader {
 public:
  static constexpr int kMaxDepth = 64;

  CompactReader(const uint8_t* data, size_t size, uint64_t base_offset = 0);
  explicit CompactReader(std::string_view data, uint64_t base_offset = 0)
      : CompactReader(reinterpret_cast<const uint8_t*>(data.data()), data.size(), base_offset) {}

  /// Bytes consumed so far, and left.
  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

  /// Struct framing: BeginStruct before the first field header, EndStruct after kStop.
  Status BeginStruct();
  Status EndStruct();
  /// Reads a field header; `*type` is kStop at the end of the struct (then `*id` is 0).
  /// For bool fields the value is in the header; the next ReadBool returns it.
  Status ReadFieldBegin(int16_t* id, CompactType* type);

  Result<bool> ReadBool();
  Result<int8_t> ReadI8();
  Result<int16_t> ReadI16();
  Result<int32_t> ReadI32();
  Result<int64_t> ReadI64();
  /// Any integer wire type (byte, i16, i32, i64), returned widened.
  Result<int64_t> ReadInteger(CompactType type);
  Result<double> ReadDouble();
  /// A length-prefixed byte string; the view borrows the input.
  Result<std::string_view> ReadBinaryView();
  Result<std::string> ReadBinary();
  /// List and set header. The size is checked against the remaining bytes.
  Status ReadListBegin(CompactType* element_type, uint32_t* size);
  /// Map header; key/value types are kStop for an empty map.
  Status ReadMapBegin(CompactType* key_type, CompactType* value_type, uint32_t* size);
  Result<uint64_t> ReadVarint();

  /// Skips one value of `type`, recursing into structs and containers (depth-limited).
  Status Skip(CompactType type);

  /// Corruption "thrift compact: <what> at offset N".
  Status Corrupt(std::string_view what) const;

 private:
  Status Need(size_t n) const;
  Status CheckContainer(uint64_t size, size_t min_bytes_each) const;

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  uint64_t base_offset_;
  std::vector<int16_t> last_field_id_;  // one per open struct
  bool pending_bool_ = false;
  bool pending_bool_value_ = false;
};

/// Appends compact-protocol values to an owned buffer.
class CompactWriter {
 public:
  void BeginStruct();
  /// Writes the kStop byte and closes the struct.
  void EndStruct();
  /// A field header. Bool fields must use WriteBoolField instead.
  void WriteFieldBegin(int16_t id, CompactType type);
  void WriteBoolField(int16_t id, bool value);

  // Values (inside a field or as container elements).
  void WriteBool(bool value);  // container element form: one byte
  void WriteI8(int8_t value);
  void WriteI16(int16_t value) { WriteVarint(ZigZagEncode64(value)); }
  void WriteI32(int32_t value) { WriteVarint(ZigZagEncode64(value)); }
  void WriteI64(int64_t value) { WriteVarint(ZigZagEncode64(value)); }
  void WriteDouble(double value);
  void WriteBinary(std::string_view value);
  void WriteListBegin(CompactType element_type, uint32_t size);
  void WriteMapBegin(CompactType key_type, CompactType value_type, uint32_t size);
  void WriteVarint(uint64_t value);

  // Field shorthands: header + value.
  void WriteI32Field(int16_t id, int32_t value) {
    WriteFieldBegin(id, CompactType::kI32);
    WriteI32(value);
  }
  void WriteI64Field(int16_t id, int64_t value) {
    WriteFieldBegin(id, CompactType::kI64);
    WriteI64(value);
  }
  void WriteBinaryField(int16_t id, std::string_view value) {
    WriteFieldBegin(id, CompactType::kBinary);
    WriteBinary(value);
  }

  const std::string& buffer() const { return out_; }
  std::string Release() { return std::move(out_); }

 private:
  std::string out_;
  std::vector<int16_t> last_field_id_;
};

}  // namespace sqe::parquet
