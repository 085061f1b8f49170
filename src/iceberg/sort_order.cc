#include "iceberg/sort_order.h"

#include "iceberg/json_internal.h"

namespace sqe::iceberg {

namespace internal {

namespace {

Result<SortField> SortFieldFromJson(const Json& value, const std::string& context) {
  SQE_ASSIGN_OR_RETURN(ObjectReader reader, ObjectReader::Make(value, context + " field"));
  SortField field;
  SQE_ASSIGN_OR_RETURN(std::string transform, reader.String("transform"));
  Result<Transform> parsed = Transform::Parse(transform);
  if (!parsed.ok()) return Status::Corruption(context + ": " + parsed.status().message());
  field.transform = *parsed;
  SQE_ASSIGN_OR_RETURN(std::optional<int32_t> source_id, reader.OptInt("source-id"));
  SQE_ASSIGN_OR_RETURN(field.source_ids, reader.IntList("source-ids"));
  // One source: only source_id is kept (a one-entry "source-ids" is the same thing);
  // several: source_id mirrors source_ids.front().
  if (field.source_ids.size() > 1) {
    field.source_id = field.source_ids.front();
  } else if (source_id) {
    field.source_id = *source_id;
    field.source_ids.clear();
  } else if (field.source_ids.size() == 1) {
    field.source_id = field.source_ids.front();
    field.source_ids.clear();
  } else {
    return reader.Error("source-id", "is required but missing (nor is there 'source-ids')");
  }
  SQE_ASSIGN_OR_RETURN(std::string direction, reader.String("direction"));
  if (direction == "asc") {
    field.direction = SortDirection::kAsc;
  } else if (direction == "desc") {
    field.direction = SortDirection::kDesc;
  } else {
    return reader.Error("direction", "must be \"asc\" or \"desc\", got \"" + direction + "\"");
  }
  SQE_ASSIGN_OR_RETURN(std::string null_order, reader.String("null-order"));
  if (null_order == "nulls-first") {
    field.null_order = NullOrder::kNullsFirst;
  } else if (null_order == "nulls-last") {
    field.null_order = NullOrder::kNullsLast;
  } else {
    return reader.Error("null-order",
                        "must be \"nulls-first\" or \"nulls-last\", got \"" + null_order + "\"");
  }
  field.extra_json = reader.Extras();
  return field;
}

}  // namespace

Result<SortOrder> SortOrderFromJson(const Json& value, const std::string& context) {
  SQE_ASSIGN_OR_RETURN(ObjectReader reader, ObjectReader::Make(value, context));
  SQE_ASSIGN_OR_RETURN(int32_t order_id, reader.Int("order-id"));
  std::string where = "sort order " + std::to_string(order_id);
  SQE_ASSIGN_OR_RETURN(const Json* list, reader.Array("fields"));
  if (list == nullptr) return reader.Error("fields", "is required but missing");
  std::vector<SortField> fields;
  for (const Json& item : *list) {
    SQE_ASSIGN_OR_RETURN(SortField f, SortFieldFromJson(item, where));
    fields.push_back(std::move(f));
  }
  if (order_id == SortOrder::kUnsortedOrderId && !fields.empty()) {
    return Status::Corruption(where + ": order id 0 is reserved for the unsorted order");
  }
  return SortOrder(order_id, std::move(fields), reader.Extras());
}

Json SortOrderToJson(const SortOrder& order) {
  Json out = Json::object();
  out["order-id"] = order.order_id();
  Json fields = Json::array();
  for (const SortField& f : order.fields()) {
    Json field = Json::object();
    field["transform"] = f.transform.ToString();
    if (f.source_ids.size() > 1) {
      field["source-ids"] = f.source_ids;
    } else {
      field["source-id"] = f.source_id;
    }
    field["direction"] = f.direction == SortDirection::kAsc ? "asc" : "desc";
    field["null-order"] = f.null_order == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last";
    MergeExtras(f.extra_json, &field);
    fields.push_back(std::move(field));
  }
  out["fields"] = std::move(fields);
  MergeExtras(order.extra_json(), &out);
  return out;
}

}  // namespace internal

Result<SortOrder> ParseSortOrderJson(std::string_view json_text) {
  internal::Json value;
  SQE_RETURN_NOT_OK(internal::ParseJsonText(json_text, "Iceberg sort order", &value));
  try {
    return internal::SortOrderFromJson(value, "sort order");
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("Iceberg sort order: ") + e.what());
  }
}

std::string WriteSortOrderJson(const SortOrder& order) {
  try {
    return internal::DumpJson(internal::SortOrderToJson(order), -1);
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace sqe::iceberg
