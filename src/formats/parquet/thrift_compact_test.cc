#include "formats/parquet/thrift_compact.h"

#include <gtest/gtest.h>

#include <limits>

namespace sqe::parquet {
namespace {

TEST(ZigZag, RoundTripsExtremes) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{63},
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    EXPECT_EQ(ZigZagDecode64(ZigZagEncode64(v)), v);
  }
  EXPECT_EQ(ZigZagEncode64(-1), 1u);
  EXPECT_EQ(ZigZagEncode64(1), 2u);
}

TEST(CompactProtocol, StructRoundTripWithEveryType) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteBoolField(1, true);
  w.WriteBoolField(2, false);
  w.WriteFieldBegin(3, CompactType::kByte);
  w.WriteI8(-7);
  w.WriteFieldBegin(4, CompactType::kI16);
  w.WriteI16(-300);
  w.WriteI32Field(5, std::numeric_limits<int32_t>::min());
  w.WriteI64Field(30, std::numeric_limits<int64_t>::max());  // long delta: explicit id
  w.WriteFieldBegin(31, CompactType::kDouble);
  w.WriteDouble(3.25);
  w.WriteBinaryField(32, std::string("a\0b", 3));
  w.WriteFieldBegin(33, CompactType::kList);
  w.WriteListBegin(CompactType::kI32, 20);  // long-form list header
  for (int i = 0; i < 20; ++i) w.WriteI32(i - 10);
  w.WriteFieldBegin(34, CompactType::kList);
  w.WriteListBegin(CompactType::kBoolTrue, 3);
  w.WriteBool(true);
  w.WriteBool(false);
  w.WriteBool(true);
  w.WriteFieldBegin(35, CompactType::kMap);
  w.WriteMapBegin(CompactType::kBinary, CompactType::kI64, 2);
  w.WriteBinary("k1");
  w.WriteI64(1);
  w.WriteBinary("k2");
  w.WriteI64(-2);
  w.WriteFieldBegin(36, CompactType::kStruct);
  w.BeginStruct();
  w.WriteI32Field(1, 42);
  w.EndStruct();
  w.WriteI32Field(37, 9);  // delta is relative to the outer struct's last id again
  w.EndStruct();

  CompactReader r(w.buffer());
  ASSERT_TRUE(r.BeginStruct().ok());
  int16_t id;
  CompactType t;
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(id, 1);
  EXPECT_EQ(*r.ReadBool(), true);
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(id, 2);
  EXPECT_EQ(*r.ReadBool(), false);
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(*r.ReadI8(), -7);
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(*r.ReadI16(), -300);
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(*r.ReadI32(), std::numeric_limits<int32_t>::min());
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(id, 30);
  EXPECT_EQ(*r.ReadI64(), std::numeric_limits<int64_t>::max());
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(*r.ReadDouble(), 3.25);
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(*r.ReadBinary(), std::string("a\0b", 3));
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  CompactType et;
  uint32_t n;
  ASSERT_TRUE(r.ReadListBegin(&et, &n).ok());
  EXPECT_EQ(et, CompactType::kI32);
  ASSERT_EQ(n, 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(*r.ReadI32(), i - 10);
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  ASSERT_TRUE(r.ReadListBegin(&et, &n).ok());
  EXPECT_EQ(et, CompactType::kBoolTrue);
  EXPECT_TRUE(*r.ReadBool());
  EXPECT_FALSE(*r.ReadBool());
  EXPECT_TRUE(*r.ReadBool());
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(t, CompactType::kMap);
  CompactType kt, vt;
  ASSERT_TRUE(r.ReadMapBegin(&kt, &vt, &n).ok());
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(*r.ReadBinary(), "k1");
  EXPECT_EQ(*r.ReadI64(), 1);
  EXPECT_EQ(*r.ReadBinary(), "k2");
  EXPECT_EQ(*r.ReadI64(), -2);
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(t, CompactType::kStruct);
  ASSERT_TRUE(r.Skip(t).ok());
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(id, 37);
  EXPECT_EQ(*r.ReadI32(), 9);
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(t, CompactType::kStop);
  ASSERT_TRUE(r.EndStruct().ok());
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(CompactProtocol, SkipsWholeStructOfEveryType) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteBoolField(1, true);
  w.WriteFieldBegin(2, CompactType::kList);
  w.WriteListBegin(CompactType::kStruct, 2);
  for (int i = 0; i < 2; ++i) {
    w.BeginStruct();
    w.WriteBinaryField(1, "x");
    w.WriteFieldBegin(2, CompactType::kMap);
    w.WriteMapBegin(CompactType::kI32, CompactType::kDouble, 1);
    w.WriteI32(1);
    w.WriteDouble(2);
    w.EndStruct();
  }
  w.WriteFieldBegin(3, CompactType::kMap);
  w.WriteMapBegin(CompactType::kI32, CompactType::kI32, 0);
  w.EndStruct();
  std::string bytes = w.Release();
  bytes.push_back('\x7f');  // trailing byte to prove Skip stops at the struct's end
  CompactReader r(bytes);
  ASSERT_TRUE(r.Skip(CompactType::kStruct).ok());
  EXPECT_EQ(r.remaining(), 1u);
}

Status SkipAll(std::string_view bytes) {
  CompactReader r(bytes, 1000);
  return r.Skip(CompactType::kStruct);
}

TEST(CompactProtocol, TruncationAtEveryByteIsCorruption) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI64Field(1, 1234567890123);
  w.WriteBinaryField(2, "hello");
  w.WriteFieldBegin(3, CompactType::kList);
  w.WriteListBegin(CompactType::kDouble, 2);
  w.WriteDouble(1);
  w.WriteDouble(2);
  w.EndStruct();
  const std::string& full = w.buffer();
  ASSERT_TRUE(SkipAll(full).ok());
  for (size_t len = 0; len < full.size(); ++len) {
    Status st = SkipAll(std::string_view(full).substr(0, len));
    EXPECT_EQ(st.code(), StatusCode::kCorruption) << len;
    EXPECT_NE(st.message().find("at offset 10"), std::string::npos) << st.message();
  }
}

TEST(CompactProtocol, LyingSizesAreRejectedBeforeAllocating) {
  // Binary field claiming 2^40 bytes.
  std::string b = {'\x18', '\x80', '\x80', '\x80', '\x80', '\x80', '\x20'};
  EXPECT_EQ(SkipAll(b).code(), StatusCode::kCorruption);
  // List claiming 2^31 i32 elements with 2 bytes present.
  std::string l = {'\x19', '\xf5', '\x80', '\x80', '\x80', '\x80', '\x08', '\x00', '\x00'};
  Status st = SkipAll(l);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("container size"), std::string::npos) << st.message();
  // Map claiming 1000 entries.
  std::string m = {'\x1b', '\xe8', '\x07', '\x55', '\x00'};
  EXPECT_EQ(SkipAll(m).code(), StatusCode::kCorruption);
  // List of doubles: 3 claimed, 16 bytes present.
  std::string d = {'\x19', '\x37'};
  d.append(16, '\0');
  d.push_back('\0');
  EXPECT_EQ(SkipAll(d).code(), StatusCode::kCorruption);
}

TEST(CompactProtocol, BadTypesAndOverlongVarints) {
  EXPECT_EQ(SkipAll(std::string("\x1d", 1)).code(), StatusCode::kCorruption);  // type 13
  std::string v = {'\x15'};
  v.append(11, '\xff');
  EXPECT_EQ(SkipAll(v).code(), StatusCode::kCorruption);
  // An i32 field whose value does not fit 32 bits.
  CompactWriter w;
  w.BeginStruct();
  w.WriteI64Field(1, int64_t{1} << 40);
  w.EndStruct();
  CompactReader r(w.buffer());
  ASSERT_TRUE(r.BeginStruct().ok());
  int16_t id;
  CompactType t;
  ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
  EXPECT_EQ(r.ReadI32().status().code(), StatusCode::kCorruption);
}

TEST(CompactProtocol, NestingDepthIsLimited) {
  std::string deep;
  for (int i = 0; i < 1000; ++i) deep.push_back('\x1c');  // field 1: struct, nested
  deep.append(1000, '\0');
  Status st = SkipAll(deep);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("nesting"), std::string::npos);
  std::string lists;
  for (int i = 0; i < 1000; ++i) lists += (i == 0 ? "\x19\x19" : "\x19");  // list<list<...>>
  EXPECT_EQ(SkipAll(lists).code(), StatusCode::kCorruption);
}

TEST(CompactProtocol, FieldIdDeltaAndNegativeIds) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(15, 1);  // delta 15: short form
  w.WriteI32Field(14, 2);  // going down: long form
  w.WriteI32Field(-3, 3);  // negative id: long form
  w.EndStruct();
  CompactReader r(w.buffer());
  ASSERT_TRUE(r.BeginStruct().ok());
  int16_t id;
  CompactType t;
  for (int16_t want : {15, 14, -3}) {
    ASSERT_TRUE(r.ReadFieldBegin(&id, &t).ok());
    EXPECT_EQ(id, want);
    ASSERT_TRUE(r.ReadI32().ok());
  }
}

}  // namespace
}  // namespace sqe::parquet
