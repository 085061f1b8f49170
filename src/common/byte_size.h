#pragma once
/// Byte sizes as the configuration writes them: "256MB", "8GB", "512 KB", "0", "1024".
/// Units B/KB/MB/GB/TB are 1024-based (KiB/MiB/... spellings are accepted too), any case.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace sqe {

/// Parses a size; InvalidArgument names the text and the accepted form on failure.
Result<uint64_t> ParseByteSize(std::string_view text);

/// The largest unit that divides `bytes` exactly: 268435456 -> "256MB", 2048 -> "2KB",
/// 1536 -> "1536B", 0 -> "0". The result parses back to `bytes`.
std::string FormatByteSize(uint64_t bytes);

}  // namespace sqe
