#include "iceberg/new_table.h"

#include <cstdio>

#include "common/uuid.h"

namespace sqe::iceberg {

Result<TableMetadata> NewTableMetadata(const NewTableOptions& options, int64_t now_ms) {
  if (options.format_version < TableMetadata::kMinFormatVersion ||
      options.format_version > TableMetadata::kMaxFormatVersion) {
    return Status::InvalidArgument("format version " + std::to_string(options.format_version) +
                                   " is not supported: use 1, 2 or 3");
  }
  if (options.location.empty()) return Status::InvalidArgument("a new table needs a location");
  std::string location = options.location;
  while (location.size() > 1 && location.back() == '/') location.pop_back();

  TableMetadata m;
  m.format_version = options.format_version;
  m.table_uuid = RandomUuid();
  m.location = location;
  m.last_updated_ms = now_ms;
  m.schemas = {Schema(0, options.schema.fields(), options.schema.identifier_field_ids(),
                      options.schema.extra_json())};
  m.current_schema_id = 0;
  m.last_column_id = options.schema.HighestFieldId();

  PartitionSpec spec(0, options.spec.fields(), options.spec.extra_json());
  auto partition_type = spec.PartitionType(m.schemas[0]);
  if (!partition_type.ok()) {
    return Status::InvalidArgument("partition spec: " + partition_type.status().message());
  }
  m.partition_specs = {spec};
  m.default_spec_id = 0;
  m.last_partition_id = spec.LastFieldId();

  for (const SortField& f : options.sort_order.fields()) {
    if (m.schemas[0].FindFieldById(f.source_id) == nullptr) {
      return Status::InvalidArgument("sort order: no column with field id " +
                                     std::to_string(f.source_id));
    }
  }
  if (options.sort_order.is_unsorted()) {
    m.sort_orders = {SortOrder::Unsorted()};
    m.default_sort_order_id = SortOrder::kUnsortedOrderId;
  } else {
    m.sort_orders = {SortOrder(1, options.sort_order.fields(), options.sort_order.extra_json())};
    m.default_sort_order_id = 1;
  }
  m.properties = options.properties;
  if (m.format_version >= 3) m.next_row_id = 0;
  SQE_RETURN_NOT_OK(m.Validate());
  return m;
}

std::string MetadataFileName(int version, const std::string& uuid) {
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%05d", version);
  return std::string(prefix) + "-" + uuid + ".metadata.json";
}

int MetadataFileVersion(const std::string& location) {
  size_t slash = location.rfind('/');
  std::string name = slash == std::string::npos ? location : location.substr(slash + 1);
  if (!name.empty() && name[0] == 'v') name = name.substr(1);
  int version = 0;
  size_t i = 0;
  while (i < name.size() && i < 9 && name[i] >= '0' && name[i] <= '9') {
    version = version * 10 + (name[i] - '0');
    ++i;
  }
  if (i == 0 || i >= name.size() || (name[i] != '-' && name[i] != '.')) return 0;
  return version;
}

}  // namespace sqe::iceberg
