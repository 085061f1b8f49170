#include "rpc/flight_data.h"

#include <cstring>
#include <memory>

#include "columnar/buffer.h"
#include "columnar/ipc/stream_writer.h"

namespace sqe::rpc {

Result<std::string> SerializeSchema(const columnar::Schema& schema) {
  SQE_ASSIGN_OR_RETURN(columnar::ipc::EncodedMessage message, columnar::ipc::EncodeSchema(schema));
  std::string out;
  columnar::ipc::AppendFramedMessage(message, &out);
  return out;
}

Result<columnar::SchemaPtr> DeserializeSchema(std::string_view bytes) {
  columnar::ipc::StreamDecoder decoder;
  std::string framed(bytes);
  // The 4-byte continuation marker is optional here (pre-1.0 framing): add it when absent.
  if (framed.size() >= 4 && std::memcmp(framed.data(), "\xff\xff\xff\xff", 4) != 0) {
    framed.insert(0, "\xff\xff\xff\xff", 4);
  }
  SQE_RETURN_NOT_OK(decoder.Feed(framed));
  if (decoder.schema() == nullptr) {
    return Status::Corruption("the bytes are not an IPC-encapsulated Arrow schema");
  }
  return decoder.schema();
}

Result<proto::FlightData> SchemaToFlightData(const columnar::Schema& schema) {
  SQE_ASSIGN_OR_RETURN(columnar::ipc::EncodedMessage message, columnar::ipc::EncodeSchema(schema));
  proto::FlightData data;
  data.set_data_header(std::move(message.metadata));
  return data;
}

Result<proto::FlightData> BatchToFlightData(const columnar::Batch& batch,
                                            const columnar::ipc::WriteOptions& options) {
  if (options.dictionary_encode_strings) {
    return Status::InvalidArgument("Flight streams are written without dictionary encoding");
  }
  SQE_ASSIGN_OR_RETURN(std::vector<columnar::ipc::EncodedMessage> messages,
                       columnar::ipc::EncodeBatch(batch, options));
  if (messages.size() != 1) {
    return Status::Internal("expected one IPC message per batch, got " +
                            std::to_string(messages.size()));
  }
  proto::FlightData data;
  data.set_data_header(std::move(messages[0].metadata));
  data.set_data_body(std::move(messages[0].body));
  return data;
}

Status FlightDataReader::Consume(proto::FlightData&& data) {
  if (data.data_header().empty()) return Status::OK();
  columnar::BufferPtr body;
  if (!data.data_body().empty()) {
    auto owned = std::make_shared<std::string>(std::move(*data.mutable_data_body()));
    body = columnar::Buffer::Wrap(reinterpret_cast<const uint8_t*>(owned->data()),
                                  static_cast<int64_t>(owned->size()), owned);
  }
  return decoder_.ConsumeMessage(data.data_header(), std::move(body));
}

}  // namespace sqe::rpc
