#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "io/file_system.h"
#include "io/local_file.h"

namespace sqe::io {

FileSystem::~FileSystem() = default;

namespace {

namespace fs = std::filesystem;

// Counts the reads of a local file into IoStats (one "get" per range read).
class CountedLocalFile final : public RandomAccessFile {
 public:
  CountedLocalFile(std::unique_ptr<RandomAccessFile> file, std::shared_ptr<IoStats> stats)
      : file_(std::move(file)), stats_(std::move(stats)) {}
  const std::string& path() const override { return file_->path(); }
  Result<int64_t> Size() override { return file_->Size(); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override {
    stats_->AddRequest(IoStats::Request::kGet);
    SQE_RETURN_NOT_OK(file_->ReadAt(offset, length, out));
    stats_->AddBytesRead(length);
    return Status::OK();
  }

 private:
  std::unique_ptr<RandomAccessFile> file_;
  std::shared_ptr<IoStats> stats_;
};

class LocalFileSystem final : public FileSystem {
 public:
  explicit LocalFileSystem(std::shared_ptr<IoStats> stats) : stats_(std::move(stats)) {}

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    SQE_ASSIGN_OR_RETURN(auto file, OpenLocalFile(path));
    if (!stats_) return file;
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<CountedLocalFile>(std::move(file), stats_));
  }

  Result<std::unique_ptr<OutputStream>> OpenForWrite(const std::string& path,
                                                     bool overwrite) override {
    return CreateLocalFile(path, overwrite);
  }

  Result<std::vector<FileInfo>> List(const std::string& prefix_uri) override {
    std::string prefix = LocalPathOf(prefix_uri);
    if (stats_) stats_->AddRequest(IoStats::Request::kList);
    // A prefix is a name prefix, as on S3 ("t/a" matches "t/a/1" and "t/ab"): walk the
    // directory the prefix ends in ("t/a/" walks t/a, "t/a" walks t), then filter.
    fs::path root = prefix.ends_with('/') ? fs::path(prefix) : fs::path(prefix).parent_path();
    std::error_code ec;
    std::vector<FileInfo> out;
    if (root.empty() || !fs::is_directory(root, ec)) return out;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    if (ec) return Status::IOError("cannot list " + root.string() + ": " + ec.message());
    for (auto end = fs::recursive_directory_iterator(); it != end; it.increment(ec)) {
      if (ec) return Status::IOError("cannot list " + root.string() + ": " + ec.message());
      if (!it->is_regular_file(ec)) continue;
      std::string p = it->path().string();
      if (!p.starts_with(prefix)) continue;
      auto size = it->file_size(ec);
      if (ec) continue;  // vanished while listing
      out.push_back({p, static_cast<int64_t>(size)});
    }
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return out;
  }

  Status Delete(const std::vector<std::string>& paths) override {
    Status first;
    for (const std::string& uri : paths) {
      std::error_code ec;
      std::string path = LocalPathOf(uri);
      if (stats_) stats_->AddRequest(IoStats::Request::kDelete);
      fs::remove(path, ec);
      if (ec && first.ok()) first = Status::IOError("cannot delete " + path + ": " + ec.message());
    }
    return first;
  }

  Status Rename(const std::string& from, const std::string& to) override {
    std::error_code ec;
    fs::rename(LocalPathOf(from), LocalPathOf(to), ec);
    if (ec) {
      return Status::IOError("cannot rename " + LocalPathOf(from) + " to " + LocalPathOf(to) +
                             ": " + ec.message());
    }
    return Status::OK();
  }

  Result<int64_t> LastModifiedMicros(const std::string& uri) override {
    const std::string path = LocalPathOf(uri);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      const int err = errno;
      if (err == ENOENT) return Status::NotFound("file " + path + " does not exist");
      return Status::IOError("cannot stat " + path + ": " + std::strerror(err));
    }
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000 + st.st_mtim.tv_nsec / 1000;
  }

 private:
  std::shared_ptr<IoStats> stats_;
};

}  // namespace

std::unique_ptr<FileSystem> MakeLocalFileSystem(std::shared_ptr<IoStats> stats) {
  return std::make_unique<LocalFileSystem>(std::move(stats));
}

}  // namespace sqe::io
