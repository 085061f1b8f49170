#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "formats/parquet/encoding/bit_packing.h"
#include "formats/parquet/encoding/byte_stream_split.h"
#include "formats/parquet/encoding/delta.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/levels.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"

namespace sqe::parquet {
namespace {

const uint8_t* U8(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

TEST(BitPacking, EveryWidthRoundTrips) {
  std::mt19937_64 rng(1);
  for (int w = 0; w <= 64; ++w) {
    const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    std::vector<uint64_t> values(64);
    for (auto& v : values) v = rng() & mask;
    values[0] = mask;  // the widest value
    std::string packed;
    PackBits(values.data(), 64, w, &packed);
    ASSERT_EQ(packed.size(), static_cast<size_t>(8 * w));
    std::vector<uint64_t> back(64);
    UnpackBits64(U8(packed), 8, w, back.data());
    EXPECT_EQ(back, values) << "width " << w;
    if (w <= 32) {
      std::vector<uint32_t> back32(64);
      UnpackBits32(U8(packed), 8, w, back32.data());
      for (int i = 0; i < 64; ++i) EXPECT_EQ(back32[i], values[i]) << "width " << w;
    }
  }
}

TEST(BitPacking, MatchesSpecExample) {
  // Encodings.md: values 0..7 at width 3 pack to 10001000 11000110 11111010.
  uint64_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  std::string packed;
  PackBits(v, 8, 3, &packed);
  EXPECT_EQ(packed, std::string("\x88\xc6\xfa", 3));
}

std::vector<uint32_t> RleRoundTrip(const std::vector<uint32_t>& values, int width) {
  RleBitPackedEncoder enc(width);
  enc.PutBatch(values.data(), static_cast<int64_t>(values.size()));
  std::string bytes;
  enc.Finish(&bytes);
  RleBitPackedDecoder dec(U8(bytes), bytes.size(), width);
  std::vector<uint32_t> out(values.size());
  // Decode in odd-sized batches to cross run and buffer boundaries.
  size_t done = 0;
  for (size_t step = 1; done < out.size(); step = step * 3 + 1) {
    size_t take = std::min(step, out.size() - done);
    EXPECT_TRUE(dec.GetBatch(out.data() + done, static_cast<int64_t>(take)).ok());
    done += take;
  }
  return out;
}

TEST(Rle, RoundTripsEveryWidthWithRunsAndLiterals) {
  std::mt19937 rng(3);
  for (int w = 0; w <= 32; ++w) {
    const uint64_t mask = w == 32 ? 0xffffffffu : (uint64_t{1} << w) - 1;
    std::vector<uint32_t> values;
    for (int i = 0; i < 2000; ++i) {
      if (i % 300 < 100) {
        values.push_back(static_cast<uint32_t>(mask));  // long runs
      } else {
        values.push_back(static_cast<uint32_t>(rng() & mask));
      }
    }
    EXPECT_EQ(RleRoundTrip(values, w), values) << "width " << w;
  }
}

TEST(Rle, EmptySingleAndLongRun) {
  EXPECT_TRUE(RleRoundTrip({}, 3).empty());
  EXPECT_EQ(RleRoundTrip({5}, 3), std::vector<uint32_t>{5});
  std::vector<uint32_t> run(1'000'000, 1);
  RleBitPackedEncoder enc(1);
  enc.PutBatch(run.data(), static_cast<int64_t>(run.size()));
  std::string bytes;
  enc.Finish(&bytes);
  EXPECT_LT(bytes.size(), 8u);
  EXPECT_EQ(RleRoundTrip(run, 1), run);
}

TEST(Rle, LevelsIntoInt16) {
  std::vector<uint32_t> levels = {0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0};
  RleBitPackedEncoder enc(2);
  enc.PutBatch(levels.data(), static_cast<int64_t>(levels.size()));
  std::string bytes;
  enc.Finish(&bytes);
  RleBitPackedDecoder dec(U8(bytes), bytes.size(), 2);
  std::vector<int16_t> out(levels.size());
  ASSERT_TRUE(dec.GetBatch(out.data(), static_cast<int64_t>(out.size())).ok());
  for (size_t i = 0; i < levels.size(); ++i) EXPECT_EQ(out[i], static_cast<int16_t>(levels[i]));
}

TEST(Rle, MalformedStreamsAreCorruption) {
  uint32_t out[64];
  // Runs out of data.
  std::string rle = {'\x08', '\x01'};  // RLE run of 4 ones
  RleBitPackedDecoder a(U8(rle), rle.size(), 1);
  EXPECT_EQ(a.GetBatch(out, 5).code(), StatusCode::kCorruption);
  // Bit-packed run claiming 100 groups with 1 byte present: whole groups only.
  std::string bp = {'\xc9', '\x01', '\xff'};
  RleBitPackedDecoder b(U8(bp), bp.size(), 8);
  EXPECT_TRUE(b.GetBatch(out, 8).code() == StatusCode::kCorruption);
  // RLE value wider than the bit width.
  std::string wide = {'\x02', '\x05'};
  RleBitPackedDecoder c(U8(wide), wide.size(), 2);
  EXPECT_EQ(c.GetBatch(out, 1).code(), StatusCode::kCorruption);
  // Bad bit width.
  RleBitPackedDecoder d(U8(rle), rle.size(), 33);
  EXPECT_EQ(d.GetBatch(out, 1).code(), StatusCode::kCorruption);
  // Zero-length run.
  std::string zero = {'\x00'};
  RleBitPackedDecoder e(U8(zero), zero.size(), 1);
  EXPECT_EQ(e.GetBatch(out, 1).code(), StatusCode::kCorruption);
}

TEST(Plain, FixedWidthTypesRoundTrip) {
  std::vector<int64_t> v = {0, -1, std::numeric_limits<int64_t>::min(),
                            std::numeric_limits<int64_t>::max()};
  std::string bytes;
  EncodePlain(v.data(), 4, &bytes);
  std::vector<int64_t> back(4);
  auto used = DecodePlain(U8(bytes), bytes.size(), 4, back.data());
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(*used, 32u);
  EXPECT_EQ(back, v);
  EXPECT_EQ(DecodePlain(U8(bytes), bytes.size() - 1, 4, back.data()).status().code(),
            StatusCode::kCorruption);
  std::vector<double> d = {1.5, -0.0, std::numeric_limits<double>::infinity()};
  bytes.clear();
  EncodePlain(d.data(), 3, &bytes);
  std::vector<double> dback(3);
  ASSERT_TRUE(DecodePlain(U8(bytes), bytes.size(), 3, dback.data()).ok());
  EXPECT_EQ(dback, d);
}

TEST(Plain, BooleansAreBitPacked) {
  std::vector<uint8_t> v = {1, 0, 1, 1, 0, 0, 0, 0, 1, 1};
  std::string bytes;
  EncodePlainBoolean(v.data(), 10, &bytes);
  EXPECT_EQ(bytes, std::string("\x0d\x03", 2));
  std::vector<uint8_t> back(10);
  auto used = DecodePlainBoolean(U8(bytes), bytes.size(), 10, back.data());
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(*used, 2u);
  EXPECT_EQ(back, v);
  EXPECT_FALSE(DecodePlainBoolean(U8(bytes), bytes.size(), 17, back.data()).ok());
}

TEST(Plain, ByteArraysAndLyingLengths) {
  std::vector<std::string_view> v = {"", "a", "hello world"};
  std::string bytes;
  EncodePlainByteArray(v.data(), 3, &bytes);
  std::vector<std::string_view> back(3);
  auto used = DecodePlainByteArray(U8(bytes), bytes.size(), 3, back.data());
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(*used, bytes.size());
  EXPECT_EQ(back, v);
  std::string lying = bytes;
  lying[5] = '\x7f';  // second value's length
  EXPECT_EQ(DecodePlainByteArray(U8(lying), lying.size(), 3, back.data()).status().code(),
            StatusCode::kCorruption);
  EXPECT_FALSE(DecodePlainByteArray(U8(bytes), bytes.size(), 4, back.data()).ok());
}

TEST(Plain, FixedLenByteArrayAndInt96) {
  std::string values = "abcdefghijkl";
  std::string bytes;
  EncodePlainFixedLenByteArray(U8(values), 3, 4, &bytes);
  std::string back(12, '\0');
  ASSERT_TRUE(DecodePlainFixedLenByteArray(U8(bytes), bytes.size(), 3, 4,
                                           reinterpret_cast<uint8_t*>(back.data()))
                  .ok());
  EXPECT_EQ(back, values);
  EXPECT_FALSE(
      DecodePlainFixedLenByteArray(U8(bytes), 11, 3, 4, reinterpret_cast<uint8_t*>(back.data()))
          .ok());

  for (int64_t nanos : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{1700000000123456789},
                        int64_t{-86400LL * 1000000000LL * 365}}) {
    Int96 v = UnixNanosToInt96(nanos);
    EXPECT_EQ(Int96ToUnixNanos(v), nanos);
    std::string b;
    EncodePlain(&v, 1, &b);
    ASSERT_EQ(b.size(), 12u);
    Int96 w;
    ASSERT_TRUE(DecodePlain(U8(b), b.size(), 1, &w).ok());
    EXPECT_EQ(w, v);
  }
  EXPECT_EQ(UnixNanosToInt96(0).value[2], 2440588u);
}

TEST(Dictionary, GathersAndRejectsBadIndexes) {
  std::vector<std::string_view> dict = {"red", "green", "blue"};
  std::vector<uint32_t> idx;
  for (int i = 0; i < 3000; ++i) idx.push_back(i % 7 == 0 ? 2 : i % 3);
  std::string bytes;
  EncodeDictionaryIndices(idx.data(), static_cast<int64_t>(idx.size()), 3, &bytes);
  EXPECT_EQ(bytes[0], 2);  // bit width
  std::vector<std::string_view> out(idx.size());
  ASSERT_TRUE(DecodeDictionaryIndices(U8(bytes), bytes.size(), dict.data(), 3,
                                      static_cast<int64_t>(idx.size()), out.data())
                  .ok());
  for (size_t i = 0; i < idx.size(); ++i) EXPECT_EQ(out[i], dict[idx[i]]);
  // A dictionary smaller than the indices claim.
  Status st = DecodeDictionaryIndices(U8(bytes), bytes.size(), dict.data(), 2,
                                      static_cast<int64_t>(idx.size()), out.data());
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("out of range"), std::string::npos);
  std::string wide = {'\x21', '\x02', '\x00'};
  std::vector<uint32_t> raw(1);
  EXPECT_EQ(DecodeDictionaryIndexValues(U8(wide), wide.size(), 3, 1, raw.data()).code(),
            StatusCode::kCorruption);
  // No values: nothing to read, not even the width byte.
  EXPECT_TRUE(DecodeDictionaryIndices(U8(wide), 0, dict.data(), 3, 0, out.data()).ok());
  // Single-entry dictionary: bit width 0.
  std::vector<int64_t> one = {42};
  std::vector<uint32_t> zeros(10, 0);
  std::string b0;
  EncodeDictionaryIndices(zeros.data(), 10, 1, &b0);
  EXPECT_EQ(b0[0], 0);
  std::vector<int64_t> o(10);
  ASSERT_TRUE(DecodeDictionaryIndices(U8(b0), b0.size(), one.data(), 1, 10, o.data()).ok());
  EXPECT_EQ(o, std::vector<int64_t>(10, 42));
}

template <typename T>
std::vector<T> DeltaRoundTrip(const std::vector<T>& values) {
  std::string bytes;
  EncodeDeltaBinaryPacked(values.data(), static_cast<int64_t>(values.size()), &bytes);
  bytes += "tail";
  DeltaBinaryPackedDecoder dec;
  EXPECT_TRUE(dec.Init(U8(bytes), bytes.size()).ok());
  EXPECT_EQ(dec.total_values(), static_cast<int64_t>(values.size()));
  std::vector<T> out(values.size());
  size_t done = 0;
  for (size_t step = 1; done < out.size(); step = step * 2 + 1) {
    size_t take = std::min(step, out.size() - done);
    Status st = dec.Decode(out.data() + done, static_cast<int64_t>(take));
    EXPECT_TRUE(st.ok()) << st.ToString();
    done += take;
  }
  EXPECT_EQ(bytes.substr(dec.consumed()), "tail");
  return out;
}

TEST(DeltaBinaryPacked, RoundTripsEdgeCases) {
  using L = std::numeric_limits<int64_t>;
  std::vector<std::vector<int64_t>> cases = {{},
                                             {7},
                                             {1, 2, 3, 4, 5},
                                             {L::min(), L::max(), L::min(), 0, L::max(), -1},
                                             {100, 90, 80, -1000, 5, 5, 5, 5}};
  std::mt19937_64 rng(9);
  std::vector<int64_t> big;
  for (int i = 0; i < 10'000; ++i) big.push_back(static_cast<int64_t>(rng()) >> (i % 60));
  cases.push_back(big);
  std::vector<int64_t> sorted(1000);
  for (int i = 0; i < 1000; ++i) sorted[i] = i * 3;
  cases.push_back(sorted);
  for (const auto& c : cases) EXPECT_EQ(DeltaRoundTrip(c), c);

  using I = std::numeric_limits<int32_t>;
  std::vector<int32_t> i32 = {I::min(), I::max(), 0, -5, I::max(), I::min(), 1};
  for (int i = 0; i < 300; ++i) i32.push_back(i * (i % 2 ? -7919 : 104729));
  EXPECT_EQ(DeltaRoundTrip(i32), i32);
}

TEST(DeltaBinaryPacked, MalformedHeadersAreCorruption) {
  DeltaBinaryPackedDecoder dec;
  std::string bad_block = {'\x07', '\x01', '\x01', '\x00'};
  EXPECT_EQ(dec.Init(U8(bad_block), bad_block.size()).code(), StatusCode::kCorruption);
  std::string bad_mini = {'\x80', '\x01', '\x03', '\x01', '\x00'};
  EXPECT_EQ(dec.Init(U8(bad_mini), bad_mini.size()).code(), StatusCode::kCorruption);
  // Claims a million values with no blocks behind them.
  std::string lying = {'\x80', '\x01', '\x04', '\xc0', '\x84', '\x3d', '\x00'};
  EXPECT_EQ(dec.Init(U8(lying), lying.size()).code(), StatusCode::kCorruption);
  // Bit width 65.
  std::string wide = {'\x80', '\x01', '\x04', '\x03', '\x00',
                      '\x00', '\x41', '\x00', '\x00', '\x00'};
  ASSERT_TRUE(dec.Init(U8(wide), wide.size()).ok());
  int64_t out[3];
  EXPECT_EQ(dec.Decode(out, 3).code(), StatusCode::kCorruption);
  // Truncation at every byte never crashes; only the last miniblock's padding may go.
  std::vector<int64_t> v(500);
  for (int i = 0; i < 500; ++i) v[i] = i * i;
  std::string bytes;
  EncodeDeltaBinaryPacked(v.data(), 500, &bytes);
  for (size_t len = 0; len < bytes.size(); ++len) {
    DeltaBinaryPackedDecoder d;
    if (!d.Init(U8(bytes), len).ok()) continue;
    std::vector<int64_t> o(d.total_values());
    if (d.Decode(o.data(), d.total_values()).ok()) {
      EXPECT_EQ(o, v) << len;
      EXPECT_GT(len, bytes.size() - 20) << len;
    }
  }
}

TEST(DeltaByteArrays, LengthAndPrefixEncodingsRoundTrip) {
  std::vector<std::string_view> v = {"", "apple", "applesauce", "apply", "banana", "", "b"};
  std::string bytes;
  EncodeDeltaLengthByteArray(v.data(), static_cast<int64_t>(v.size()), &bytes);
  std::vector<std::string_view> back;
  auto used = DecodeDeltaLengthByteArray(U8(bytes), bytes.size(), &back);
  ASSERT_TRUE(used.ok()) << used.status().ToString();
  EXPECT_EQ(*used, bytes.size());
  EXPECT_EQ(back, v);
  EXPECT_FALSE(DecodeDeltaLengthByteArray(U8(bytes), bytes.size() - 1, &back).ok());

  bytes.clear();
  EncodeDeltaByteArray(v.data(), static_cast<int64_t>(v.size()), &bytes);
  BinaryValues out;
  auto used2 = DecodeDeltaByteArray(U8(bytes), bytes.size(), &out);
  ASSERT_TRUE(used2.ok()) << used2.status().ToString();
  ASSERT_EQ(out.size(), static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(out[i], v[i]);
  EXPECT_EQ(DecodeDeltaByteArray(U8(bytes), bytes.size(), &out, 10).status().code(),
            StatusCode::kCorruption);
}

TEST(DeltaByteArrays, PrefixLongerThanPreviousIsCorruption) {
  std::vector<int32_t> prefixes = {0, 5};
  std::string bytes;
  EncodeDeltaBinaryPacked(prefixes.data(), 2, &bytes);
  std::vector<std::string_view> suffixes = {"ab", "c"};
  EncodeDeltaLengthByteArray(suffixes.data(), 2, &bytes);
  BinaryValues out;
  EXPECT_EQ(DecodeDeltaByteArray(U8(bytes), bytes.size(), &out).status().code(),
            StatusCode::kCorruption);
}

TEST(ByteStreamSplit, RoundTripsFloatDoubleAndFixed) {
  std::vector<float> f = {1.0f, -2.5f, 3.25f};
  std::string bytes;
  EncodeByteStreamSplit(reinterpret_cast<const uint8_t*>(f.data()), 3, 4, &bytes);
  std::vector<float> fb(3);
  ASSERT_TRUE(
      DecodeByteStreamSplit(U8(bytes), bytes.size(), 3, 4, reinterpret_cast<uint8_t*>(fb.data()))
          .ok());
  EXPECT_EQ(fb, f);
  std::vector<double> d = {1e300, -0.0, 42};
  bytes.clear();
  EncodeByteStreamSplit(reinterpret_cast<const uint8_t*>(d.data()), 3, 8, &bytes);
  std::vector<double> db(3);
  ASSERT_TRUE(
      DecodeByteStreamSplit(U8(bytes), bytes.size(), 3, 8, reinterpret_cast<uint8_t*>(db.data()))
          .ok());
  EXPECT_EQ(db, d);
  std::string fixed = "abcdefghijklmno";  // 5 values of 3 bytes
  bytes.clear();
  EncodeByteStreamSplit(U8(fixed), 5, 3, &bytes);
  EXPECT_EQ(bytes, "adgjmbehkncfilo");
  std::string back(15, '\0');
  ASSERT_TRUE(
      DecodeByteStreamSplit(U8(bytes), 15, 5, 3, reinterpret_cast<uint8_t*>(back.data())).ok());
  EXPECT_EQ(back, fixed);
  EXPECT_EQ(
      DecodeByteStreamSplit(U8(bytes), 14, 5, 3, reinterpret_cast<uint8_t*>(back.data())).code(),
      StatusCode::kCorruption);
  EXPECT_TRUE(DecodeByteStreamSplit(U8(bytes), 0, 0, 4, nullptr).ok());
}

}  // namespace
}  // namespace sqe::parquet

namespace sqe::parquet {
namespace {

std::string RleLevels(const std::vector<uint32_t>& levels, int width) {
  RleBitPackedEncoder enc(width);
  enc.PutBatch(levels.data(), static_cast<int64_t>(levels.size()));
  std::string out;
  enc.Finish(&out);
  return out;
}

TEST(Levels, V1PrefixedAndV2Sections) {
  std::vector<uint32_t> levels = {0, 1, 3, 3, 2, 1, 0, 3};
  std::string rle = RleLevels(levels, 2);
  auto len = static_cast<uint32_t>(rle.size());
  std::string v1(reinterpret_cast<const char*>(&len), 4);
  v1 += rle + "values";
  std::vector<int16_t> out(levels.size());
  auto used = DecodeV1Levels(Encoding::kRle, U8(v1), v1.size(), 3, 8, out.data());
  ASSERT_TRUE(used.ok()) << used.status().ToString();
  EXPECT_EQ(v1.substr(*used), "values");
  for (size_t i = 0; i < levels.size(); ++i) EXPECT_EQ(out[i], static_cast<int16_t>(levels[i]));
  ASSERT_TRUE(DecodeV2Levels(U8(rle), rle.size(), 3, 8, out.data()).ok());
  EXPECT_EQ(out[2], 3);
  // Max level 0: no section at all.
  auto none = DecodeV1Levels(Encoding::kRle, U8(v1), v1.size(), 0, 8, out.data());
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0u);
  EXPECT_EQ(out[2], 0);
}

TEST(Levels, MalformedSectionsAreCorruption) {
  std::string rle = RleLevels({0, 1, 3, 3}, 2);
  std::vector<int16_t> out(4);
  // A level above the max (width 2 allows 3, max says 2).
  EXPECT_EQ(DecodeV2Levels(U8(rle), rle.size(), 2, 4, out.data()).code(), StatusCode::kCorruption);
  std::string lying = std::string("\xff\x00\x00\x00", 4) + rle;
  EXPECT_EQ(
      DecodeV1Levels(Encoding::kRle, U8(lying), lying.size(), 3, 4, out.data()).status().code(),
      StatusCode::kCorruption);
  EXPECT_EQ(DecodeV1Levels(Encoding::kRle, U8(lying), 3, 3, 4, out.data()).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(DecodeV1Levels(Encoding::kBitPacked, U8(lying), lying.size(), 3, 4, out.data())
                .status()
                .code(),
            StatusCode::kNotImplemented);
  EXPECT_EQ(
      DecodeV1Levels(Encoding::kPlain, U8(lying), lying.size(), 3, 4, out.data()).status().code(),
      StatusCode::kCorruption);
}

}  // namespace
}  // namespace sqe::parquet
