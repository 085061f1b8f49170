#include "rpc/flight_data.h"

#include <gtest/gtest.h>

#include "columnar/ipc/ipc_sample.h"
#include "columnar/json_value_encoding.h"
#include "columnar/test_columns.h"

namespace sqe::rpc {
namespace {

using columnar::Batch;
using columnar::ipc::Compression;

std::string Jsonl(const std::vector<Batch>& batches) {
  std::string out;
  for (const Batch& b : batches) columnar::testing::DieIfError(columnar::AppendJsonLines(b, &out));
  return out;
}

Batch Sample() { return columnar::testing::ValueOrDie(columnar::ipc::MakeSampleBatch()); }

// Every FlightData goes through protobuf serialization, as on the wire.
proto::FlightData OverTheWire(const proto::FlightData& data) {
  proto::FlightData parsed;
  EXPECT_TRUE(parsed.ParseFromString(data.SerializeAsString()));
  return parsed;
}

class FlightDataRoundTrip : public ::testing::TestWithParam<Compression> {};

TEST_P(FlightDataRoundTrip, SchemaThenBatchesEveryType) {
  columnar::ipc::WriteOptions options;
  options.compression = GetParam();
  Batch batch = Sample();
  std::vector<Batch> sent = {batch, batch.Slice(1, 2), batch.Slice(0, 0)};

  FlightDataReader reader;
  SQE_ASSIGN_OR_FAIL(proto::FlightData schema_data, SchemaToFlightData(*batch.schema()));
  EXPECT_TRUE(schema_data.data_body().empty());
  SQE_ASSERT_OK(reader.Consume(OverTheWire(schema_data)));
  ASSERT_NE(reader.schema(), nullptr);
  EXPECT_TRUE(reader.schema()->Equals(*batch.schema())) << reader.schema()->ToString();
  for (const Batch& b : sent) {
    SQE_ASSIGN_OR_FAIL(proto::FlightData data, BatchToFlightData(b, options));
    EXPECT_FALSE(data.data_header().empty());
    SQE_ASSERT_OK(reader.Consume(OverTheWire(data)));
  }
  std::vector<Batch> received = reader.TakeBatches();
  ASSERT_EQ(received.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) EXPECT_EQ(received[i].num_rows(), sent[i].num_rows());
  EXPECT_EQ(Jsonl(received), Jsonl(sent));
}

INSTANTIATE_TEST_SUITE_P(Codecs, FlightDataRoundTrip,
                         ::testing::Values(Compression::kNone, Compression::kLz4Frame,
                                           Compression::kZstd));

TEST(FlightDataTest, CompressionShrinksARepetitiveBody) {
  std::vector<std::optional<std::string>> values(4096, std::string("the same words again"));
  SQE_ASSIGN_OR_FAIL(Batch batch,
                     Batch::Make(columnar::Schema::Make({columnar::Field("s", columnar::String())}),
                                 {columnar::testing::Strings(values)}));
  columnar::ipc::WriteOptions zstd;
  zstd.compression = Compression::kZstd;
  SQE_ASSIGN_OR_FAIL(proto::FlightData plain, BatchToFlightData(batch));
  SQE_ASSIGN_OR_FAIL(proto::FlightData packed, BatchToFlightData(batch, zstd));
  EXPECT_LT(packed.data_body().size() * 5, plain.data_body().size());
}

TEST(FlightDataTest, DictionaryEncodingIsRefused) {
  columnar::ipc::WriteOptions options;
  options.dictionary_encode_strings = true;
  EXPECT_EQ(BatchToFlightData(Sample(), options).status().code(), StatusCode::kInvalidArgument);
}

TEST(FlightDataTest, MessagesWithoutHeaderAreSkipped) {
  FlightDataReader reader;
  proto::FlightData descriptor_only;
  descriptor_only.mutable_flight_descriptor()->set_cmd("x");
  SQE_ASSERT_OK(reader.Consume(std::move(descriptor_only)));
  EXPECT_EQ(reader.schema(), nullptr);
}

TEST(FlightDataTest, BatchBeforeSchemaIsAnError) {
  FlightDataReader reader;
  SQE_ASSIGN_OR_FAIL(proto::FlightData data, BatchToFlightData(Sample()));
  EXPECT_FALSE(reader.Consume(std::move(data)).ok());
}

TEST(SchemaBytesTest, RoundTripWithAndWithoutContinuationMarker) {
  columnar::SchemaPtr schema = Sample().schema();
  SQE_ASSIGN_OR_FAIL(std::string bytes, SerializeSchema(*schema));
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(0, 4), std::string("\xff\xff\xff\xff", 4));
  SQE_ASSIGN_OR_FAIL(columnar::SchemaPtr back, DeserializeSchema(bytes));
  EXPECT_TRUE(back->Equals(*schema));
  SQE_ASSIGN_OR_FAIL(columnar::SchemaPtr legacy, DeserializeSchema(bytes.substr(4)));
  EXPECT_TRUE(legacy->Equals(*schema));
}

TEST(SchemaBytesTest, GarbageIsCorruption) {
  EXPECT_FALSE(DeserializeSchema("not a schema at all").ok());
  EXPECT_FALSE(DeserializeSchema("").ok());
}

}  // namespace
}  // namespace sqe::rpc
