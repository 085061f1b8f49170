// sqe-parquet: inspect Parquet files (schema, metadata, rows). Exit codes: 0 success,
// 1 the file could not be read (the error names it), 2 bad usage.
#include <CLI/CLI.hpp>

#include <iostream>

#include "parquet_tool_commands.h"
#include "version.h"

int main(int argc, char** argv) {
  CLI::App app{"sqe-parquet: inspect Parquet files"};
  app.set_version_flag("--version", std::string("sqe-parquet ") + SQE_VERSION);
  app.require_subcommand(1);
  std::string file;
  auto* schema = app.add_subcommand("schema", "print the columns and the Parquet leaf columns");
  schema->add_option("FILE", file, "Parquet file")->required();
  auto* meta = app.add_subcommand("meta", "print row groups, column chunks and statistics");
  meta->add_option("FILE", file, "Parquet file")->required();
  auto* cat = app.add_subcommand("cat", "print rows");
  cat->add_option("FILE", file, "Parquet file")->required();
  sqe::tools::CatOptions cat_options;
  std::string format = "table";
  cat->add_option("--limit", cat_options.limit, "print at most N rows");
  cat->add_option("--columns", cat_options.columns, "comma-separated top-level columns")
      ->delimiter(',');
  cat->add_option("--format", format, "table or jsonl")->check(CLI::IsMember({"table", "jsonl"}));
  auto* rewrite = app.add_subcommand("rewrite", "read FILE and write it again with our writer");
  std::string out_file;
  sqe::tools::RewriteOptions rw;
  rewrite->add_option("FILE", file, "Parquet file to read")->required();
  rewrite->add_option("OUT", out_file, "Parquet file to write")->required();
  rewrite->add_option("--codec", rw.codec, "zstd, snappy, gzip, lz4, brotli or none")
      ->check(CLI::IsMember({"zstd", "snappy", "gzip", "lz4", "brotli", "none"}));
  rewrite->add_option("--level", rw.level, "compression level");
  rewrite->add_option("--page-version", rw.page_version, "data page version, 1 or 2")
      ->check(CLI::IsMember({1, 2}));
  rewrite->add_option("--row-group-rows", rw.row_group_rows, "rows per row group");
  rewrite->add_option("--page-bytes", rw.page_bytes, "target data page size in bytes");
  bool no_dictionary = false;
  rewrite->add_flag("--no-dictionary", no_dictionary, "PLAIN encoding only");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  sqe::Status status;
  if (*schema) {
    status = sqe::tools::PrintParquetSchema(file, std::cout);
  } else if (*meta) {
    status = sqe::tools::PrintParquetMeta(file, std::cout);
  } else if (*rewrite) {
    rw.dictionary = !no_dictionary;
    status = sqe::tools::RewriteParquet(file, out_file, rw, std::cout);
  } else {
    cat_options.format =
        format == "jsonl" ? sqe::tools::CatFormat::kJsonLines : sqe::tools::CatFormat::kTable;
    status = sqe::tools::PrintParquetRows(file, cat_options, std::cout);
  }
  std::cout.flush();
  if (!status.ok()) {
    std::cerr << "sqe-parquet: " << status.ToString() << "\n";
    return 1;
  }
  return 0;
}
