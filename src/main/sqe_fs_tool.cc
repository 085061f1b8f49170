// sqe-fs: read and write files on local disk or S3 through SQE's FileSystem layer, with
// the [storage] configuration (file, SQE_STORAGE__* environment, AWS_* credentials) and
// flags that override it. Exit codes: 0 success, 1 the operation failed (the error
// names the file), 2 bad usage or configuration.
#include <CLI/CLI.hpp>

#include <chrono>
#include <iostream>
#include <optional>

#include "config/config_loader.h"
#include "fs_tool_commands.h"
#include "io/s3/s3_options.h"
#include "version.h"

namespace {

// Flags that override the configuration for this run.
struct S3Flags {
  std::optional<std::string> endpoint;
  std::optional<std::string> region;
  bool path_style = false;
  bool virtual_host = false;
  bool allow_http = false;
  bool no_verify_tls = false;
  std::optional<int64_t> connect_timeout_ms;
  std::optional<int64_t> request_timeout_ms;
  std::optional<int64_t> stall_timeout_ms;
  std::optional<int> max_attempts;
  std::optional<int64_t> retry_base_ms;
  std::optional<int64_t> part_size;
  std::optional<int> requests_per_file;
  std::optional<int64_t> small_file_threshold;
  std::optional<int64_t> tail_prefetch;
};

sqe::Result<sqe::io::s3::S3Options> ResolveOptions(const std::optional<std::string>& config_path,
                                                   const std::vector<std::string>& sets,
                                                   const S3Flags& flags) {
  sqe::config::LoadOptions load;
  load.config_path = config_path;
  load.set_overrides = sets;
  load.env = sqe::config::CurrentEnvironment();
  load.server_validation = false;
  SQE_ASSIGN_OR_RETURN(auto loaded, sqe::config::LoadConfig(load));
  sqe::config::Config& config = loaded.config;
  if (flags.endpoint) config.storage.s3_endpoint = *flags.endpoint;
  if (flags.region) config.storage.s3_region = *flags.region;
  if (flags.path_style) config.storage.s3_path_style = true;
  if (flags.virtual_host) config.storage.s3_path_style = false;
  if (flags.allow_http) config.storage.s3_allow_http = true;
  if (flags.no_verify_tls) config.auth.ssl_verification = false;
  SQE_ASSIGN_OR_RETURN(auto options, sqe::io::s3::S3OptionsFromConfig(config, load.env));
  if (flags.connect_timeout_ms) options.connect_timeout_ms = *flags.connect_timeout_ms;
  if (flags.request_timeout_ms) options.request_timeout_ms = *flags.request_timeout_ms;
  if (flags.stall_timeout_ms) options.stall_timeout_ms = *flags.stall_timeout_ms;
  if (flags.max_attempts) options.retry.max_attempts = *flags.max_attempts;
  if (flags.retry_base_ms) options.retry.base_delay_ms = *flags.retry_base_ms;
  if (flags.part_size) options.part_size = *flags.part_size;
  if (flags.requests_per_file) options.concurrent_requests_per_file = *flags.requests_per_file;
  if (flags.small_file_threshold) options.small_file_threshold = *flags.small_file_threshold;
  if (flags.tail_prefetch) options.tail_prefetch = *flags.tail_prefetch;
  SQE_RETURN_NOT_OK(sqe::io::s3::ValidateS3Options(options));
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sqe-fs: files on local disk and S3 through SQE's storage layer"};
  app.set_version_flag("--version", std::string("sqe-fs ") + SQE_VERSION);
  app.require_subcommand(1);
  std::optional<std::string> config_path;
  std::vector<std::string> sets;
  S3Flags flags;
  bool print_stats = false;
  app.add_option("--config", config_path, "SQE configuration file (its [storage] section)");
  app.add_option("--set", sets, "override a config field: section.field=value");
  app.add_option("--endpoint", flags.endpoint, "S3 endpoint (storage.s3_endpoint)");
  app.add_option("--region", flags.region, "S3 region (storage.s3_region)");
  app.add_flag("--path-style", flags.path_style, "path-style addressing");
  app.add_flag("--virtual-host", flags.virtual_host, "virtual-host addressing (bucket.host)");
  app.add_flag("--allow-http", flags.allow_http, "allow an http:// endpoint");
  app.add_flag("--no-verify-tls", flags.no_verify_tls, "do not verify TLS certificates");
  app.add_option("--connect-timeout-ms", flags.connect_timeout_ms, "connect timeout");
  app.add_option("--request-timeout-ms", flags.request_timeout_ms, "whole-request timeout");
  app.add_option("--stall-timeout-ms", flags.stall_timeout_ms, "abort a transfer idle this long");
  app.add_option("--max-attempts", flags.max_attempts, "attempts per request (1: no retries)");
  app.add_option("--retry-base-ms", flags.retry_base_ms, "first backoff delay");
  app.add_option("--part-size", flags.part_size, "multipart part size in bytes (>= 5 MiB)");
  app.add_option("--requests-per-file", flags.requests_per_file,
                 "concurrent ranged GETs per file (storage.concurrent_requests_per_file)");
  app.add_option("--small-file-threshold", flags.small_file_threshold,
                 "bytes; files this small are fetched whole");
  app.add_option("--tail-prefetch", flags.tail_prefetch, "bytes of a file's end read at once");
  app.add_flag("--stats", print_stats, "print the I/O counters as one JSON line on stderr");

  std::string uri, source = "-", destination;
  std::vector<std::string> uris;
  bool no_overwrite = false;
  int64_t offset = 0, length = -1;
  auto* put = app.add_subcommand("put", "write FILE (or stdin) to URI");
  put->add_option("URI", uri)->required();
  put->add_option("FILE", source, "local file, or - for stdin");
  put->add_flag("--no-overwrite", no_overwrite, "fail when URI exists");
  auto* get = app.add_subcommand("get", "print URI's bytes (or a range of them)");
  get->add_option("URI", uri)->required();
  get->add_option("--offset", offset);
  get->add_option("--length", length);
  get->add_option("-o,--output", destination, "write to this local file instead of stdout");
  auto* stat = app.add_subcommand("stat", "print URI's size as JSON");
  stat->add_option("URI", uri)->required();
  auto* ls = app.add_subcommand("ls", "list files under a prefix (JSON lines)");
  ls->add_option("PREFIX", uri)->required();
  auto* rm = app.add_subcommand("rm", "delete files (batched)");
  rm->add_option("URI", uris)->required();
  sqe::tools::ReadRangesOptions rr;
  auto* read_ranges = app.add_subcommand("read-ranges", "read byte ranges, report requests");
  read_ranges->add_option("URI", uris)->required();
  read_ranges->add_option("--ranges", rr.ranges, "offset:length,...")->delimiter(',');
  read_ranges->add_option("--pattern", rr.pattern, "chunk:hole over the whole file");
  read_ranges->add_option("--coalesce", rr.coalesce_threshold,
                          "coalesce_threshold in bytes (0: off)");
  read_ranges->add_option("--size", rr.size, "known file size (no size request)");
  read_ranges->add_option("--repeat", rr.repeat, "passes");
  bool no_digest = false;
  read_ranges->add_flag("--no-digest", no_digest, "skip the sha256 of the bytes read");
  sqe::tools::ParquetScanOptions ps;
  auto* parquet_scan = app.add_subcommand("parquet-scan", "read a Parquet file, report requests");
  parquet_scan->add_option("URI", uri)->required();
  parquet_scan->add_option("--repeat", ps.repeat, "passes sharing one footer cache");
  parquet_scan->add_option("--footer-cache-size", ps.footer_cache_size, "bytes (0: off)");
  parquet_scan->add_option("--coalesce", ps.coalesce_threshold, "coalesce_threshold in bytes");
  parquet_scan->add_option("--size", ps.size, "known file size (no size request)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  sqe::tools::FsToolContext ctx;
  auto options = ResolveOptions(config_path, sets, flags);
  bool wants_s3 = false;
  for (const std::string& u : uris) wants_s3 |= u.rfind("s3", 0) == 0;
  wants_s3 |= uri.rfind("s3", 0) == 0;
  if (!options.ok() && wants_s3) {
    std::cerr << "sqe-fs: " << options.status().ToString() << "\n";
    return 2;
  }
  ctx.file_systems = std::make_unique<sqe::io::s3::StorageFileSystems>(std::move(options));

  auto started = std::chrono::steady_clock::now();
  sqe::Status status;
  if (*put) {
    status = sqe::tools::FsPut(ctx, uri, source, !no_overwrite);
  } else if (*get) {
    status = sqe::tools::FsGet(ctx, uri, offset, length, destination, std::cout);
  } else if (*stat) {
    status = sqe::tools::FsStat(ctx, uri, std::cout);
  } else if (*ls) {
    status = sqe::tools::FsList(ctx, uri, std::cout);
  } else if (*rm) {
    status = sqe::tools::FsRemove(ctx, uris);
  } else if (*read_ranges) {
    rr.digest = !no_digest;
    status = sqe::tools::FsReadRanges(ctx, uris, rr, std::cout);
  } else {
    status = sqe::tools::FsParquetScan(ctx, uri, ps, std::cout);
  }
  std::cout.flush();
  if (print_stats) {
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    std::cerr << "{\"io\":" << ctx.stats->Snapshot().ToJson() << ",\"elapsed_ms\":" << ms << "}\n";
  }
  if (!status.ok()) {
    std::cerr << "sqe-fs: " << status.ToString() << "\n";
    return 1;
  }
  return 0;
}
