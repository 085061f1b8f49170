#include "columnar/buffer.h"

#include <gtest/gtest.h>

#include <cstring>

#include "columnar/bit_util.h"
#include "columnar/bitmap_builder.h"
#include "columnar/buffer_builder.h"
#include "columnar/test_columns.h"

namespace sqe::columnar {
namespace {

TEST(BitUtilTest, LsbFirstBitOrder) {
  uint8_t bits[2] = {0, 0};
  SetBit(bits, 0);
  SetBit(bits, 3);
  SetBit(bits, 9);
  EXPECT_EQ(bits[0], 0b00001001);
  EXPECT_EQ(bits[1], 0b00000010);
  EXPECT_TRUE(GetBit(bits, 3));
  EXPECT_FALSE(GetBit(bits, 4));
  ClearBit(bits, 0);
  EXPECT_EQ(bits[0], 0b00001000);
  SetBitTo(bits, 15, true);
  EXPECT_EQ(bits[1], 0b10000010);
  EXPECT_EQ(BytesForBits(0), 0);
  EXPECT_EQ(BytesForBits(1), 1);
  EXPECT_EQ(BytesForBits(8), 1);
  EXPECT_EQ(BytesForBits(9), 2);
}

TEST(BitUtilTest, CountSetAndCopyBitsAtAnyOffset) {
  uint8_t bits[40];
  for (int i = 0; i < 40; ++i) bits[i] = static_cast<uint8_t>(i * 37 + 11);
  for (int64_t offset : {0, 1, 5, 8, 13}) {
    for (int64_t length : {0, 1, 7, 8, 63, 64, 65, 200, 300}) {
      int64_t expected = 0;
      for (int64_t i = 0; i < length; ++i) expected += GetBit(bits, offset + i);
      ASSERT_EQ(CountSetBits(bits, offset, length), expected) << offset << " " << length;
      uint8_t dst[41] = {};
      for (int64_t dst_offset : {0, 3, 8}) {
        std::memset(dst, 0xAA, sizeof(dst));
        CopyBits(bits, offset, length, dst, dst_offset);
        for (int64_t i = 0; i < length; ++i) {
          ASSERT_EQ(GetBit(dst, dst_offset + i), GetBit(bits, offset + i));
        }
        if (dst_offset > 0) {
          EXPECT_EQ(GetBit(dst, dst_offset - 1), (0xAA >> ((dst_offset - 1) & 7)) & 1);
        }
      }
    }
  }
  uint8_t some[4] = {};
  SetBitsTo(some, 3, 20, true);
  EXPECT_EQ(CountSetBits(some, 0, 32), 20);
  EXPECT_FALSE(GetBit(some, 2));
  EXPECT_TRUE(GetBit(some, 3));
  EXPECT_TRUE(GetBit(some, 22));
  EXPECT_FALSE(GetBit(some, 23));
  SetBitsTo(some, 4, 10, false);
  EXPECT_EQ(CountSetBits(some, 0, 32), 10);
}

TEST(BufferTest, AllocationIsAlignedPaddedAndZeroed) {
  SQE_ASSIGN_OR_FAIL(auto buffer, Buffer::Allocate(100));
  EXPECT_EQ(buffer->size(), 100);
  EXPECT_EQ(buffer->capacity(), 128);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->data()) % 64, 0u);
  for (int64_t i = 0; i < buffer->capacity(); ++i) ASSERT_EQ(buffer->data()[i], 0);
  EXPECT_TRUE(buffer->is_owner());
  SQE_ASSIGN_OR_FAIL(auto empty, Buffer::Allocate(0));
  EXPECT_EQ(empty->size(), 0);
  EXPECT_NE(empty->data(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(empty->data()) % 64, 0u);
  EXPECT_FALSE(Buffer::Allocate(-1).ok());
}

TEST(BufferTest, ReserveKeepsContentsAndZeroesTheRest) {
  SQE_ASSIGN_OR_FAIL(auto buffer, Buffer::CopyOf("hello"));
  SQE_ASSERT_OK(buffer->Reserve(1000));
  EXPECT_EQ(buffer->capacity(), 1024);
  EXPECT_EQ(buffer->view(), "hello");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->data()) % 64, 0u);
  SQE_ASSERT_OK(buffer->Resize(8));
  EXPECT_EQ(std::string(buffer->view()), std::string("hello\0\0\0", 8));
  SQE_ASSERT_OK(buffer->Resize(2));
  SQE_ASSERT_OK(buffer->Resize(5));
  EXPECT_EQ(std::string(buffer->view()), std::string("he\0\0\0", 5));
}

TEST(BufferTest, UninitializedAllocationZeroesPaddingAndTruncateKeepsInvariant) {
  auto tracker = MemoryTracker::Create(MemoryScope::kQuery, "q");
  {
    SQE_ASSIGN_OR_FAIL(auto b, Buffer::AllocateUninitialized(1000, tracker));
    EXPECT_EQ(b->size(), 1000);
    EXPECT_EQ(b->capacity(), 1024);
    for (int64_t i = 1000; i < 1024; ++i) EXPECT_EQ(b->data()[i], 0);
    std::memset(b->mutable_data(), 0xAB, 1000);
    b->Truncate(10);
    EXPECT_EQ(b->size(), 10);
    EXPECT_EQ(b->capacity(), 64);
    for (int64_t i = 10; i < 64; ++i) EXPECT_EQ(b->data()[i], 0);
    EXPECT_EQ(tracker->current(), 1024);  // the allocation stays charged
    // Growing again zeroes the bytes Truncate gave up, without reallocating.
    SQE_ASSERT_OK(b->Resize(500));
    EXPECT_EQ(b->data()[9], 0xAB);
    for (int64_t i = 10; i < 500; ++i) ASSERT_EQ(b->data()[i], 0) << i;
    SQE_ASSERT_OK(b->Resize(2000));
    for (int64_t i = 10; i < 2000; ++i) ASSERT_EQ(b->data()[i], 0) << i;
    EXPECT_EQ(tracker->current(), 2048);
  }
  EXPECT_EQ(tracker->current(), 0);
}

TEST(BufferTest, SliceSharesMemoryAndKeepsParentAlive) {
  SQE_ASSIGN_OR_FAIL(std::shared_ptr<Buffer> parent, Buffer::CopyOf("0123456789"));
  const uint8_t* raw = parent->data();
  BufferPtr slice = Buffer::Slice(parent, 3, 4);
  parent.reset();
  EXPECT_EQ(slice->view(), "3456");
  EXPECT_EQ(slice->data(), raw + 3);
  EXPECT_FALSE(slice->is_owner());
  BufferPtr nested = Buffer::Slice(slice, 1, 2);
  EXPECT_EQ(nested->view(), "45");
}

TEST(BufferTest, WrapKeepsOwnerAlive) {
  auto owner = std::make_shared<std::string>("external bytes");
  BufferPtr wrapped = Buffer::Wrap(reinterpret_cast<const uint8_t*>(owner->data()),
                                   static_cast<int64_t>(owner->size()), owner);
  std::weak_ptr<std::string> weak = owner;
  owner.reset();
  EXPECT_FALSE(weak.expired());
  EXPECT_EQ(wrapped->view(), "external bytes");
  wrapped.reset();
  EXPECT_TRUE(weak.expired());
}

TEST(BufferTest, ChargesTrackerUntilDestroyed) {
  auto tracker = MemoryTracker::Create(MemoryScope::kQuery, "q");
  {
    SQE_ASSIGN_OR_FAIL(auto buffer, Buffer::Allocate(100, tracker));
    EXPECT_EQ(tracker->current(), 128);
    SQE_ASSERT_OK(buffer->Reserve(200));
    EXPECT_EQ(tracker->current(), 256);
    BufferPtr slice = Buffer::Slice(buffer, 0, 10);
    buffer.reset();
    EXPECT_EQ(tracker->current(), 256);  // the slice keeps the allocation alive
  }
  EXPECT_EQ(tracker->current(), 0);
  EXPECT_EQ(tracker->peak(), 256);
}

TEST(BufferTest, TrackerLimitFailsAllocationCleanly) {
  auto tracker = MemoryTracker::Create(MemoryScope::kOperator, "sort", 1000);
  auto ok = Buffer::Allocate(900, tracker);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(tracker->current(), 960);
  auto refused = Buffer::Allocate(64, tracker);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(refused.status().message(),
            "operator 'sort' memory limit 1000B exceeded (requested 64B, in use 960B)");
  EXPECT_EQ(tracker->current(), 960);
  SQE_EXPECT_OK((*ok)->Resize(960));  // within capacity: no new charge
  EXPECT_FALSE((*ok)->Reserve(1100).ok());
  EXPECT_EQ((*ok)->capacity(), 960);
}

TEST(BufferBuilderTest, GrowsGeometricallyAndFinishes) {
  auto tracker = MemoryTracker::Create(MemoryScope::kOperator, "b");
  BufferBuilder builder(tracker);
  int growths = 0;
  int64_t last_capacity = 0;
  for (int64_t i = 0; i < 10000; ++i) {
    SQE_ASSERT_OK(builder.AppendValue<int64_t>(i));
    if (builder.capacity() != last_capacity) {
      ++growths;
      last_capacity = builder.capacity();
    }
  }
  EXPECT_LE(growths, 12);  // doubling from 64 bytes to 80000
  SQE_ASSIGN_OR_FAIL(auto buffer, builder.Finish());
  EXPECT_EQ(buffer->size(), 80000);
  EXPECT_EQ(buffer->data_as<int64_t>()[9999], 9999);
  EXPECT_EQ(builder.size(), 0);
  EXPECT_EQ(tracker->current(), buffer->capacity());
  SQE_ASSIGN_OR_FAIL(auto empty, builder.Finish());
  EXPECT_EQ(empty->size(), 0);
  buffer.reset();
  empty.reset();
  EXPECT_EQ(tracker->current(), 0);
}

TEST(BitmapBuilderTest, AppendsBitsLsbFirst) {
  BitmapBuilder bits;
  for (bool b : {true, false, true, true, false, false, false, false, true}) {
    SQE_ASSERT_OK(bits.Append(b));
  }
  SQE_ASSERT_OK(bits.AppendN(3, true));
  uint8_t pattern = 0b01;
  SQE_ASSERT_OK(bits.AppendBits(&pattern, 0, 2));
  EXPECT_EQ(bits.length(), 14);
  SQE_ASSIGN_OR_FAIL(auto buffer, bits.Finish());
  ASSERT_EQ(buffer->size(), 2);
  EXPECT_EQ(buffer->data()[0], 0b00001101);
  EXPECT_EQ(buffer->data()[1], 0b00011111);
}

TEST(ValidityBuilderTest, MaterializesOnlyOnFirstNull) {
  ValidityBuilder all_valid;
  SQE_ASSERT_OK(all_valid.AppendValidN(100));
  SQE_ASSIGN_OR_FAIL(auto none, all_valid.Finish());
  EXPECT_EQ(none, nullptr);

  ValidityBuilder some_null;
  SQE_ASSERT_OK(some_null.AppendValidN(10));
  SQE_ASSERT_OK(some_null.AppendNull());
  SQE_ASSERT_OK(some_null.AppendValid());
  SQE_ASSERT_OK(some_null.AppendNullN(2));
  EXPECT_EQ(some_null.length(), 14);
  EXPECT_EQ(some_null.null_count(), 3);
  SQE_ASSIGN_OR_FAIL(auto bitmap, some_null.Finish());
  ASSERT_NE(bitmap, nullptr);
  EXPECT_EQ(bitmap->data()[0], 0xFF);
  EXPECT_EQ(bitmap->data()[1], 0b00001011);
  EXPECT_EQ(some_null.length(), 0);
}

}  // namespace
}  // namespace sqe::columnar
