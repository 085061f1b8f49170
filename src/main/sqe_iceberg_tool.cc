// sqe-iceberg: Iceberg tables through SQE's catalog, writer and scan planner. The catalog
// is the embedded one over --warehouse DIR, or the configured one (--config / SQE_*).
// Exit codes: 0 success, 1 the operation failed (the error says what), 2 bad usage.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "catalog/catalog_factory.h"
#include "config/config_loader.h"
#include "iceberg_tool_commands.h"
#include "io/s3/s3_options.h"
#include "version.h"

namespace {

sqe::Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) return sqe::Status::NotFound("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sqe-iceberg: Iceberg tables through SQE's catalog, writer and scan planner"};
  app.set_version_flag("--version", std::string("sqe-iceberg ") + SQE_VERSION);
  app.require_subcommand(1);
  std::string warehouse, config_path, table, ns;
  std::vector<std::string> sets, files;
  app.add_option("--warehouse", warehouse, "embedded catalog over this directory");
  app.add_option("--config", config_path, "use the catalog this configuration describes");
  app.add_option("--set", sets, "override a config field: section.field=value");
  auto* create_ns = app.add_subcommand("create-namespace", "create a namespace");
  create_ns->add_option("NAMESPACE", ns)->required();
  sqe::tools::CreateTableArgs create_args;
  std::string schema_file, spec_file;
  auto* create = app.add_subcommand("create", "create a table");
  create->add_option("TABLE", table, "ns.table")->required();
  create->add_option("--schema", schema_file, "Iceberg schema JSON file")->required();
  create->add_option("--spec", spec_file, "partition spec JSON file");
  create->add_option("--format-version", create_args.format_version);
  create->add_option("--property", create_args.properties, "k=v (repeatable)");
  auto* append = app.add_subcommand("append", "append Parquet files as one snapshot");
  append->add_option("TABLE", table)->required();
  append->add_option("FILES", files)->required();
  sqe::tools::ScanArgs scan_args;
  auto* scan = app.add_subcommand("scan", "print rows as JSON lines (stats on stderr)");
  scan->add_option("TABLE", table)->required();
  scan->add_option("--snapshot-id", scan_args.snapshot_id);
  scan->add_option("--ref", scan_args.ref, "branch or tag");
  scan->add_option("--as-of-ms", scan_args.as_of_ms, "time travel (epoch milliseconds)");
  scan->add_option("--filter", scan_args.filters, "col=value, col>value, ... (and-ed)");
  auto* meta = app.add_subcommand("metadata", "print the metadata location and snapshots");
  meta->add_option("TABLE", table)->required();
  std::vector<std::string> write_filters;
  auto* overwrite = app.add_subcommand("overwrite", "replace the rows a filter matches");
  overwrite->add_option("TABLE", table)->required();
  overwrite->add_option("--filter", write_filters, "col=value, col>value, ... (repeat to and)")
      ->required()
      ->allow_extra_args(false);
  overwrite->add_option("FILES", files, "Parquet files with the new rows");
  auto* del = app.add_subcommand("delete", "delete the rows a filter matches (row-level)");
  del->add_option("TABLE", table)->required();
  std::string equality_file;
  std::vector<std::string> equality_columns;
  del->add_option("--filter", write_filters, "col=value, col>value, ... (repeat to and)")
      ->allow_extra_args(false);
  del->add_option("--equality-delete", equality_file,
                  "Parquet file of keys: delete the rows equal to one of them");
  del->add_option("--equality-columns", equality_columns, "the key columns (a,b)")->delimiter(',');
  auto* rewrite = app.add_subcommand("rewrite", "compact: rewrite live rows, drop delete files");
  rewrite->add_option("TABLE", table)->required();
  sqe::tools::ExpireArgs expire_args;
  auto* expire = app.add_subcommand("expire-snapshots", "remove old snapshots and their files");
  expire->add_option("TABLE", table)->required();
  expire->add_option("--older-than-ms", expire_args.older_than_ms,
                     "expire snapshots older than this (epoch ms; default: 5 days ago)");
  expire->add_option("--retain-last", expire_args.retain_last,
                     "keep at least this many of main's newest snapshots");
  expire->add_option("--snapshot-id", expire_args.snapshot_ids, "expire this one (repeatable)")
      ->allow_extra_args(false);
  expire->add_flag("--dry-run", expire_args.dry_run, "print what would expire, change nothing");
  sqe::tools::AlterArgs alter_args;
  auto* alter =
      app.add_subcommand("alter", "evolve schema, partition spec, sort order, properties");
  alter->add_option("TABLE", table)->required();
  alter->add_option("--add-column", alter_args.add_columns, "'NAME TYPE' (repeatable)");
  alter->add_option("--rename-column", alter_args.rename_columns, "OLD=NEW");
  alter->add_option("--widen-column", alter_args.widen_columns, "COLUMN=TYPE");
  alter->add_option("--make-optional", alter_args.make_optional, "COLUMN");
  alter->add_option("--drop-column", alter_args.drop_columns, "COLUMN");
  alter->add_option("--add-partition-field", alter_args.add_partition_fields,
                    "COLUMN:TRANSFORM[:NAME] (identity, bucket[N], truncate[W], day, ...)");
  alter->add_option("--rename-partition-field", alter_args.rename_partition_fields, "OLD=NEW");
  alter->add_option("--drop-partition-field", alter_args.drop_partition_fields, "NAME");
  alter->add_option("--sort-by", alter_args.sort_by,
                    "COLUMN[:asc|desc[:nulls-first|nulls-last]] (repeatable, in order)");
  alter->add_flag("--unsorted", alter_args.unsorted, "make the table unsorted");
  alter->add_option("--set-property", alter_args.set_properties, "KEY=VALUE");
  alter->add_option("--unset-property", alter_args.unset_properties, "KEY");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  sqe::tools::IcebergToolContext ctx;
  sqe::config::LoadOptions load;
  if (!config_path.empty()) load.config_path = config_path;
  load.set_overrides = sets;
  load.env = sqe::config::CurrentEnvironment();
  load.server_validation = false;
  auto loaded = sqe::config::LoadConfig(load);
  if (!loaded.ok()) {
    std::cerr << "sqe-iceberg: " << loaded.status().ToString() << "\n";
    return 2;
  }
  ctx.default_parquet_codec = loaded->config.catalog.parquet_compression;
  ctx.target_task_size = static_cast<int64_t>(loaded->config.query.target_task_size);
  ctx.max_open_writers = loaded->config.query.fanout_max_open_writers;
  ctx.file_systems = std::make_shared<sqe::io::s3::StorageFileSystems>(
      sqe::io::s3::S3OptionsFromConfig(loaded->config, load.env));
  auto catalog = warehouse.empty()
                     ? sqe::catalog::MakeCatalog(loaded->config, ctx.file_systems)
                     : sqe::catalog::MakeEmbeddedCatalog(
                           warehouse, loaded->config.catalog.name,
                           loaded->config.catalog.default_table_format_version, ctx.file_systems);
  if (!catalog.ok()) {
    std::cerr << "sqe-iceberg: " << catalog.status().ToString() << "\n";
    return 2;
  }
  ctx.catalog = std::move(*catalog);

  sqe::Status status;
  if (*create_ns) {
    status = sqe::tools::IcebergCreateNamespace(ctx, ns);
  } else if (*create) {
    auto schema = ReadText(schema_file);
    status = schema.status();
    if (schema.ok()) {
      create_args.schema_json = *schema;
      if (!spec_file.empty()) {
        auto spec = ReadText(spec_file);
        status = spec.status();
        if (spec.ok()) create_args.spec_json = *spec;
      }
      if (status.ok()) status = sqe::tools::IcebergCreateTable(ctx, table, create_args, std::cout);
    }
  } else if (*append) {
    status = sqe::tools::IcebergAppend(ctx, table, files, std::cout);
  } else if (*scan) {
    status = sqe::tools::IcebergScan(ctx, table, scan_args, std::cout, std::cerr);
  } else if (*overwrite) {
    status = sqe::tools::IcebergOverwrite(ctx, table, write_filters, files, std::cout);
  } else if (*del) {
    if (equality_file.empty() == write_filters.empty()) {
      status = sqe::Status::InvalidArgument(
          "delete needs either --filter or --equality-delete FILE --equality-columns COLS");
    } else if (!equality_file.empty()) {
      status =
          sqe::tools::IcebergEqualityDelete(ctx, table, equality_file, equality_columns, std::cout);
    } else {
      status = sqe::tools::IcebergDelete(ctx, table, write_filters, std::cout);
    }
  } else if (*rewrite) {
    status = sqe::tools::IcebergRewrite(ctx, table, std::cout);
  } else if (*expire) {
    status = sqe::tools::IcebergExpireSnapshots(ctx, table, expire_args, std::cout);
  } else if (*alter) {
    status = sqe::tools::IcebergAlter(ctx, table, alter_args, std::cout);
  } else {
    status = sqe::tools::IcebergMetadata(ctx, table, std::cout);
  }
  std::cout.flush();
  if (!status.ok()) {
    std::cerr << "sqe-iceberg: " << status.ToString() << "\n";
    return 1;
  }
  return 0;
}
