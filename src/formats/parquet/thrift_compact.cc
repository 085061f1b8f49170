#include "formats/parquet/thrift_compact.h"

#include <cstring>
#include <limits>

namespace sqe::parquet {
namespace {

bool IsKnownType(uint8_t t) { return t <= static_cast<uint8_t>(CompactType::kStruct); }

// Minimum encoded size of one element of `type` inside a container; bounds the element
// count a header may claim against the bytes left.
size_t MinElementBytes(CompactType type) {
  switch (type) {
    case CompactType::kDouble:
      return 8;
    default:
      return 1;
  }
}

}  // namespace

CompactReader::CompactReader(const uint8_t* data, size_t size, uint64_t base_offset)
    : data_(data), size_(size), base_offset_(base_offset) {}

Status CompactReader::Corrupt(std::string_view what) const {
  return Status::Corruption("thrift compact: " + std::string(what) + " at offset " +
                            std::to_string(base_offset_ + pos_));
}

Status CompactReader::Need(size_t n) const {
  if (n > size_ - pos_) return Corrupt("truncated input (need " + std::to_string(n) + " bytes)");
  return Status::OK();
}

Status CompactReader::CheckContainer(uint64_t size, size_t min_bytes_each) const {
  if (size > remaining() / min_bytes_each) {
    return Corrupt("container size " + std::to_string(size) + " exceeds remaining bytes");
  }
  return Status::OK();
}

Status CompactReader::BeginStruct() {
  if (last_field_id_.size() >= static_cast<size_t>(kMaxDepth)) {
    return Corrupt("nesting deeper than " + std::to_string(kMaxDepth));
  }
  last_field_id_.push_back(0);
  return Status::OK();
}

Status CompactReader::EndStruct() {
  if (last_field_id_.empty()) return Corrupt("EndStruct without BeginStruct");
  last_field_id_.pop_back();
  return Status::OK();
}

Result<uint64_t> CompactReader::ReadVarint() {
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ >= size_) return Corrupt("truncated varint");
    uint8_t b = data_[pos_++];
    if (shift == 63 && (b & 0x7e) != 0) return Corrupt("varint overflows 64 bits");
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return result;
  }
  return Corrupt("varint longer than 10 bytes");
}

Status CompactReader::ReadFieldBegin(int16_t* id, CompactType* type) {
  if (last_field_id_.empty()) return Corrupt("field header outside a struct");
  pending_bool_ = false;
  SQE_RETURN_NOT_OK(Need(1));
  uint8_t header = data_[pos_];
  uint8_t t = header & 0x0f;
  if (!IsKnownType(t)) return Corrupt("unknown field type " + std::to_string(t));
  ++pos_;
  *type = static_cast<CompactType>(t);
  if (*type == CompactType::kStop) {
    *id = 0;
    return Status::OK();
  }
  uint8_t delta = header >> 4;
  int32_t field_id;
  if (delta != 0) {
    field_id = last_field_id_.back() + delta;
  } else {
    SQE_ASSIGN_OR_RETURN(uint64_t raw, ReadVarint());
    int64_t v = ZigZagDecode64(raw);
    field_id = static_cast<int32_t>(v);
    if (v != field_id) field_id = std::numeric_limits<int32_t>::max();
  }
  if (field_id > std::numeric_limits<int16_t>::max() ||
      field_id < std::numeric_limits<int16_t>::min()) {
    return Corrupt("field id out of range");
  }
  *id = static_cast<int16_t>(field_id);
  last_field_id_.back() = *id;
  if (*type == CompactType::kBoolTrue || *type == CompactType::kBoolFalse) {
    pending_bool_ = true;
    pending_bool_value_ = *type == CompactType::kBoolTrue;
  }
  return Status::OK();
}

Result<bool> CompactReader::ReadBool() {
  if (pending_bool_) {
    pending_bool_ = false;
    return pending_bool_value_;
  }
  SQE_RETURN_NOT_OK(Need(1));
  // Container form: 1 is true; writers differ on false (0 or 2).
  return data_[pos_++] == 1;
}

Result<int8_t> CompactReader::ReadI8() {
  SQE_RETURN_NOT_OK(Need(1));
  return static_cast<int8_t>(data_[pos_++]);
}

Result<int16_t> CompactReader::ReadI16() {
  SQE_ASSIGN_OR_RETURN(uint64_t raw, ReadVarint());
  int64_t v = ZigZagDecode64(raw);
  if (v < std::numeric_limits<int16_t>::min() || v > std::numeric_limits<int16_t>::max()) {
    return Corrupt("i16 out of range");
  }
  return static_cast<int16_t>(v);
}

Result<int32_t> CompactReader::ReadI32() {
  SQE_ASSIGN_OR_RETURN(uint64_t raw, ReadVarint());
  int64_t v = ZigZagDecode64(raw);
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return Corrupt("i32 out of range");
  }
  return static_cast<int32_t>(v);
}

Result<int64_t> CompactReader::ReadI64() {
  SQE_ASSIGN_OR_RETURN(uint64_t raw, ReadVarint());
  return ZigZagDecode64(raw);
}

Result<int64_t> CompactReader::ReadInteger(CompactType type) {
  switch (type) {
    case CompactType::kByte: {
      SQE_ASSIGN_OR_RETURN(int8_t v, ReadI8());
      return static_cast<int64_t>(v);
    }
    case CompactType::kI16:
    case CompactType::kI32:
    case CompactType::kI64:
      return ReadI64();
    default:
      return Corrupt("expected an integer, found type " + std::to_string(static_cast<int>(type)));
  }
}

Result<double> CompactReader::ReadDouble() {
  SQE_RETURN_NOT_OK(Need(8));
  double v;
  std::memcpy(&v, data_ + pos_, 8);  // little-endian on the wire and on our targets
  pos_ += 8;
  return v;
}

Result<std::string_view> CompactReader::ReadBinaryView() {
  SQE_ASSIGN_OR_RETURN(uint64_t len, ReadVarint());
  if (len > remaining()) {
    return Corrupt("binary length " + std::to_string(len) + " exceeds remaining bytes");
  }
  std::string_view v(reinterpret_cast<const char*>(data_ + pos_), len);
  pos_ += len;
  return v;
}

Result<std::string> CompactReader::ReadBinary() {
  SQE_ASSIGN_OR_RETURN(std::string_view v, ReadBinaryView());
  return std::string(v);
}

Status CompactReader::ReadListBegin(CompactType* element_type, uint32_t* size) {
  SQE_RETURN_NOT_OK(Need(1));
  uint8_t header = data_[pos_];
  uint8_t t = header & 0x0f;
  if (t == 0 || !IsKnownType(t)) return Corrupt("bad list element type " + std::to_string(t));
  ++pos_;
  uint64_t n = header >> 4;
  if (n == 15) {
    SQE_ASSIGN_OR_RETURN(n, ReadVarint());
  }
  // Lists of bools carry the type as 1 or 2; both mean "bool".
  *element_type = static_cast<CompactType>(t == 2 ? 1 : t);
  SQE_RETURN_NOT_OK(CheckContainer(n, MinElementBytes(*element_type)));
  *size = static_cast<uint32_t>(n);
  return Status::OK();
}

Status CompactReader::ReadMapBegin(CompactType* key_type, CompactType* value_type, uint32_t* size) {
  SQE_ASSIGN_OR_RETURN(uint64_t n, ReadVarint());
  if (n == 0) {
    *key_type = *value_type = CompactType::kStop;
    *size = 0;
    return Status::OK();
  }
  SQE_RETURN_NOT_OK(Need(1));
  uint8_t kv = data_[pos_];
  uint8_t k = kv >> 4, v = kv & 0x0f;
  if (k == 0 || v == 0 || !IsKnownType(k) || !IsKnownType(v)) {
    return Corrupt("bad map key/value types");
  }
  ++pos_;
  *key_type = static_cast<CompactType>(k == 2 ? 1 : k);
  *value_type = static_cast<CompactType>(v == 2 ? 1 : v);
  SQE_RETURN_NOT_OK(CheckContainer(n, MinElementBytes(*key_type) + MinElementBytes(*value_type)));
  *size = static_cast<uint32_t>(n);
  return Status::OK();
}

Status CompactReader::Skip(CompactType type) {
  switch (type) {
    case CompactType::kBoolTrue:
    case CompactType::kBoolFalse:
      return ReadBool().status();
    case CompactType::kByte:
      return ReadI8().status();
    case CompactType::kI16:
    case CompactType::kI32:
    case CompactType::kI64:
      return ReadVarint().status();
    case CompactType::kDouble:
      return ReadDouble().status();
    case CompactType::kBinary:
      return ReadBinaryView().status();
    case CompactType::kStruct: {
      SQE_RETURN_NOT_OK(BeginStruct());
      while (true) {
        int16_t id;
        CompactType t;
        SQE_RETURN_NOT_OK(ReadFieldBegin(&id, &t));
        if (t == CompactType::kStop) break;
        SQE_RETURN_NOT_OK(Skip(t));
      }
      return EndStruct();
    }
    case CompactType::kList:
    case CompactType::kSet:
    case CompactType::kMap: {
      // Containers count towards the depth limit like structs do.
      SQE_RETURN_NOT_OK(BeginStruct());
      if (type == CompactType::kMap) {
        CompactType k, v;
        uint32_t n;
        SQE_RETURN_NOT_OK(ReadMapBegin(&k, &v, &n));
        for (uint32_t i = 0; i < n; ++i) {
          SQE_RETURN_NOT_OK(Skip(k));
          SQE_RETURN_NOT_OK(Skip(v));
        }
      } else {
        CompactType e;
        uint32_t n;
        SQE_RETURN_NOT_OK(ReadListBegin(&e, &n));
        for (uint32_t i = 0; i < n; ++i) SQE_RETURN_NOT_OK(Skip(e));
      }
      return EndStruct();
    }
    case CompactType::kStop:
      break;
  }
  return Corrupt("cannot skip type " + std::to_string(static_cast<int>(type)));
}

// ---- writer ----

void CompactWriter::BeginStruct() { last_field_id_.push_back(0); }

void CompactWriter::EndStruct() {
  out_.push_back(0);
  if (!last_field_id_.empty()) last_field_id_.pop_back();
}

void CompactWriter::WriteFieldBegin(int16_t id, CompactType type) {
  int16_t& last = last_field_id_.back();
  int delta = id - last;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<char>((delta << 4) | static_cast<uint8_t>(type)));
  } else {
    out_.push_back(static_cast<char>(type));
    WriteI16(id);
  }
  last = id;
}

void CompactWriter::WriteBoolField(int16_t id, bool value) {
  WriteFieldBegin(id, value ? CompactType::kBoolTrue : CompactType::kBoolFalse);
}

void CompactWriter::WriteBool(bool value) { out_.push_back(value ? 1 : 2); }

void CompactWriter::WriteI8(int8_t value) { out_.push_back(static_cast<char>(value)); }

void CompactWriter::WriteDouble(double value) {
  char bytes[8];
  std::memcpy(bytes, &value, 8);
  out_.append(bytes, 8);
}

void CompactWriter::WriteBinary(std::string_view value) {
  WriteVarint(value.size());
  out_.append(value);
}

void CompactWriter::WriteListBegin(CompactType element_type, uint32_t size) {
  uint8_t t = static_cast<uint8_t>(element_type == CompactType::kBoolFalse ? CompactType::kBoolTrue
                                                                           : element_type);
  if (size < 15) {
    out_.push_back(static_cast<char>((size << 4) | t));
  } else {
    out_.push_back(static_cast<char>(0xf0 | t));
    WriteVarint(size);
  }
}

void CompactWriter::WriteMapBegin(CompactType key_type, CompactType value_type, uint32_t size) {
  WriteVarint(size);
  if (size == 0) return;
  out_.push_back(
      static_cast<char>((static_cast<uint8_t>(key_type) << 4) | static_cast<uint8_t>(value_type)));
}

void CompactWriter::WriteVarint(uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<char>(value));
}

}  // namespace sqe::parquet
