#include "exec/functions/nested_key_encoding.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"
#include "exec/functions/order_preserving_key.h"

namespace sqe::exec {

using columnar::Column;
using columnar::ColumnBuilder;
using columnar::TypeId;

namespace {

template <typename T>
void PutRaw(T v, std::string* out) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  out->append(bytes, sizeof(T));
}

template <typename T>
T GetRaw(const char** p) {
  T v;
  std::memcpy(&v, *p, sizeof(T));
  *p += sizeof(T);
  return v;
}

template <typename T>
T NormalizeFloat(T v) {
  if (v == 0) return 0;
  if (std::isnan(v)) return std::numeric_limits<T>::quiet_NaN();
  return v;
}

void AppendValue(const Column& c, int64_t i, std::string* out) {
  switch (c.type_id()) {
    case TypeId::kBoolean:
      out->push_back(c.BoolAt(i) ? 1 : 0);
      return;
    case TypeId::kInt8:
      PutRaw(c.Values<int8_t>()[i], out);
      return;
    case TypeId::kInt16:
      PutRaw(c.Values<int16_t>()[i], out);
      return;
    case TypeId::kInt32:
    case TypeId::kDate32:
      PutRaw(c.Values<int32_t>()[i], out);
      return;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      PutRaw(c.Values<int64_t>()[i], out);
      return;
    case TypeId::kFloat32:
      PutRaw(NormalizeFloat(c.Values<float>()[i]), out);
      return;
    case TypeId::kFloat64:
      PutRaw(NormalizeFloat(c.Values<double>()[i]), out);
      return;
    case TypeId::kDecimal128:
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      out->append(c.FixedSizeBinaryAt(i));
      return;
    case TypeId::kString:
    case TypeId::kBinary: {
      const std::string_view v = c.StringAt(i);
      PutRaw(static_cast<uint32_t>(v.size()), out);
      out->append(v);
      return;
    }
    case TypeId::kList: {
      const Column& values = c.ListValues();
      const int64_t start = c.ListStart(i);
      const int64_t n = c.ListLength(i);
      PutRaw(static_cast<uint32_t>(n), out);
      for (int64_t k = 0; k < n; ++k) AppendGroupingKey(values, start + k, out);
      return;
    }
    case TypeId::kStruct:
      for (int f = 0; f < c.num_children(); ++f) AppendGroupingKey(c.StructField(f), i, out);
      return;
    case TypeId::kMap: {
      const Column keys = c.MapKeys();
      const Column items = c.MapItems();
      const int64_t start = c.ListStart(i);
      const int64_t n = c.ListLength(i);
      // Entries in key-image order, so equal maps have equal images whatever their order.
      std::vector<std::pair<std::string, std::string>> entries(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) {
        AppendGroupingKey(keys, start + k, &entries[k].first);
        AppendGroupingKey(items, start + k, &entries[k].second);
      }
      std::sort(entries.begin(), entries.end());
      PutRaw(static_cast<uint32_t>(n), out);
      for (const auto& [key, item] : entries) {
        out->append(key);
        out->append(item);
      }
      return;
    }
    default:
      // Every other type has a fixed-width or var-binary layout.
      if (c.type()->layout() == columnar::Layout::kVarBinary) {
        const std::string_view v = c.StringAt(i);
        PutRaw(static_cast<uint32_t>(v.size()), out);
        out->append(v);
      } else {
        out->append(c.FixedSizeBinaryAt(i));
      }
      return;
  }
}

template <typename T>
Status ReadFixed(const char** p, ColumnBuilder* builder) {
  return static_cast<columnar::FixedWidthBuilder<T>*>(builder)->Append(GetRaw<T>(p));
}

Status ReadValue(const char** p, ColumnBuilder* builder) {
  const columnar::TypePtr& type = builder->type();
  switch (type->id()) {
    case TypeId::kBoolean: {
      const bool v = **p != 0;
      *p += 1;
      return static_cast<columnar::BooleanBuilder*>(builder)->Append(v);
    }
    case TypeId::kInt8:
      return ReadFixed<int8_t>(p, builder);
    case TypeId::kInt16:
      return ReadFixed<int16_t>(p, builder);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return ReadFixed<int32_t>(p, builder);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return ReadFixed<int64_t>(p, builder);
    case TypeId::kFloat32:
      return ReadFixed<float>(p, builder);
    case TypeId::kFloat64:
      return ReadFixed<double>(p, builder);
    case TypeId::kDecimal128:
      return ReadFixed<columnar::Decimal128>(p, builder);
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid: {
      const std::string_view v(*p, static_cast<size_t>(type->byte_width()));
      *p += v.size();
      return static_cast<columnar::FixedSizeBinaryBuilder*>(builder)->Append(v);
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const uint32_t n = GetRaw<uint32_t>(p);
      const std::string_view v(*p, n);
      *p += n;
      return static_cast<columnar::BinaryBuilder*>(builder)->Append(v);
    }
    case TypeId::kList: {
      auto* list = static_cast<columnar::ListBuilder*>(builder);
      SQE_RETURN_NOT_OK(list->Append());
      const uint32_t n = GetRaw<uint32_t>(p);
      for (uint32_t k = 0; k < n; ++k) SQE_RETURN_NOT_OK(ReadGroupingKey(p, list->value_builder()));
      return Status::OK();
    }
    case TypeId::kStruct: {
      auto* row = static_cast<columnar::StructBuilder*>(builder);
      SQE_RETURN_NOT_OK(row->Append());
      for (int f = 0; f < static_cast<int>(type->num_fields()); ++f) {
        SQE_RETURN_NOT_OK(ReadGroupingKey(p, row->field_builder(f)));
      }
      return Status::OK();
    }
    case TypeId::kMap: {
      auto* map = static_cast<columnar::MapBuilder*>(builder);
      SQE_RETURN_NOT_OK(map->Append());
      const uint32_t n = GetRaw<uint32_t>(p);
      for (uint32_t k = 0; k < n; ++k) {
        SQE_RETURN_NOT_OK(ReadGroupingKey(p, map->key_builder()));
        SQE_RETURN_NOT_OK(ReadGroupingKey(p, map->item_builder()));
      }
      return Status::OK();
    }
    default:
      return Status::NotImplemented("cannot decode a grouping key of type " + type->ToString());
  }
}

}  // namespace

void AppendGroupingKey(const Column& column, int64_t i, std::string* out) {
  if (column.IsNull(i)) {
    out->push_back(0);
    return;
  }
  out->push_back(1);
  AppendValue(column, i, out);
}

Status ReadGroupingKey(const char** p, ColumnBuilder* builder) {
  const char flag = **p;
  *p += 1;
  if (flag == 0) return builder->AppendNull();
  return ReadValue(p, builder);
}

bool ContainsNull(const Column& column, int64_t i) {
  if (column.IsNull(i)) return true;
  switch (column.type_id()) {
    case TypeId::kList:
    case TypeId::kMap: {
      // A map's keys are never NULL; its entries' values may be.
      const Column& values =
          column.type_id() == TypeId::kList ? column.ListValues() : column.child(0);
      const int64_t start = column.ListStart(i);
      const int64_t n = column.ListLength(i);
      for (int64_t k = 0; k < n; ++k) {
        if (ContainsNull(values, start + k)) return true;
      }
      return false;
    }
    case TypeId::kStruct:
      for (int f = 0; f < column.num_children(); ++f) {
        if (ContainsNull(column.StructField(f), i)) return true;
      }
      return false;
    default:
      return false;
  }
}

namespace order_key {

void AppendSortValue(const Column& c, int64_t i, std::string* out) {
  auto element = [out](const Column& child, int64_t k) {
    if (child.IsNull(k)) {
      out->push_back(0x02);
      return;
    }
    out->push_back(static_cast<char>(kValid));
    AppendSortValue(child, k, out);
  };
  switch (c.type_id()) {
    case TypeId::kList: {
      const Column& values = c.ListValues();
      const int64_t start = c.ListStart(i);
      const int64_t n = c.ListLength(i);
      for (int64_t k = 0; k < n; ++k) element(values, start + k);
      out->push_back(0x00);
      return;
    }
    case TypeId::kStruct:
      for (int f = 0; f < c.num_children(); ++f) element(c.StructField(f), i);
      return;
    default: {
      const size_t at = out->size();
      out->resize(at + ValueSize(c, i));
      PutValue(c, i, reinterpret_cast<uint8_t*>(out->data() + at));
      return;
    }
  }
}

}  // namespace order_key

}  // namespace sqe::exec
