#include "catalog/metadata_file.h"

#include "formats/parquet/compression.h"

namespace sqe::catalog {
namespace {

bool IsGzip(std::string_view bytes) {
  return bytes.size() >= 18 && static_cast<uint8_t>(bytes[0]) == 0x1f &&
         static_cast<uint8_t>(bytes[1]) == 0x8b;
}

// A gzip metadata file (Iceberg's write.metadata.compression-codec=gzip): the trailer's
// ISIZE bounds the output, and the inflater checks it exactly.
Result<std::string> Gunzip(const std::string& location, std::string_view bytes, int64_t max_size) {
  const auto* tail = reinterpret_cast<const uint8_t*>(bytes.data() + bytes.size() - 4);
  const int64_t size =
      int64_t{tail[0]} | int64_t{tail[1]} << 8 | int64_t{tail[2]} << 16 | int64_t{tail[3]} << 24;
  if (size > max_size) {
    return Status::Corruption("metadata file " + location + " inflates to " + std::to_string(size) +
                              " bytes, more than the " + std::to_string(max_size) + " accepted");
  }
  auto text = parquet::Decompress(parquet::CompressionCodec::kGzip, bytes, size, max_size);
  if (!text.ok()) {
    return Status::Corruption("metadata file " + location +
                              " is not valid gzip: " + text.status().message());
  }
  return std::move(*text);
}

}  // namespace

bool IsGzipMetadataLocation(std::string_view location) {
  return location.ends_with(".gz.metadata.json") || location.ends_with(".metadata.json.gz");
}

Result<std::string> MetadataFileContent(const iceberg::TableMetadata& metadata,
                                        std::string_view location) {
  SQE_ASSIGN_OR_RETURN(std::string text, iceberg::WriteTableMetadata(metadata));
  if (!IsGzipMetadataLocation(location)) return text;
  return parquet::Compress(parquet::CompressionCodec::kGzip, text);
}

std::string MetadataFileSuffix(const iceberg::TableMetadata& metadata) {
  auto it = metadata.properties.find("write.metadata.compression-codec");
  const bool gzip =
      it != metadata.properties.end() && (it->second == "gzip" || it->second == "GZIP");
  return gzip ? ".gz.metadata.json" : ".metadata.json";
}

Result<iceberg::TableMetadata> ReadMetadataFile(io::s3::StorageFileSystems& file_systems,
                                                const std::string& location, int64_t max_size) {
  SQE_ASSIGN_OR_RETURN(auto fs, file_systems.ForUri(location));
  SQE_ASSIGN_OR_RETURN(auto file, fs->OpenForRead(location));
  SQE_ASSIGN_OR_RETURN(int64_t size, file->Size());
  if (size > max_size) {
    return Status::Corruption("metadata file " + location + " is " + std::to_string(size) +
                              " bytes, more than the " + std::to_string(max_size) + " accepted");
  }
  std::string text(static_cast<size_t>(size), '\0');
  SQE_RETURN_NOT_OK(file->ReadAt(0, size, reinterpret_cast<uint8_t*>(text.data())));
  if (IsGzip(text)) {
    SQE_ASSIGN_OR_RETURN(text, Gunzip(location, text, max_size));
  }
  auto metadata = iceberg::ParseTableMetadata(text);
  if (!metadata.ok()) {
    return Status(metadata.status().code(), location + ": " + metadata.status().message());
  }
  return std::move(*metadata);
}

Status WriteSmallFile(io::s3::StorageFileSystems& file_systems, const std::string& path,
                      const std::string& content, bool overwrite) {
  SQE_ASSIGN_OR_RETURN(auto fs, file_systems.ForUri(path));
  SQE_ASSIGN_OR_RETURN(auto out, fs->OpenForWrite(path, overwrite));
  Status written = out->Write(content);
  if (!written.ok()) {
    out->Abort();
    return written;
  }
  return out->Close();
}

}  // namespace sqe::catalog
