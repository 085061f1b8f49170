#pragma once
/// An Iceberg partition spec (spec "Partitioning", Appendix C "Partition Specs"): how
/// partition values are derived from source columns. Field ids are unique across the
/// table's specs (v2+); v1 specs without field ids get 1000, 1001, ... as Java assigned.
/// Value type, thread-safe to read.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "iceberg/schema.h"
#include "iceberg/transforms.h"

namespace sqe::iceberg {

/// One partition field. `source_ids` is set (and `source_id` is its first entry) only for
/// a v3 multi-argument transform written with "source-ids".
struct PartitionField {
  int32_t source_id = 0;
  std::vector<int32_t> source_ids;
  int32_t field_id = 0;
  std::string name;
  Transform transform = Transform::Identity();
  std::string extra_json;

  bool operator==(const PartitionField&) const = default;
};

class PartitionSpec {
 public:
  /// v1 partition field ids start here.
  static constexpr int32_t kFirstFieldId = 1000;

  PartitionSpec() = default;
  PartitionSpec(int32_t spec_id, std::vector<PartitionField> fields, std::string extra_json = "")
      : spec_id_(spec_id), fields_(std::move(fields)), extra_json_(std::move(extra_json)) {}

  int32_t spec_id() const { return spec_id_; }
  const std::vector<PartitionField>& fields() const { return fields_; }
  const std::string& extra_json() const { return extra_json_; }
  bool is_unpartitioned() const;
  /// The highest partition field id, or kFirstFieldId - 1 for an empty spec.
  int32_t LastFieldId() const;

  /// The struct of partition values (field ids = partition field ids, all optional)
  /// against `schema`. Unknown transforms and missing source columns are errors.
  Result<TypePtr> PartitionType(const Schema& schema) const;

  bool operator==(const PartitionSpec&) const = default;

 private:
  int32_t spec_id_ = 0;
  std::vector<PartitionField> fields_;
  std::string extra_json_;
};

/// A spec from its JSON object form. Errors are Corruption.
Result<PartitionSpec> ParsePartitionSpecJson(std::string_view json_text);
std::string WritePartitionSpecJson(const PartitionSpec& spec);

}  // namespace sqe::iceberg
