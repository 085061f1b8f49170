#pragma once
/// Schema: the ordered fields of a Batch plus schema-level metadata (Arrow Schema).
/// Immutable once built and shared as SchemaPtr; every method is thread-safe.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/data_type.h"
#include "columnar/key_value_metadata.h"
#include "common/result.h"

namespace sqe::columnar {

class Schema;
using SchemaPtr = std::shared_ptr<const Schema>;

class Schema {
 public:
  explicit Schema(std::vector<Field> fields, KeyValueMetadata metadata = {});

  static SchemaPtr Make(std::vector<Field> fields, KeyValueMetadata metadata = {}) {
    return std::make_shared<const Schema>(std::move(fields), std::move(metadata));
  }

  int num_fields() const { return static_cast<int>(fields_.size()); }
  const Field& field(int i) const { return fields_[i]; }
  const std::vector<Field>& fields() const { return fields_; }
  const KeyValueMetadata& metadata() const { return metadata_; }

  /// Index of the first field named `name` (exact match), or -1.
  int FieldIndex(std::string_view name) const;
  /// Like FieldIndex, but NotFound names the field and the ones that exist.
  Result<int> FindField(std::string_view name) const;

  /// The fields at `indices`, in that order (repeats allowed); metadata is kept.
  Result<SchemaPtr> Project(const std::vector<int>& indices) const;

  /// "a bigint not null, b varchar".
  std::string ToString() const;
  /// Fields equal (Field::Equals) and, when `check_metadata`, metadata equal too.
  bool Equals(const Schema& other, bool check_metadata = true) const;
  bool operator==(const Schema& other) const { return Equals(other); }

 private:
  std::vector<Field> fields_;
  KeyValueMetadata metadata_;
};

}  // namespace sqe::columnar
