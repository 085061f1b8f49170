#pragma once
/// Schema resolution (specification, "Schema Resolution", with Iceberg's rules): turns a
/// datum decoded with the writer's schema into one of the reader's schema.
///
/// Record fields match BY FIELD ID when the reader field has a "field-id" and the writer
/// record carries field ids, otherwise by name (then by the reader field's aliases).
/// Reader fields the writer lacks take their default, or null when optional (a union
/// with null); a required field without a default is Corruption at Make. Writer fields
/// the reader lacks are dropped. Promotions: int -> long/float/double, long ->
/// float/double, float -> double, string <-> bytes. Enums map by symbol (an unknown one
/// takes the reader's enum default). A writer union branch with no reader counterpart is
/// Corruption only when a datum actually uses it.
///
/// A resolver is built once per (writer, reader) pair and is immutable and thread-safe.

#include <memory>
#include <vector>

#include "common/result.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace sqe::avro {

class SchemaResolver {
 public:
  /// InvalidArgument when a matched field's types cannot be promoted; Corruption when a
  /// required reader field is missing from the writer schema.
  static Result<std::unique_ptr<SchemaResolver>> Make(SchemaPtr writer, SchemaPtr reader);
  ~SchemaResolver();

  /// Rewrites `value` (a writer datum) in place into a reader datum.
  Status Resolve(Value* value) const;
  /// True when resolution changes nothing (same shape, same field order).
  bool identity() const;
  const SchemaPtr& reader() const { return reader_; }

  struct Plan;

 private:
  SchemaResolver() = default;
  SchemaPtr writer_;
  SchemaPtr reader_;
  std::vector<std::unique_ptr<Plan>> plans_;
  const Plan* root_ = nullptr;
};

}  // namespace sqe::avro
