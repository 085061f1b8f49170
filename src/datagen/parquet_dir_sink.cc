#include "datagen/parquet_dir_sink.h"

#include <atomic>
#include <filesystem>
#include <system_error>
#include <vector>

#include "formats/parquet/file_writer.h"
#include "io/file_system.h"

namespace sqe::datagen {
namespace {

namespace fs = std::filesystem;

class ParquetFileWriter final : public SinkWriter {
 public:
  ParquetFileWriter(io::FileSystem& files, columnar::SchemaPtr schema, std::string prefix,
                    const ParquetDirSinkOptions& options)
      : files_(files), schema_(std::move(schema)), prefix_(std::move(prefix)), options_(options) {}

  ~ParquetFileWriter() override {
    if (closed_) return;
    writer_.reset();  // aborts the open file
    (void)files_.Delete(written_);
  }

  Status Write(const columnar::Batch& batch) override {
    if (writer_ == nullptr) {
      const std::string path = prefix_ + std::to_string(written_.size()) + ".parquet";
      SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::OutputStream> out,
                           files_.OpenForWrite(path, /*overwrite=*/false));
      SQE_ASSIGN_OR_RETURN(writer_,
                           parquet::ParquetWriter::Open(std::move(out), schema_, options_.writer));
      written_.push_back(path);
    }
    SQE_RETURN_NOT_OK(writer_->Write(batch));
    if (writer_->EstimatedFileBytes() >= options_.target_file_bytes) return CloseFile();
    return Status::OK();
  }

  Status Close() override {
    SQE_RETURN_NOT_OK(CloseFile());
    closed_ = true;
    return Status::OK();
  }

 private:
  Status CloseFile() {
    if (writer_ == nullptr) return Status::OK();
    Result<parquet::FileMetrics> closed = writer_->Close();
    writer_.reset();
    return closed.status();
  }

  io::FileSystem& files_;
  columnar::SchemaPtr schema_;
  std::string prefix_;
  const ParquetDirSinkOptions& options_;
  std::unique_ptr<parquet::ParquetWriter> writer_;
  std::vector<std::string> written_;
  bool closed_ = false;
};

class ParquetTableSink final : public TableSink {
 public:
  ParquetTableSink(io::FileSystem& files, columnar::SchemaPtr schema, std::string dir,
                   const ParquetDirSinkOptions& options)
      : files_(files), schema_(std::move(schema)), dir_(std::move(dir)), options_(options) {}

  Result<std::unique_ptr<SinkWriter>> OpenWriter() override {
    const int n = next_writer_.fetch_add(1);
    return std::unique_ptr<SinkWriter>(std::make_unique<ParquetFileWriter>(
        files_, schema_, dir_ + "/part-" + std::to_string(n) + "-", options_));
  }
  Status Commit() override { return Status::OK(); }

 private:
  io::FileSystem& files_;
  columnar::SchemaPtr schema_;
  std::string dir_;
  const ParquetDirSinkOptions& options_;
  std::atomic<int> next_writer_{0};
};

class ParquetDirSink final : public DatasetSink {
 public:
  explicit ParquetDirSink(ParquetDirSinkOptions options)
      : options_(std::move(options)), files_(io::MakeLocalFileSystem()) {}

  Result<std::unique_ptr<TableSink>> BeginTable(TpchTable table) override {
    const std::string dir = options_.directory + "/" + std::string(TpchTableName(table));
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return Status::IOError("cannot create directory " + dir + ": " + ec.message());
    std::vector<std::string> old;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      if (e.is_regular_file() && e.path().extension() == ".parquet") {
        old.push_back(e.path().string());
      }
    }
    if (ec) return Status::IOError("cannot list directory " + dir + ": " + ec.message());
    if (!old.empty()) {
      if (!options_.replace) {
        return Status::AlreadyExists("directory " + dir + " already holds " +
                                     std::to_string(old.size()) +
                                     " Parquet files; pass --replace to overwrite them");
      }
      SQE_RETURN_NOT_OK(files_->Delete(old));
    }
    return std::unique_ptr<TableSink>(
        std::make_unique<ParquetTableSink>(*files_, TpchSchema(table), dir, options_));
  }

 private:
  ParquetDirSinkOptions options_;
  std::unique_ptr<io::FileSystem> files_;
};

}  // namespace

Result<std::unique_ptr<DatasetSink>> MakeParquetDirSink(ParquetDirSinkOptions options) {
  if (options.directory.empty()) return Status::InvalidArgument("no Parquet directory given");
  std::error_code ec;
  fs::create_directories(options.directory, ec);
  if (ec) {
    return Status::IOError("cannot create directory " + options.directory + ": " + ec.message());
  }
  return std::unique_ptr<DatasetSink>(std::make_unique<ParquetDirSink>(std::move(options)));
}

}  // namespace sqe::datagen
