#pragma once
/// The columnar (Arrow-layout) form of an Iceberg schema, with each field's Iceberg id in
/// Field::field_id, so Parquet files are written with field ids and read back by id.
/// Type mapping: boolean, int -> int32, long -> int64, float, double, decimal(P,S) ->
/// decimal128, date -> date32, time -> time64(us), timestamp -> timestamp(us),
/// timestamptz -> timestamp(us, UTC), timestamp_ns / timestamptz_ns -> the ns forms,
/// string, uuid, fixed[L] -> fixed_size_binary(L), binary, struct / list / map.
/// `required` becomes non-nullable. variant, geometry, geography and unknown have no
/// columnar form yet: NotImplemented naming the column.

#include "columnar/schema.h"
#include "common/result.h"
#include "iceberg/schema.h"

namespace sqe::iceberg {

Result<columnar::SchemaPtr> ToColumnarSchema(const Schema& schema);
Result<columnar::TypePtr> ToColumnarType(const Type& type, const std::string& column);

}  // namespace sqe::iceberg
