#pragma once
/// Arrow IPC streaming format, reading side. StreamDecoder is incremental: feed it the
/// stream's bytes in pieces of any size (Feed) or whole messages as the Flight layer
/// receives them (ConsumeMessage: FlightData's data_header and data_body), and take the
/// decoded batches. Dictionary-encoded fields are decoded into plain columns of the
/// dictionary's value type; compressed bodies (LZ4_FRAME, ZSTD) are decompressed within
/// the ReadOptions limits.
///
/// Input is untrusted: metadata is checked with the flatbuffers Verifier, every buffer
/// against the body, every column with ValidateFull(); malformed input yields Corruption
/// naming the stream byte offset (or the message), unsupported features NotImplemented.
/// After an error the decoder stays failed. Single-owner, not thread-safe.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/batch.h"
#include "columnar/buffer.h"
#include "columnar/ipc/ipc_options.h"
#include "columnar/schema.h"
#include "common/result.h"

namespace sqe::columnar::ipc {

struct IpcFieldInternal;  // per-field dictionary information (stream_reader.cc)

class StreamDecoder {
 public:
  explicit StreamDecoder(ReadOptions options = {});
  ~StreamDecoder();
  StreamDecoder(const StreamDecoder&) = delete;
  StreamDecoder& operator=(const StreamDecoder&) = delete;

  /// Appends stream bytes and decodes every message they complete.
  Status Feed(std::string_view bytes);
  /// Decodes one message: `metadata` is the flatbuffer Message (no framing), `body` its
  /// body (may be null when the message has none).
  Status ConsumeMessage(std::string_view metadata, BufferPtr body);

  /// The stream schema, nullptr until the Schema message was decoded.
  const SchemaPtr& schema() const { return schema_; }
  /// Whether the end-of-stream marker was seen.
  bool finished() const { return finished_; }
  /// Bytes fed but not yet decoded (an incomplete message).
  int64_t pending_bytes() const { return static_cast<int64_t>(pending_.size()); }
  /// The batches decoded so far, moved out.
  std::vector<Batch> TakeBatches() { return std::move(batches_); }

 private:
  Status DecodeFramed();
  Status Fail(Status status);

  ReadOptions options_;
  std::string pending_;
  int64_t stream_offset_ = 0;  // stream position of pending_[0]
  bool finished_ = false;
  Status error_;
  SchemaPtr schema_;
  std::vector<IpcFieldInternal> fields_;
  std::map<int64_t, Column> dictionaries_;
  std::vector<Batch> batches_;
};

/// A whole stream read at once.
struct StreamContents {
  SchemaPtr schema;
  std::vector<Batch> batches;
};

/// Decodes a complete stream; Corruption when it is truncated (a missing end-of-stream
/// marker is accepted after a complete message, as Arrow's readers do).
Result<StreamContents> ReadStream(std::string_view bytes, const ReadOptions& options = {});

}  // namespace sqe::columnar::ipc
