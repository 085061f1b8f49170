#include "columnar/column_builder.h"

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"

namespace sqe::columnar {

Status ColumnBuilder::AppendNulls(int64_t n) {
  SQE_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) SQE_RETURN_NOT_OK(AppendNull());
  return Status::OK();
}

Result<std::unique_ptr<ColumnBuilder>> MakeBuilder(TypePtr type,
                                                   std::shared_ptr<MemoryTracker> tracker) {
  if (type == nullptr) return Status::InvalidArgument("cannot build a column without a type");
  std::unique_ptr<ColumnBuilder> builder;
  switch (type->id()) {
    case TypeId::kBoolean:
      builder = std::make_unique<BooleanBuilder>(tracker);
      break;
    case TypeId::kInt8:
      builder = std::make_unique<Int8Builder>(type, tracker);
      break;
    case TypeId::kInt16:
      builder = std::make_unique<Int16Builder>(type, tracker);
      break;
    case TypeId::kInt32:
    case TypeId::kDate32:
      builder = std::make_unique<Int32Builder>(type, tracker);
      break;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      builder = std::make_unique<Int64Builder>(type, tracker);
      break;
    case TypeId::kFloat32:
      builder = std::make_unique<Float32Builder>(type, tracker);
      break;
    case TypeId::kFloat64:
      builder = std::make_unique<Float64Builder>(type, tracker);
      break;
    case TypeId::kDecimal128:
      builder = std::make_unique<Decimal128Builder>(type, tracker);
      break;
    case TypeId::kString:
    case TypeId::kBinary:
      builder = std::make_unique<BinaryBuilder>(type, tracker);
      break;
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      builder = std::make_unique<FixedSizeBinaryBuilder>(type, tracker);
      break;
    case TypeId::kList: {
      SQE_ASSIGN_OR_RETURN(auto values, MakeBuilder(type->value_field().type(), tracker));
      builder = std::make_unique<ListBuilder>(type, std::move(values), tracker);
      break;
    }
    case TypeId::kStruct: {
      std::vector<std::unique_ptr<ColumnBuilder>> fields;
      for (const Field& field : type->fields()) {
        SQE_ASSIGN_OR_RETURN(auto child, MakeBuilder(field.type(), tracker));
        fields.push_back(std::move(child));
      }
      builder = std::make_unique<StructBuilder>(type, std::move(fields), tracker);
      break;
    }
    case TypeId::kMap: {
      SQE_ASSIGN_OR_RETURN(auto keys, MakeBuilder(type->key_field().type(), tracker));
      SQE_ASSIGN_OR_RETURN(auto items, MakeBuilder(type->item_field().type(), tracker));
      builder = std::make_unique<MapBuilder>(type, std::move(keys), std::move(items), tracker);
      break;
    }
  }
  if (builder == nullptr) {
    return Status::InvalidArgument("no column builder for type " + type->ToString());
  }
  return builder;
}

}  // namespace sqe::columnar
