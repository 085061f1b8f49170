#include "columnar/schema.h"

namespace sqe::columnar {

Schema::Schema(std::vector<Field> fields, KeyValueMetadata metadata)
    : fields_(std::move(fields)), metadata_(std::move(metadata)) {}

int Schema::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name() == name) return static_cast<int>(i);
  }
  return -1;
}

Result<int> Schema::FindField(std::string_view name) const {
  int index = FieldIndex(name);
  if (index >= 0) return index;
  std::string msg = "column '" + std::string(name) + "' not found (columns: ";
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) msg += ", ";
    msg += fields_[i].name();
  }
  msg += ")";
  return Status::NotFound(std::move(msg));
}

Result<SchemaPtr> Schema::Project(const std::vector<int>& indices) const {
  std::vector<Field> fields;
  fields.reserve(indices.size());
  for (int index : indices) {
    if (index < 0 || index >= num_fields()) {
      return Status::InvalidArgument("column index " + std::to_string(index) +
                                     " out of range for a schema of " +
                                     std::to_string(num_fields()) + " columns");
    }
    fields.push_back(fields_[index]);
  }
  return Make(std::move(fields), metadata_);
}

std::string Schema::ToString() const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields_[i].ToString();
  }
  return out;
}

bool Schema::Equals(const Schema& other, bool check_metadata) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i].Equals(other.fields_[i], check_metadata)) return false;
  }
  return !check_metadata || metadata_ == other.metadata_;
}

}  // namespace sqe::columnar
