#pragma once
/// Field metadata keys with a meaning in Arrow IPC that the codec maps onto our model.

#include <string_view>

namespace sqe::columnar::ipc {

inline constexpr std::string_view kExtensionNameKey = "ARROW:extension:name";
inline constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";
inline constexpr std::string_view kUuidExtensionName = "arrow.uuid";
/// Where pyarrow (and Iceberg's Arrow readers) keep the Iceberg / Parquet field id.
inline constexpr std::string_view kFieldIdKey = "PARQUET:field_id";

}  // namespace sqe::columnar::ipc
