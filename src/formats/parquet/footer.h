#pragma once
/// The Parquet file tail: `<FileMetaData (compact thrift)> <u32 LE length> "PAR1"`, with
/// "PAR1" also at offset 0. These functions check the magic and the footer length against
/// the file size before anything is decoded; a truncated or lying file is Corruption
/// naming the file offset. Encrypted footers ("PARE") are NotImplemented.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "formats/parquet/metadata.h"

namespace sqe::parquet {

inline constexpr std::string_view kParquetMagic = "PAR1";
/// Bytes at the end of every file after the metadata: length (4) + magic (4).
inline constexpr size_t kFooterTailSize = 8;

/// Validates the last 8 bytes of a `file_size`-byte file and returns the metadata length;
/// the metadata then starts at file_size - 8 - length.
Result<uint32_t> ParseFooterTail(std::string_view last8, uint64_t file_size);

/// Decodes FileMetaData from exactly `bytes`, located at `file_offset` in the file.
Result<FileMetaData> ParseFileMetaData(std::string_view bytes, uint64_t file_offset);

/// Parses the footer of a whole file held in memory (also checks the leading magic).
Result<FileMetaData> ParseFooter(std::string_view file);

/// The bytes to append after the last column chunk: metadata, length, "PAR1".
std::string SerializeFooter(const FileMetaData& metadata);

}  // namespace sqe::parquet
