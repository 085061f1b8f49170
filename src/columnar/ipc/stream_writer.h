#pragma once
/// Arrow IPC streaming format, writing side: the Schema message, then per batch any
/// DictionaryBatch messages and one RecordBatch message, then the end-of-stream marker
/// (0xFFFFFFFF 0x00000000). Every message is framed as continuation marker, int32
/// metadata length, flatbuffer metadata padded to 8 bytes, body (buffers at 8-aligned
/// offsets). Sliced columns are rebased (offsets start at 0, bitmaps at bit 0).
///
/// StreamWriter is single-owner and not thread-safe. The Encode* functions are pure and
/// thread-safe; the Flight layer uses them to build FlightData (metadata, body) pairs.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/batch.h"
#include "columnar/ipc/ipc_options.h"
#include "columnar/schema.h"
#include "common/result.h"

namespace sqe::columnar::ipc {

/// One IPC message before framing: the flatbuffer `Message` and its body bytes (a
/// multiple of 8 bytes long).
struct EncodedMessage {
  std::string metadata;
  std::string body;
};

/// The Schema message for `schema`.
Result<EncodedMessage> EncodeSchema(const Schema& schema, const WriteOptions& options = {});
/// The messages for one batch: DictionaryBatch messages (when dictionary encoding is
/// on) followed by the RecordBatch message.
Result<std::vector<EncodedMessage>> EncodeBatch(const Batch& batch,
                                                const WriteOptions& options = {});
/// Appends the framed message (continuation, length, padded metadata, body) to *out.
void AppendFramedMessage(const EncodedMessage& message, std::string* out);
/// Appends the end-of-stream marker to *out.
void AppendEndOfStream(std::string* out);

/// Writes one stream to a byte sink.
class StreamWriter {
 public:
  /// Receives the stream's bytes in order; an error aborts the write.
  using Sink = std::function<Status(std::string_view)>;

  /// Writes the Schema message at once.
  static Result<std::unique_ptr<StreamWriter>> Open(SchemaPtr schema, Sink sink,
                                                    WriteOptions options = {});

  /// InvalidArgument when the batch's schema differs from the stream's (metadata aside).
  Status WriteBatch(const Batch& batch);
  /// Writes the end-of-stream marker; later calls fail.
  Status Close();

 private:
  StreamWriter(SchemaPtr schema, Sink sink, WriteOptions options)
      : schema_(std::move(schema)), sink_(std::move(sink)), options_(options) {}

  SchemaPtr schema_;
  Sink sink_;
  WriteOptions options_;
  bool closed_ = false;
};

/// A whole stream in memory: schema, `batches`, end-of-stream.
Result<std::string> WriteStream(const SchemaPtr& schema, const std::vector<Batch>& batches,
                                const WriteOptions& options = {});

}  // namespace sqe::columnar::ipc
