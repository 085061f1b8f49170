#pragma once
/// The result schema as Flight SQL clients receive it: a ROW's anonymous fields (ROW(1,
/// 'a'), empty names inside SQE) are named field0, field1, ... by position, as Trino's JDBC
/// driver names them in a row's map, so Arrow readers (pyarrow's to_pylist, the Flight SQL
/// JDBC driver) get distinct keys. Only names change: the record batches are the same.

#include "columnar/schema.h"

namespace sqe::server::flight_sql {

/// `schema` with every anonymous struct field (at any depth) named field<position>.
columnar::SchemaPtr ClientSchema(const columnar::Schema& schema);

}  // namespace sqe::server::flight_sql
