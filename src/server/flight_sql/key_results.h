#pragma once
/// The results of the Flight SQL key commands (GetPrimaryKeys, GetExportedKeys,
/// GetImportedKeys, GetCrossReference). Iceberg tables declare no primary or foreign
/// keys, so every result is empty: a stream of the schema the Flight SQL definition gives
/// (with its uint8 update_rule / delete_rule) and no batch. Pure functions, thread-safe.

#include <string>

#include "columnar/ipc/stream_writer.h"

namespace sqe::server::flight_sql {

/// The Schema message of GetPrimaryKeys' result.
columnar::ipc::EncodedMessage PrimaryKeysSchemaMessage();
/// The Schema message of GetExportedKeys', GetImportedKeys' and GetCrossReference's result.
columnar::ipc::EncodedMessage ForeignKeysSchemaMessage();

}  // namespace sqe::server::flight_sql
