#pragma once
/// Reads Avro object container files (specification, "Object Container Files"): the
/// 'Obj\x01' magic, the metadata map (avro.schema, avro.codec and user keys such as
/// Iceberg's "schema", "partition-spec", "format-version"), the 16-byte sync marker and
/// the data blocks, each checked against the sync marker. Records are decoded with the
/// writer's schema and then resolved to the reader schema when one is given
/// (avro_resolve.h: Iceberg resolves by field id).
///
/// The file is read block by block through io::RandomAccessFile. Every malformed input
/// (bad magic, truncation, absurd lengths or counts, unknown codec, wrong sync marker,
/// trailing bytes in a block) is Corruption naming the file and the offset; no
/// allocation exceeds the bytes actually present (or the configured block limit after
/// decompression). A reader is used by one thread at a time.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "formats/avro/avro_codec.h"
#include "formats/avro/avro_datum.h"
#include "formats/avro/avro_resolve.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"
#include "io/file.h"

namespace sqe::avro {

struct ContainerReaderOptions {
  /// The schema to read records as; null reads them as written.
  SchemaPtr reader_schema;
  /// Largest block accepted, compressed or decompressed.
  int64_t max_block_bytes = int64_t{256} << 20;
  /// Largest header (magic + metadata + sync) accepted.
  int64_t max_header_bytes = int64_t{64} << 20;
};

class ContainerReader {
 public:
  static Result<std::unique_ptr<ContainerReader>> Open(std::shared_ptr<io::RandomAccessFile> file,
                                                       ContainerReaderOptions options = {});
  /// Reads a file held in memory; `name` appears in error messages.
  static Result<std::unique_ptr<ContainerReader>> Open(std::string bytes,
                                                       ContainerReaderOptions options = {},
                                                       std::string name = "memory://avro");

  /// The schema the file was written with (avro.schema).
  const SchemaPtr& writer_schema() const { return writer_schema_; }
  /// The schema records come out as (the reader schema, else the writer schema).
  const SchemaPtr& schema() const { return schema_; }
  Codec codec() const { return codec_; }
  /// Every metadata entry in file order, including avro.schema and avro.codec.
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }
  /// The value of metadata `key`, or null.
  const std::string* FindMetadata(std::string_view key) const;
  const std::string& path() const { return file_->path(); }

  /// Decodes the next record into `out`; false at the end of the file.
  Result<bool> Next(Value* out);
  /// Every remaining record.
  Result<std::vector<Value>> ReadAll();
  int64_t records_read() const { return records_read_; }

 private:
  ContainerReader() = default;
  Status ReadHeader();
  Status ParseHeader(std::string_view bytes, bool* need_more);
  Status LoadBlock(bool* loaded);
  Status Corrupt(int64_t offset, const std::string& what) const;

  std::shared_ptr<io::RandomAccessFile> file_;
  ContainerReaderOptions options_;
  int64_t file_size_ = 0;
  SchemaPtr writer_schema_;
  SchemaPtr schema_;
  std::unique_ptr<SchemaResolver> resolver_;
  Codec codec_ = Codec::kNull;
  std::vector<std::pair<std::string, std::string>> metadata_;
  std::string sync_;
  int64_t next_block_offset_ = 0;
  int64_t block_offset_ = 0;
  int64_t block_records_left_ = 0;
  std::string block_;  // the current block, decompressed
  std::string compressed_;
  std::string block_what_;
  std::unique_ptr<Decoder> decoder_;
  DecodeContext context_;
  int64_t records_read_ = 0;
};

}  // namespace sqe::avro
