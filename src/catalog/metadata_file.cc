#include "catalog/metadata_file.h"

namespace sqe::catalog {

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
