#include "formats/parquet/footer.h"

#include <cstring>

namespace sqe::parquet {

Result<uint32_t> ParseFooterTail(std::string_view last8, uint64_t file_size) {
  // Smallest valid file: "PAR1" + metadata (>= 1 byte) + length + "PAR1".
  if (file_size < 12 || last8.size() != kFooterTailSize) {
    return Status::Corruption("parquet: file of " + std::to_string(file_size) +
                              " bytes is too small to be a Parquet file");
  }
  std::string_view magic = last8.substr(4);
  if (magic == "PARE") {
    return Status::NotImplemented("parquet: encrypted footers (PARE) are not supported");
  }
  if (magic != kParquetMagic) {
    return Status::Corruption("parquet: missing PAR1 magic at file offset " +
                              std::to_string(file_size - 4));
  }
  uint32_t len;
  std::memcpy(&len, last8.data(), 4);  // little-endian
  if (len == 0 || uint64_t{len} > file_size - 12) {
    return Status::Corruption("parquet: footer length " + std::to_string(len) + " at file offset " +
                              std::to_string(file_size - 8) + " does not fit a file of " +
                              std::to_string(file_size) + " bytes");
  }
  return len;
}

Result<FileMetaData> ParseFileMetaData(std::string_view bytes, uint64_t file_offset) {
  size_t consumed = 0;
  SQE_ASSIGN_OR_RETURN(FileMetaData md, DecodeThrift<FileMetaData>(bytes, file_offset, &consumed));
  (void)consumed;  // writers may pad; trailing bytes inside the footer are tolerated
  return md;
}

Result<FileMetaData> ParseFooter(std::string_view file) {
  if (file.size() < 12) {
    return Status::Corruption("parquet: file of " + std::to_string(file.size()) +
                              " bytes is too small to be a Parquet file");
  }
  if (file.substr(0, 4) != kParquetMagic) {
    return Status::Corruption("parquet: missing PAR1 magic at file offset 0");
  }
  SQE_ASSIGN_OR_RETURN(uint32_t len,
                       ParseFooterTail(file.substr(file.size() - kFooterTailSize), file.size()));
  uint64_t start = file.size() - kFooterTailSize - len;
  return ParseFileMetaData(file.substr(start, len), start);
}

std::string SerializeFooter(const FileMetaData& metadata) {
  std::string out = EncodeThrift(metadata);
  auto len = static_cast<uint32_t>(out.size());
  char le[4];
  std::memcpy(le, &len, 4);
  out.append(le, 4);
  out.append(kParquetMagic);
  return out;
}

}  // namespace sqe::parquet
