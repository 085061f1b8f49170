#pragma once
/// PuffinWriter: writes a Puffin file (apache/iceberg format/puffin-spec.md): the magic,
/// blobs as given (uncompressed), and a footer whose JSON payload describes each blob
/// (type, fields, snapshot-id, sequence-number, offset, length, properties) plus file
/// properties ("created-by"). The payload is written uncompressed (flags 0).
/// Single-owner; the stream is the caller's until Finish closes it.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "io/file.h"

namespace sqe::puffin {

struct BlobOptions {
  std::string type;             ///< e.g. "deletion-vector-v1"
  std::vector<int32_t> fields;  ///< field ids the blob was computed for
  int64_t snapshot_id = -1;     ///< -1 when not known at write time (DVs)
  int64_t sequence_number = -1;
  std::map<std::string, std::string> properties;
};

/// Where a blob landed in the file.
struct BlobLocation {
  int64_t offset = 0;
  int64_t length = 0;
};

class PuffinWriter {
 public:
  /// Writes the leading magic.
  static Result<std::unique_ptr<PuffinWriter>> Open(std::unique_ptr<io::OutputStream> out);
  ~PuffinWriter();

  Result<BlobLocation> AddBlob(const BlobOptions& options, std::string_view bytes);
  /// Writes the footer and closes the stream; returns the file's size.
  Result<int64_t> Finish(const std::map<std::string, std::string>& properties = {
                             {"created-by", "SQE"}});

 private:
  PuffinWriter() = default;
  std::unique_ptr<io::OutputStream> out_;
  std::vector<std::pair<BlobOptions, BlobLocation>> blobs_;
  bool finished_ = false;
};

}  // namespace sqe::puffin
