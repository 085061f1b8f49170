#pragma once
/// Writes Iceberg manifests and manifest lists (table spec "Manifests", "Manifest Lists")
/// as Avro container files, with the header metadata Iceberg readers look for.
///
/// ManifestWriter takes entries of one partition spec and returns, on Close, the
/// ManifestFile that describes it (file counts, row counts, partition field summaries,
/// the minimum data sequence number). New entries leave their sequence numbers null so
/// they inherit the manifest's (assigned when the manifest list is written).
///
/// ManifestListWriter writes the manifest list of one snapshot. In v2+ it replaces the
/// unassigned (-1) sequence numbers of the snapshot's new manifests with the snapshot's
/// sequence number, and in v3 it assigns first_row_id to data manifests lacking one.
///
/// Both have a single user thread. Errors leave the stream unclosed; the caller aborts it.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/result.h"
#include "formats/avro/avro_codec.h"
#include "formats/avro/container_writer.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "io/file.h"

namespace sqe::iceberg {

/// What a manifest holds and how it is written.
struct ManifestWriterOptions {
  int format_version = 2;
  PartitionSpec spec;
  /// The table schema (written to the "schema" metadata key; resolves the spec's types).
  Schema schema;
  /// The snapshot adding the files; null (v2+ only) lets entries inherit it from the list.
  std::optional<int64_t> snapshot_id;
  /// Data manifests hold data files; delete manifests (v2+) hold delete files.
  ManifestContent content = ManifestContent::kData;
  avro::Codec codec = avro::Codec::kDeflate;
};

class ManifestWriter {
 public:
  /// Writes the header. InvalidArgument for an unsupported version, a delete manifest in
  /// v1, a spec the schema cannot type, or v1 without a snapshot id.
  static Result<std::unique_ptr<ManifestWriter>> Open(std::shared_ptr<io::OutputStream> out,
                                                      ManifestWriterOptions options);

  /// Writes `entry` as given, except that a null snapshot id of an ADDED entry becomes the
  /// writer's. InvalidArgument when the partition tuple does not match the spec, the
  /// file's content does not match the manifest's, or (v2+) an EXISTING/DELETED entry
  /// lacks its data sequence number.
  Status Add(const ManifestEntry& entry);
  /// A new file: status ADDED, this writer's snapshot, sequence numbers inherited.
  Status AddFile(DataFile file);
  /// A file carried over from an earlier manifest, with the numbers it was assigned.
  Status AddExisting(DataFile file, int64_t snapshot_id, int64_t sequence_number,
                     std::optional<int64_t> file_sequence_number);
  /// A file this snapshot removes.
  Status AddDeleted(DataFile file, int64_t snapshot_id, int64_t sequence_number,
                    std::optional<int64_t> file_sequence_number);

  /// Closes the file and describes it. sequence_number is unassigned (-1), as is
  /// min_sequence_number when no live entry has a sequence number yet.
  Result<ManifestFile> Close();

  ~ManifestWriter();

 private:
  struct Summary;
  ManifestWriter() = default;

  ManifestWriterOptions options_;
  TypePtr partition_type_;
  std::shared_ptr<io::OutputStream> out_;
  std::unique_ptr<avro::ContainerWriter> writer_;
  std::vector<Summary> summaries_;
  int32_t added_files_ = 0;
  int32_t existing_files_ = 0;
  int32_t deleted_files_ = 0;
  int64_t added_rows_ = 0;
  int64_t existing_rows_ = 0;
  int64_t deleted_rows_ = 0;
  std::optional<int64_t> min_sequence_number_;
  bool closed_ = false;
};

/// The snapshot a manifest list belongs to.
struct ManifestListWriterOptions {
  int format_version = 2;
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  /// The snapshot's sequence number (v2+).
  int64_t sequence_number = 0;
  /// v3: the snapshot's first-row-id; data manifests without first_row_id get one.
  std::optional<int64_t> first_row_id;
  avro::Codec codec = avro::Codec::kDeflate;
};

class ManifestListWriter {
 public:
  static Result<std::unique_ptr<ManifestListWriter>> Open(std::shared_ptr<io::OutputStream> out,
                                                          ManifestListWriterOptions options);

  /// InvalidArgument when (v2+) a count is missing or a manifest of another snapshot has
  /// an unassigned sequence number.
  Status Add(const ManifestFile& manifest);
  /// Closes the file; returns its length in bytes.
  Result<int64_t> Close();

  /// v3: the row id after the last one assigned (the snapshot's first-row-id plus the
  /// rows given ids), for the table's next-row-id.
  std::optional<int64_t> next_row_id() const { return next_row_id_; }

  ~ManifestListWriter();

 private:
  ManifestListWriter() = default;

  ManifestListWriterOptions options_;
  std::unique_ptr<avro::ContainerWriter> writer_;
  std::optional<int64_t> next_row_id_;
  bool closed_ = false;
};

}  // namespace sqe::iceberg
