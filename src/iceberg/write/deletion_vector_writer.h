#pragma once
/// Deletion vectors (v3 position deletes): EncodeDeletionVector makes the Puffin blob
/// `deletion-vector-v1` (big-endian length, magic D1 D3 39 64, portable 64-bit Roaring
/// with array and bitmap containers, big-endian CRC-32), the inverse of
/// iceberg/read/deletion_vector.h. DeletionVectorWriter puts one vector per data file into
/// one Puffin file and describes each as the DataFile a delete manifest records
/// (content = position deletes, format PUFFIN, referenced_data_file, content_offset,
/// content_size_in_bytes, record_count = cardinality). A vector replacing an older one
/// must hold the older one's positions too (the spec allows one vector per data file).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "iceberg/literal.h"
#include "iceberg/manifest/data_file.h"
#include "io/file_system.h"

namespace sqe::iceberg {

/// The blob for `positions` (any order, duplicates allowed). InvalidArgument for a
/// negative position.
Result<std::string> EncodeDeletionVector(std::vector<int64_t> positions);

class DeletionVectorWriter {
 public:
  DeletionVectorWriter(io::FileSystem& fs, std::string path) : fs_(fs), path_(std::move(path)) {}

  /// The deleted positions of `data_file_path` (of partition `partition`).
  void Add(std::string data_file_path, std::vector<std::optional<Literal>> partition,
           std::vector<int64_t> positions);
  /// Writes the Puffin file: one DataFile per vector, in the order added.
  Result<std::vector<DataFile>> Close();

 private:
  struct Vector {
    std::string data_file;
    std::vector<std::optional<Literal>> partition;
    std::vector<int64_t> positions;
  };
  io::FileSystem& fs_;
  std::string path_;
  std::vector<Vector> vectors_;
};

}  // namespace sqe::iceberg
