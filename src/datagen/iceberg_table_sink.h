#pragma once
/// IcebergDatasetSink: loads each table into a catalog the way INSERT does: the table is
/// created in `schema` (the namespace is created when missing) with the generator's
/// column types and an optional partition spec, every generating thread writes its rows
/// through its own iceberg::PartitionedWriter (the table's location, codec and file-size
/// properties), and Commit adds all the files as one snapshot with FastAppend. A table
/// that exists is an AlreadyExists error unless `replace`, which drops it (with purge)
/// first. Files of a table whose load fails are deleted.

#include <map>
#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "datagen/table_sink.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::datagen {

struct IcebergDatasetSinkOptions {
  std::shared_ptr<catalog::Catalog> catalog;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems;
  /// The namespace (one level) the tables go into.
  std::string schema = "tpch";
  bool replace = false;
  /// Data file codec when the table sets none ([catalog] parquet_compression).
  std::string default_codec = "zstd";
  /// Per table name, a partition spec as "transform(column)" terms separated by commas:
  /// identity(c) or just c, year(c), month(c), day(c), bucket(N, c), truncate(W, c).
  std::map<std::string, std::string> partitioning;
};

Result<std::unique_ptr<DatasetSink>> MakeIcebergDatasetSink(IcebergDatasetSinkOptions options);

/// The Iceberg partition spec JSON of `terms` (as in `partitioning`) over `table`'s
/// columns; InvalidArgument naming the term that is not understood.
Result<std::string> TpchPartitionSpecJson(TpchTable table, const std::string& terms);

}  // namespace sqe::datagen
