#pragma once
/// Writes Avro object container files: the header (magic, metadata with avro.schema,
/// avro.codec and the caller's keys, a random 16-byte sync marker), then blocks of
/// records compressed with the chosen codec, each followed by the sync marker. A block
/// ends after `block_records` records or once it holds `block_bytes` bytes. Close
/// flushes the last block and closes the stream.
///
/// A writer has a single user thread. A record that does not fit the schema is rejected
/// (InvalidArgument) and leaves the file as it was.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "formats/avro/avro_codec.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"
#include "io/file.h"

namespace sqe::avro {

struct ContainerWriterOptions {
  Codec codec = Codec::kDeflate;
  /// Codec level (avro_codec.h); -1 = the codec's default.
  int compression_level = -1;
  /// Records per block; 0 = no limit (blocks end on size alone).
  int64_t block_records = 0;
  /// Uncompressed bytes after which a block ends.
  int64_t block_bytes = int64_t{1} << 20;
  /// User metadata (keys must not start with "avro.").
  std::vector<std::pair<std::string, std::string>> metadata;
  /// A fixed sync marker (tests); random when unset.
  std::optional<std::array<uint8_t, 16>> sync_marker;
};

class ContainerWriter {
 public:
  /// Writes the header to `out` at once. InvalidArgument for a reserved metadata key.
  static Result<std::unique_ptr<ContainerWriter>> Open(std::shared_ptr<io::OutputStream> out,
                                                       SchemaPtr schema,
                                                       ContainerWriterOptions options = {});
  ~ContainerWriter();

  Status Append(const Value& record);
  /// Ends the current block (no-op when empty).
  Status Flush();
  /// Flushes and closes the stream; further calls are errors.
  Status Close();

  int64_t records_written() const { return records_written_; }
  /// Bytes handed to the stream so far (the file length after Close).
  int64_t length() const { return out_->Tell(); }
  const SchemaPtr& schema() const { return schema_; }

 private:
  ContainerWriter() = default;

  std::shared_ptr<io::OutputStream> out_;
  SchemaPtr schema_;
  ContainerWriterOptions options_;
  std::string sync_;
  std::string block_;
  std::string compressed_;
  std::string frame_;
  int64_t block_count_ = 0;
  int64_t records_written_ = 0;
  bool closed_ = false;
};

}  // namespace sqe::avro
