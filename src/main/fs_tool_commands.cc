#include "fs_tool_commands.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "common/task_scheduler.h"
#include "formats/parquet/file_reader.h"
#include "io/read_ranges.h"
#include "net/sigv4.h"

namespace sqe::tools {
namespace {

using Json = nlohmann::ordered_json;
constexpr int64_t kCopyChunk = int64_t{8} << 20;

Result<int64_t> ParseInt(const std::string& text, const std::string& what) {
  try {
    size_t used = 0;
    long long v = std::stoll(text, &used);
    if (used != text.size() || v < 0) throw std::invalid_argument(text);
    return static_cast<int64_t>(v);
  } catch (...) {
    return Status::InvalidArgument("bad " + what + " '" + text +
                                   "': expected a non-negative integer");
  }
}

Result<std::vector<io::ByteRange>> RangesFor(const ReadRangesOptions& options, int64_t size) {
  std::vector<io::ByteRange> ranges;
  for (const std::string& entry : options.ranges) {
    size_t colon = entry.find(':');
    if (colon == std::string::npos) {
      return Status::InvalidArgument("bad range '" + entry + "': write it as offset:length");
    }
    SQE_ASSIGN_OR_RETURN(int64_t offset, ParseInt(entry.substr(0, colon), "range offset"));
    SQE_ASSIGN_OR_RETURN(int64_t length, ParseInt(entry.substr(colon + 1), "range length"));
    ranges.push_back({offset, length});
  }
  if (!options.pattern.empty()) {
    size_t colon = options.pattern.find(':');
    if (colon == std::string::npos) {
      return Status::InvalidArgument("bad pattern '" + options.pattern +
                                     "': write it as chunk:hole");
    }
    SQE_ASSIGN_OR_RETURN(int64_t chunk, ParseInt(options.pattern.substr(0, colon), "chunk"));
    SQE_ASSIGN_OR_RETURN(int64_t hole, ParseInt(options.pattern.substr(colon + 1), "hole"));
    if (chunk <= 0) return Status::InvalidArgument("pattern chunk must be positive");
    for (int64_t offset = 0; offset < size; offset += chunk + hole) {
      ranges.push_back({offset, std::min(chunk, size - offset)});
    }
  }
  if (ranges.empty()) return Status::InvalidArgument("no ranges: give --ranges or --pattern");
  return ranges;
}

Result<std::unique_ptr<io::RandomAccessFile>> Open(io::FileSystem& fs, const std::string& uri,
                                                   int64_t size) {
  if (size >= 0) return fs.OpenForReadWithSize(uri, size);
  return fs.OpenForRead(uri);
}

Json StatsJson(const io::IoStatsSnapshot& s) { return Json::parse(s.ToJson()); }

}  // namespace

Status FsPut(FsToolContext& ctx, const std::string& uri, const std::string& source,
             bool overwrite) {
  SQE_ASSIGN_OR_RETURN(auto fs, ctx.file_systems->ForUri(uri, ctx.stats));
  std::ifstream file;
  std::istream* in = &std::cin;
  if (source != "-") {
    file.open(source, std::ios::binary);
    if (!file) return Status::NotFound("cannot open " + source + " for reading");
    in = &file;
  }
  SQE_ASSIGN_OR_RETURN(auto stream, fs->OpenForWrite(uri, overwrite));
  std::string chunk(static_cast<size_t>(kCopyChunk), '\0');
  while (*in) {
    in->read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    std::streamsize n = in->gcount();
    if (n <= 0) break;
    Status s = stream->Write(reinterpret_cast<const uint8_t*>(chunk.data()), n);
    if (!s.ok()) {
      stream->Abort();
      return s;
    }
  }
  if (in->bad()) {
    stream->Abort();
    return Status::IOError("reading " + source + " failed");
  }
  return stream->Close();
}

Status FsGet(FsToolContext& ctx, const std::string& uri, int64_t offset, int64_t length,
             const std::string& destination, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(auto fs, ctx.file_systems->ForUri(uri, ctx.stats));
  SQE_ASSIGN_OR_RETURN(auto file, fs->OpenForRead(uri));
  SQE_ASSIGN_OR_RETURN(int64_t size, file->Size());
  if (length < 0) length = std::max<int64_t>(0, size - offset);
  std::ofstream file_out;
  std::ostream* sink = &out;
  if (!destination.empty() && destination != "-") {
    file_out.open(destination, std::ios::binary | std::ios::trunc);
    if (!file_out) return Status::IOError("cannot open " + destination + " for writing");
    sink = &file_out;
  }
  std::string chunk;
  for (int64_t done = 0; done < length; done += kCopyChunk * 4) {
    int64_t n = std::min(kCopyChunk * 4, length - done);
    chunk.resize(static_cast<size_t>(n));
    SQE_RETURN_NOT_OK(file->ReadAt(offset + done, n, reinterpret_cast<uint8_t*>(chunk.data())));
    sink->write(chunk.data(), static_cast<std::streamsize>(n));
  }
  sink->flush();
  if (!*sink) return Status::IOError("writing the object's bytes failed");
  return Status::OK();
}

Status FsStat(FsToolContext& ctx, const std::string& uri, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(auto fs, ctx.file_systems->ForUri(uri, ctx.stats));
  SQE_ASSIGN_OR_RETURN(auto file, fs->OpenForRead(uri));
  SQE_ASSIGN_OR_RETURN(int64_t size, file->Size());
  out << Json{{"path", uri}, {"size", size}}.dump() << "\n";
  return Status::OK();
}

Status FsList(FsToolContext& ctx, const std::string& prefix, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(auto fs, ctx.file_systems->ForUri(prefix, ctx.stats));
  SQE_ASSIGN_OR_RETURN(auto files, fs->List(prefix));
  for (const io::FileInfo& f : files)
    out << Json{{"path", f.path}, {"size", f.size}}.dump() << "\n";
  return Status::OK();
}

Status FsRemove(FsToolContext& ctx, const std::vector<std::string>& uris) {
  if (uris.empty()) return Status::OK();
  SQE_ASSIGN_OR_RETURN(auto fs, ctx.file_systems->ForUri(uris.front(), ctx.stats));
  return fs->Delete(uris);
}

Status FsReadRanges(FsToolContext& ctx, const std::vector<std::string>& uris,
                    const ReadRangesOptions& options, std::ostream& out) {
  std::vector<std::string> lines(uris.size());
  std::vector<io::IoStatsSnapshot> totals(uris.size());
  auto started = std::chrono::steady_clock::now();
  TaskScheduler scheduler(static_cast<int>(std::min<size_t>(uris.size(), 16)));
  Status status =
      ParallelFor(&scheduler, static_cast<int64_t>(uris.size()), 0, [&](int64_t i) -> Status {
        const std::string& uri = uris[static_cast<size_t>(i)];
        auto stats = std::make_shared<io::IoStats>();
        SQE_ASSIGN_OR_RETURN(auto fs, ctx.file_systems->ForUri(uri, stats));
        int64_t bytes = 0;
        std::string digest;
        size_t range_count = 0;
        auto file_started = std::chrono::steady_clock::now();
        for (int pass = 0; pass < std::max(1, options.repeat); ++pass) {
          SQE_ASSIGN_OR_RETURN(auto file, Open(*fs, uri, options.size));
          SQE_ASSIGN_OR_RETURN(int64_t size, file->Size());
          SQE_ASSIGN_OR_RETURN(auto ranges, RangesFor(options, size));
          io::ReadRangesOptions read_options;
          read_options.hole_threshold = options.coalesce_threshold;
          SQE_ASSIGN_OR_RETURN(auto buffers, io::ReadRanges(*file, ranges, read_options));
          for (const auto& b : buffers) bytes += b->size();
          if (options.digest) {
            std::string concatenated;
            for (const auto& b : buffers) {
              concatenated.append(reinterpret_cast<const char*>(b->data()),
                                  static_cast<size_t>(b->size()));
            }
            digest = net::Sha256Hex(concatenated);
          }
          range_count = ranges.size();
        }
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - file_started).count();
        totals[static_cast<size_t>(i)] = stats->Snapshot();
        Json line{{"path", uri},        {"ranges", range_count},
                  {"bytes", bytes},     {"sha256", digest},
                  {"seconds", seconds}, {"io", StatsJson(totals[static_cast<size_t>(i)])}};
        lines[static_cast<size_t>(i)] = line.dump();
        return Status::OK();
      });
  for (const auto& t : totals) ctx.stats->Add(t);
  SQE_RETURN_NOT_OK(status);
  for (const std::string& line : lines) out << line << "\n";
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  io::IoStatsSnapshot all = ctx.stats->Snapshot();
  out << Json{{"total_bytes", all.bytes_read},
              {"seconds", seconds},
              {"mb_per_s", seconds > 0 ? static_cast<double>(all.bytes_read) / 1e6 / seconds : 0.0},
              {"requests", all.requests}}
             .dump()
      << "\n";
  return Status::OK();
}

Status FsParquetScan(FsToolContext& ctx, const std::string& uri, const ParquetScanOptions& options,
                     std::ostream& out) {
  auto footer_cache = std::make_shared<parquet::FooterCache>(options.footer_cache_size);
  for (int pass = 1; pass <= std::max(1, options.repeat); ++pass) {
    auto stats = std::make_shared<io::IoStats>();
    SQE_ASSIGN_OR_RETURN(auto fs, ctx.file_systems->ForUri(uri, stats));
    SQE_ASSIGN_OR_RETURN(auto file, Open(*fs, uri, options.size));
    parquet::ReaderOptions reader_options;
    reader_options.footer_cache = footer_cache;
    reader_options.coalesce_threshold = options.coalesce_threshold;
    int64_t hits_before = footer_cache->hits();
    SQE_ASSIGN_OR_RETURN(auto reader,
                         parquet::ParquetFileReader::Open(std::move(file), reader_options));
    bool footer_hit = footer_cache->hits() > hits_before;
    int64_t rows = 0;
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      SQE_ASSIGN_OR_RETURN(auto batch, reader->ReadRowGroup(g));
      rows += batch.num_rows();
    }
    io::IoStatsSnapshot s = stats->Snapshot();
    ctx.stats->Add(s);
    out << Json{{"pass", pass},
                {"rows", rows},
                {"row_groups", reader->num_row_groups()},
                {"footer_cache_hit", footer_hit},
                {"io", StatsJson(s)}}
               .dump()
        << "\n";
  }
  return Status::OK();
}

}  // namespace sqe::tools
