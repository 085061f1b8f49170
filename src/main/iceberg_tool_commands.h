#pragma once
/// The commands of sqe-iceberg, the table tool: create namespaces and tables in a
/// catalog, append Parquet files as new snapshots, scan a table (any snapshot, with
/// filters, printing rows as JSON lines and the planning stats), and show metadata.
/// It drives the same code the engine uses (catalog, FastAppend, PlanScan, the Parquet
/// reader and writer), so integration tests compare it with pyiceberg and DuckDB.

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "common/result.h"
#include "iceberg/expr/expression.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/table_metadata.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::tools {

struct IcebergToolContext {
  std::unique_ptr<catalog::Catalog> catalog;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems;
  /// [catalog] parquet_compression: the codec of data files whose table sets no
  /// write.parquet.compression-codec.
  std::string default_parquet_codec = "zstd";
  /// [query] target_task_size: scan tasks are bin-packed to about this many bytes.
  int64_t target_task_size = int64_t{256} << 20;
  /// [query] fanout_max_open_writers: data files a partitioned write keeps open (0 = the
  /// writer's default, 64).
  int64_t max_open_writers = 0;
};

/// "db.events" -> {{"db"}, "events"}; InvalidArgument without a namespace.
Result<catalog::TableIdentifier> ParseTableName(const std::string& name);

/// "col=value", "col>value", ... and-ed into one unbound filter (nullptr when none).
Result<iceberg::expr::ExprPtr> ParseFilters(const std::vector<std::string>& filters);

/// Writes the rows of Parquet files (columns matched to the table by name) as data files of
/// the table: routed by its default spec, rolled at its target file size. Nothing is left
/// behind on failure, on the table's file system (vended credentials included). The files
/// are not committed.
Result<std::vector<iceberg::DataFile>> WriteRows(IcebergToolContext& ctx,
                                                 const catalog::LoadedTable& table,
                                                 const std::vector<std::string>& files);

Status IcebergCreateNamespace(IcebergToolContext& ctx, const std::string& ns);
struct CreateTableArgs {
  std::string schema_json;  // an Iceberg schema object
  std::string spec_json;    // a partition spec object ("" = unpartitioned)
  std::optional<int> format_version;
  std::vector<std::string> properties;  // k=v
};
Status IcebergCreateTable(IcebergToolContext& ctx, const std::string& table,
                          const CreateTableArgs& args, std::ostream& out);
/// Appends the rows of each Parquet file (columns matched to the table by name) as one new
/// snapshot: routed by the table's partition spec, in files of the target file size.
Status IcebergAppend(IcebergToolContext& ctx, const std::string& table,
                     const std::vector<std::string>& files, std::ostream& out);
struct ScanArgs {
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> ref;
  std::optional<int64_t> as_of_ms;
  std::vector<std::string> filters;  // "col=value", "col>value", "col<value", ... (and-ed)
};
/// Rows as JSON lines on `out`; one stats JSON line on `stats_out`.
Status IcebergScan(IcebergToolContext& ctx, const std::string& table, const ScanArgs& args,
                   std::ostream& out, std::ostream& stats_out);
Status IcebergMetadata(IcebergToolContext& ctx, const std::string& table, std::ostream& out);

/// `overwrite`: replaces the data files every row of which matches the filter with the rows
/// of `files`, in one snapshot (a file the filter matches in part is an error naming it).
Status IcebergOverwrite(IcebergToolContext& ctx, const std::string& table,
                        const std::vector<std::string>& filters,
                        const std::vector<std::string>& files, std::ostream& out);
/// `delete`: row-level delete of the rows matching the filter: data files all of whose live
/// rows match are dropped, the others get a position delete file (v2) or a deletion vector
/// merged with the file's earlier deletes (v3).
Status IcebergDelete(IcebergToolContext& ctx, const std::string& table,
                     const std::vector<std::string>& filters, std::ostream& out);
/// `delete --equality-delete FILE --equality-columns a,b`: an equality delete file of the
/// key columns of FILE's rows (unpartitioned v2+ tables).
Status IcebergEqualityDelete(IcebergToolContext& ctx, const std::string& table,
                             const std::string& keys_file, const std::vector<std::string>& columns,
                             std::ostream& out);
/// `rewrite`: compaction: every live row (deletes applied) rewritten by the default spec at
/// the target file size, old data and delete files removed, in one "replace" snapshot.
Status IcebergRewrite(IcebergToolContext& ctx, const std::string& table, std::ostream& out);

/// `expire-snapshots`: removes old snapshots and the files only they reached.
struct ExpireArgs {
  std::optional<int64_t> older_than_ms;
  std::optional<int> retain_last;
  std::vector<int64_t> snapshot_ids;
  bool dry_run = false;
};
Status IcebergExpireSnapshots(IcebergToolContext& ctx, const std::string& table,
                              const ExpireArgs& args, std::ostream& out);

/// `alter`: table evolution. Every flag is parsed before anything commits; then the schema,
/// partition spec, sort order and property changes commit in that order, each replayed on
/// fresh metadata after a conflict. Prints the resulting schema, spec and properties.
struct AlterArgs {
  std::vector<std::string> add_columns;           // "NAME TYPE" (NAME may be "parent.child")
  std::vector<std::string> rename_columns;        // "OLD=NEW"
  std::vector<std::string> widen_columns;         // "COLUMN=TYPE" (int->long, float->double, ...)
  std::vector<std::string> make_optional;         // COLUMN
  std::vector<std::string> drop_columns;          // COLUMN
  std::vector<std::string> add_partition_fields;  // "COLUMN:TRANSFORM[:NAME]"
  std::vector<std::string> rename_partition_fields;  // "OLD=NEW"
  std::vector<std::string> drop_partition_fields;    // NAME
  std::vector<std::string> sort_by;                  // "COLUMN[:asc|desc[:nulls-first|nulls-last]]"
  bool unsorted = false;
  std::vector<std::string> set_properties;    // "KEY=VALUE"
  std::vector<std::string> unset_properties;  // KEY
};
Status IcebergAlter(IcebergToolContext& ctx, const std::string& table, const AlterArgs& args,
                    std::ostream& out);

}  // namespace sqe::tools
