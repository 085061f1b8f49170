#pragma once
/// Constants of the Avro object container file layout, shared by reader and writer.

#include <cstddef>
#include <string_view>

namespace sqe::avro {

inline constexpr std::string_view kContainerMagic{"Obj\x01", 4};
inline constexpr size_t kSyncSize = 16;
inline constexpr std::string_view kSchemaKey = "avro.schema";
inline constexpr std::string_view kCodecKey = "avro.codec";
/// Keys starting with this prefix are reserved for Avro itself.
inline constexpr std::string_view kReservedPrefix = "avro.";

}  // namespace sqe::avro
