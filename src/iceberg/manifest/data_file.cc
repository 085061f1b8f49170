#include "iceberg/manifest/data_file.h"

#include <cctype>

namespace sqe::iceberg {

std::string_view FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kParquet:
      return "PARQUET";
    case FileFormat::kAvro:
      return "AVRO";
    case FileFormat::kOrc:
      return "ORC";
    case FileFormat::kPuffin:
      return "PUFFIN";
  }
  return "PARQUET";
}

Result<FileFormat> ParseFileFormat(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "PARQUET") return FileFormat::kParquet;
  if (upper == "AVRO") return FileFormat::kAvro;
  if (upper == "ORC") return FileFormat::kOrc;
  if (upper == "PUFFIN") return FileFormat::kPuffin;
  return Status::InvalidArgument("unknown data file format '" + std::string(name) +
                                 "' (expected parquet, avro, orc or puffin)");
}

}  // namespace sqe::iceberg
