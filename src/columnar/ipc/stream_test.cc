#include <gtest/gtest.h>

#include <cstring>

#include "columnar/ipc/ipc_sample.h"
#include "columnar/ipc/stream_reader.h"
#include "columnar/ipc/stream_writer.h"
#include "columnar/json_value_encoding.h"
#include "columnar/test_columns.h"

namespace sqe::columnar::ipc {
namespace {

using testing::Int64s;
using testing::Strings;

std::string Jsonl(const std::vector<Batch>& batches) {
  std::string out;
  for (const Batch& batch : batches) testing::DieIfError(AppendJsonLines(batch, &out));
  return out;
}

Batch Sample() { return testing::ValueOrDie(MakeSampleBatch()); }

class RoundTripTest : public ::testing::TestWithParam<std::tuple<Compression, bool>> {};

TEST_P(RoundTripTest, EveryTypeWithNullsAndSlices) {
  WriteOptions options;
  options.compression = std::get<0>(GetParam());
  options.dictionary_encode_strings = std::get<1>(GetParam());
  Batch batch = Sample();
  std::vector<Batch> batches = {batch, batch.Slice(1, 2), batch.Slice(2, 1), batch.Slice(0, 0)};
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), batches, options));
  SQE_ASSIGN_OR_FAIL(auto contents, ReadStream(bytes));
  EXPECT_TRUE(contents.schema->Equals(*batch.schema())) << contents.schema->ToString();
  EXPECT_EQ(contents.schema->field(3).field_id(), 7);
  EXPECT_EQ(contents.schema->field(3).metadata().Get("comment"), "has field id 7");
  EXPECT_EQ(contents.schema->metadata().Get("origin"), "sqe");
  ASSERT_EQ(contents.batches.size(), batches.size());
  EXPECT_EQ(Jsonl(contents.batches), Jsonl(batches));
  for (const Batch& b : contents.batches) {
    for (const Column& c : b.columns()) SQE_EXPECT_OK(c.ValidateFull());
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, RoundTripTest,
                         ::testing::Combine(::testing::Values(Compression::kNone,
                                                              Compression::kLz4Frame,
                                                              Compression::kZstd),
                                            ::testing::Bool()));

TEST(StreamTest, ZeroBatches) {
  Batch batch = Sample();
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {}));
  SQE_ASSIGN_OR_FAIL(auto contents, ReadStream(bytes));
  EXPECT_TRUE(contents.schema->Equals(*batch.schema()));
  EXPECT_TRUE(contents.batches.empty());
}

TEST(StreamTest, StreamEndsWithEndOfStreamMarker) {
  Batch batch = Sample();
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {batch}));
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(bytes.size() - 8), std::string("\xff\xff\xff\xff\0\0\0\0", 8));
  EXPECT_EQ(bytes.substr(0, 4), "\xff\xff\xff\xff");
  EXPECT_EQ(bytes.size() % 8, 0u);
}

TEST(StreamTest, IncrementalFeedByteByByte) {
  Batch batch = Sample();
  WriteOptions options;
  options.compression = Compression::kZstd;
  options.dictionary_encode_strings = true;
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {batch, batch}, options));
  StreamDecoder decoder;
  std::vector<Batch> batches;
  for (char c : bytes) {
    SQE_ASSERT_OK(decoder.Feed(std::string_view(&c, 1)));
    for (Batch& b : decoder.TakeBatches()) batches.push_back(std::move(b));
  }
  EXPECT_TRUE(decoder.finished());
  EXPECT_EQ(decoder.pending_bytes(), 0);
  EXPECT_EQ(Jsonl(batches), Jsonl({batch, batch}));
}

TEST(StreamTest, MessageAtATimeLikeFlightData) {
  Batch batch = Sample();
  WriteOptions options;
  options.dictionary_encode_strings = true;
  SQE_ASSIGN_OR_FAIL(auto schema_message, EncodeSchema(*batch.schema(), options));
  SQE_ASSIGN_OR_FAIL(auto messages, EncodeBatch(batch, options));
  EXPECT_EQ(messages.size(), 2u);  // the dictionary of "str", then the record batch
  StreamDecoder decoder;
  SQE_ASSERT_OK(decoder.ConsumeMessage(schema_message.metadata, nullptr));
  for (const auto& m : messages) {
    SQE_ASSIGN_OR_FAIL(auto body, Buffer::CopyOf(m.body));
    SQE_ASSERT_OK(decoder.ConsumeMessage(m.metadata, std::move(body)));
  }
  EXPECT_EQ(Jsonl(decoder.TakeBatches()), Jsonl({batch}));
}

TEST(StreamTest, EmptyBatchAndSlicedStrings) {
  Column strings = Strings({"aa", std::nullopt, "bbb", "c", "dddd"});
  Column ints = Int64s({1, 2, std::nullopt, 4, 5});
  auto schema = Schema::Make({Field("s", String()), Field("i", Int64())});
  SQE_ASSIGN_OR_FAIL(Batch batch, Batch::Make(schema, {strings, ints}));
  Batch slice = batch.Slice(3, 2);
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(schema, {batch.Slice(0, 0), slice}));
  SQE_ASSIGN_OR_FAIL(auto contents, ReadStream(bytes));
  ASSERT_EQ(contents.batches.size(), 2u);
  EXPECT_EQ(contents.batches[0].num_rows(), 0);
  const Column& s = contents.batches[1].column(0);
  EXPECT_EQ(s.offset(), 0);
  EXPECT_EQ(s.Offsets()[0], 0);  // rebased
  EXPECT_EQ(testing::Json(s), "[\"c\",\"dddd\"]");
}

TEST(StreamTest, TruncatedStreamIsCorruption) {
  Batch batch = Sample();
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {batch}));
  for (size_t cut : {size_t{3}, size_t{12}, bytes.size() / 2}) {
    auto result = ReadStream(bytes.substr(0, cut));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), StatusCode::kCorruption) << result.status().ToString();
  }
}

// Flips bytes across the whole stream: every outcome must be a clean Status (ASan/UBSan
// catch anything else).
TEST(StreamTest, CorruptedBytesNeverCrash) {
  Batch batch = Sample();
  for (Compression codec : {Compression::kNone, Compression::kZstd, Compression::kLz4Frame}) {
    WriteOptions options;
    options.compression = codec;
    options.dictionary_encode_strings = true;
    SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {batch}, options));
    int failures = 0;
    for (size_t i = 0; i < bytes.size(); i += 3) {
      std::string mutated = bytes;
      mutated[i] = static_cast<char>(mutated[i] ^ 0x5a);
      auto result = ReadStream(mutated);
      if (!result.ok()) ++failures;
    }
    EXPECT_GT(failures, 0);
  }
}

TEST(StreamTest, BufferOutsideBodyNamesOffset) {
  Batch batch = Sample();
  SQE_ASSIGN_OR_FAIL(auto messages, EncodeBatch(batch, {}));
  SQE_ASSIGN_OR_FAIL(auto schema_message, EncodeSchema(*batch.schema()));
  StreamDecoder decoder;
  SQE_ASSERT_OK(decoder.ConsumeMessage(schema_message.metadata, nullptr));
  // The body is cut short: the buffers now point past its end.
  SQE_ASSIGN_OR_FAIL(auto body, Buffer::CopyOf(std::string_view(messages[0].body).substr(0, 16)));
  Status st = decoder.ConsumeMessage(messages[0].metadata, std::move(body));
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
}

TEST(StreamTest, WriterRejectsOtherSchema) {
  Batch batch = Sample();
  std::string out;
  SQE_ASSIGN_OR_FAIL(
      auto writer, StreamWriter::Open(Schema::Make({Field("x", Int64())}), [&](std::string_view b) {
        out.append(b);
        return Status::OK();
      }));
  EXPECT_EQ(writer->WriteBatch(batch).code(), StatusCode::kInvalidArgument);
  SQE_EXPECT_OK(writer->Close());
  EXPECT_FALSE(writer->Close().ok());
}

TEST(StreamTest, BodyBuffersAre64ByteAlignedByDefault) {
  Batch batch = Sample();
  for (int32_t alignment : {8, 64}) {
    WriteOptions options;
    options.buffer_alignment = alignment;
    SQE_ASSIGN_OR_FAIL(auto messages, EncodeBatch(batch, options));
    EXPECT_EQ(messages.back().body.size() % alignment, 0u);
    SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {batch}, options));
    SQE_ASSIGN_OR_FAIL(auto contents, ReadStream(bytes));
    EXPECT_EQ(Jsonl(contents.batches), Jsonl({batch}));
  }
}

TEST(StreamTest, RecordBatchBeforeItsDictionaryIsCorruption) {
  Batch batch = Sample();
  WriteOptions options;
  options.dictionary_encode_strings = true;
  SQE_ASSIGN_OR_FAIL(auto schema_message, EncodeSchema(*batch.schema(), options));
  SQE_ASSIGN_OR_FAIL(auto messages, EncodeBatch(batch, options));
  StreamDecoder decoder;
  SQE_ASSERT_OK(decoder.ConsumeMessage(schema_message.metadata, nullptr));
  SQE_ASSIGN_OR_FAIL(auto body, Buffer::CopyOf(messages.back().body));
  Status st = decoder.ConsumeMessage(messages.back().metadata, std::move(body));
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("dictionary 8 before it was sent"), std::string::npos)
      << st.message();
  // The decoder stays failed.
  EXPECT_FALSE(decoder.Feed("x").ok());
}

TEST(StreamTest, BatchBeforeSchemaAndGarbageAreCorruption) {
  EXPECT_EQ(ReadStream(std::string("\xff\xff\xff\xff\x08\0\0\0garbage!", 16)).status().code(),
            StatusCode::kCorruption);
  Batch batch = Sample();
  SQE_ASSIGN_OR_FAIL(auto messages, EncodeBatch(batch, {}));
  StreamDecoder decoder;
  SQE_ASSIGN_OR_FAIL(auto body, Buffer::CopyOf(messages[0].body));
  EXPECT_EQ(decoder.ConsumeMessage(messages[0].metadata, std::move(body)).code(),
            StatusCode::kCorruption);
}

TEST(StreamTest, BytesAfterEndOfStreamAreCorruption) {
  Batch batch = Sample();
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {}));
  StreamDecoder decoder;
  SQE_ASSERT_OK(decoder.Feed(bytes));
  EXPECT_TRUE(decoder.finished());
  EXPECT_EQ(decoder.Feed("more").code(), StatusCode::kCorruption);
}

TEST(StreamTest, ReaderChargesItsTracker) {
  Batch batch = Sample();
  WriteOptions write;
  write.compression = Compression::kZstd;
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {batch}, write));
  ReadOptions read;
  read.tracker = MemoryTracker::Create(MemoryScope::kQuery, "ipc-test", /*limit=*/256);
  auto result = ReadStream(bytes, read);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted) << result.status().ToString();
  read.tracker->SetLimit(0);
  SQE_ASSIGN_OR_FAIL(auto contents, ReadStream(bytes, read));
  EXPECT_GT(read.tracker->current(), 0);  // the decoded columns hold their buffers
  EXPECT_EQ(Jsonl(contents.batches), Jsonl({batch}));
}

TEST(StreamTest, MetadataLimitIsEnforced) {
  Batch batch = Sample();
  SQE_ASSIGN_OR_FAIL(std::string bytes, WriteStream(batch.schema(), {batch}));
  ReadOptions read;
  read.max_metadata_size = 64;
  auto result = ReadStream(bytes, read);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCorruption);
  EXPECT_NE(result.status().message().find("at byte 0"), std::string::npos)
      << result.status().message();
}

}  // namespace
}  // namespace sqe::columnar::ipc
