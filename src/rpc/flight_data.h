#pragma once
/// FlightData <-> Arrow IPC framing: a Flight stream (DoGet, DoPut, DoExchange) carries one
/// IPC message per FlightData, the flatbuffer `Message` in data_header and its body in
/// data_body, the Schema message first. Schemas outside a stream (FlightInfo.schema,
/// SchemaResult, a prepared statement's dataset_schema) are IPC-encapsulated: continuation
/// marker, length, flatbuffer. The encoding itself is src/columnar/ipc's; dictionary
/// batches are not produced (WriteOptions::dictionary_encode_strings must stay off).
///
/// The free functions are pure and thread-safe; FlightDataReader is single-owner.

#include <string>
#include <string_view>
#include <vector>

#include "columnar/batch.h"
#include "columnar/ipc/ipc_options.h"
#include "columnar/ipc/stream_reader.h"
#include "columnar/schema.h"
#include "common/result.h"
#include "rpc/flight.pb.h"

namespace sqe::rpc {

namespace proto = ::arrow::flight::protocol;

/// The IPC-encapsulated Schema message of `schema`.
Result<std::string> SerializeSchema(const columnar::Schema& schema);
/// Reads an IPC-encapsulated Schema message (with or without the continuation marker).
/// Corruption when the bytes are not one.
Result<columnar::SchemaPtr> DeserializeSchema(std::string_view bytes);

/// The FlightData that opens a stream: the Schema message, no body.
Result<proto::FlightData> SchemaToFlightData(const columnar::Schema& schema);
/// The FlightData of one batch (a RecordBatch message and its body).
Result<proto::FlightData> BatchToFlightData(const columnar::Batch& batch,
                                            const columnar::ipc::WriteOptions& options = {});

/// Decodes the FlightData of one stream in order: the schema first, then batches.
class FlightDataReader {
 public:
  explicit FlightDataReader(columnar::ipc::ReadOptions options = {}) : decoder_(options) {}

  /// Decodes one message; `data` is consumed (its body is moved out, not copied). A
  /// FlightData without data_header (only a descriptor or app_metadata) is skipped.
  Status Consume(proto::FlightData&& data);
  /// The stream schema, nullptr until the Schema message arrived.
  const columnar::SchemaPtr& schema() const { return decoder_.schema(); }
  /// The batches decoded so far, moved out.
  std::vector<columnar::Batch> TakeBatches() { return decoder_.TakeBatches(); }

 private:
  columnar::ipc::StreamDecoder decoder_;
};

}  // namespace sqe::rpc
