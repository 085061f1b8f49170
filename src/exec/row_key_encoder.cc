#include "exec/row_key_encoder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "exec/functions/aggregate_hash.h"
#include "exec/functions/nested_key_encoding.h"

namespace sqe::exec {

using columnar::Column;
using columnar::Layout;
using columnar::TypeId;

namespace {

constexpr uint64_t kNullHash = 0x5bd1e9955bd1e995ULL;

/// The bits of a fixed-width value of `width` bytes with floats normalized, widened to
/// 64 bits (width <= 8).
template <typename T>
uint64_t FixedBits(const Column& c, int64_t i) {
  T v = c.Values<T>()[i];
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<uint64_t>(NormalizeDouble(v));
  } else if constexpr (std::is_same_v<T, float>) {
    float f = v == 0.0f ? 0.0f : (std::isnan(v) ? std::numeric_limits<float>::quiet_NaN() : v);
    return std::bit_cast<uint32_t>(f);
  } else {
    return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
  }
}

template <typename T>
void HashFixed(const Column& c, int64_t rows, uint64_t* hashes) {
  const bool nulls = c.null_count() > 0;
  for (int64_t i = 0; i < rows; ++i) {
    const uint64_t h = (nulls && c.IsNull(i)) ? kNullHash : MixHash64(FixedBits<T>(c, i));
    hashes[i] = CombineHash(hashes[i], h);
  }
}

template <typename T>
void EncodeFixed(const Column& c, int64_t rows, uint8_t* bytes, uint32_t* cursor) {
  for (int64_t i = 0; i < rows; ++i) {
    uint8_t* p = bytes + cursor[i];
    if (c.IsNull(i)) {
      *p = 0;
      cursor[i] += 1;
      continue;
    }
    *p = 1;
    T v = c.Values<T>()[i];
    if constexpr (std::is_floating_point_v<T>) {
      if (v == 0) v = 0;
      if (std::isnan(v)) v = std::numeric_limits<T>::quiet_NaN();
    }
    std::memcpy(p + 1, &v, sizeof(T));
    cursor[i] += 1 + sizeof(T);
  }
}

}  // namespace

void HashKeyColumns(const std::vector<Column>& keys, int64_t rows, uint64_t* hashes) {
  std::fill(hashes, hashes + rows, 0);
  for (const Column& c : keys) {
    switch (c.type_id()) {
      case TypeId::kBoolean: {
        for (int64_t i = 0; i < rows; ++i) {
          const uint64_t h = c.IsNull(i) ? kNullHash : MixHash64(c.BoolAt(i) ? 2 : 1);
          hashes[i] = CombineHash(hashes[i], h);
        }
        break;
      }
      case TypeId::kInt8:
        HashFixed<int8_t>(c, rows, hashes);
        break;
      case TypeId::kInt16:
        HashFixed<int16_t>(c, rows, hashes);
        break;
      case TypeId::kInt32:
      case TypeId::kDate32:
        HashFixed<int32_t>(c, rows, hashes);
        break;
      case TypeId::kInt64:
      case TypeId::kTime64:
      case TypeId::kTimestamp:
        HashFixed<int64_t>(c, rows, hashes);
        break;
      case TypeId::kFloat32:
        HashFixed<float>(c, rows, hashes);
        break;
      case TypeId::kFloat64:
        HashFixed<double>(c, rows, hashes);
        break;
      case TypeId::kDecimal128:
      case TypeId::kFixedSizeBinary:
      case TypeId::kUuid: {
        for (int64_t i = 0; i < rows; ++i) {
          const uint64_t h = c.IsNull(i) ? kNullHash : HashBytes(c.FixedSizeBinaryAt(i));
          hashes[i] = CombineHash(hashes[i], h);
        }
        break;
      }
      case TypeId::kList:
      case TypeId::kStruct:
      case TypeId::kMap: {
        std::string image;
        for (int64_t i = 0; i < rows; ++i) {
          image.clear();
          AppendGroupingKey(c, i, &image);
          hashes[i] = CombineHash(hashes[i], c.IsNull(i) ? kNullHash : HashBytes(image));
        }
        break;
      }
      default: {  // string, binary
        if (rows == 0) break;
        const int32_t* offsets = c.Offsets();
        // The value bytes, addressed by the (absolute) offsets.
        const auto* data = reinterpret_cast<const uint8_t*>(c.StringAt(0).data()) - offsets[0];
        const bool nulls = c.null_count() > 0;
        for (int64_t i = 0; i < rows; ++i) {
          const uint64_t h =
              (nulls && c.IsNull(i))
                  ? kNullHash
                  : HashBytes(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
          hashes[i] = CombineHash(hashes[i], h);
        }
        break;
      }
    }
  }
}

void KeyNullMask(const std::vector<Column>& keys, int64_t rows, std::vector<uint8_t>* any_null) {
  any_null->assign(static_cast<size_t>(rows), 0);
  for (const Column& c : keys) {
    if (c.type()->is_nested()) {
      // A NULL inside makes `=` false or NULL, never true.
      for (int64_t i = 0; i < rows; ++i) (*any_null)[i] |= ContainsNull(c, i) ? 1 : 0;
      continue;
    }
    if (c.null_count() == 0) continue;
    for (int64_t i = 0; i < rows; ++i) (*any_null)[i] |= c.IsNull(i) ? 1 : 0;
  }
}

RowKeyEncoder::RowKeyEncoder(std::vector<columnar::TypePtr> key_types)
    : key_types_(std::move(key_types)) {}

Status RowKeyEncoder::CheckKeyTypes(const std::vector<columnar::TypePtr>& key_types) {
  for (const auto& type : key_types) {
    if (type == nullptr) return Status::InvalidArgument("a grouping or join key has no type");
  }
  return Status::OK();
}

Status RowKeyEncoder::Encode(const std::vector<Column>& keys, int64_t rows,
                             EncodedRows* out) const {
  // Pass 1: each row's size, column at a time.
  std::vector<uint32_t>& offsets = out->offsets;
  offsets.assign(static_cast<size_t>(rows) + 1, 0);
  uint32_t* size = offsets.data() + 1;
  // Nested key columns take the slow path: their images, built row by row up front.
  std::vector<EncodedRows> nested;  // stays empty (no allocation) for scalar keys
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& c = keys[k];
    if (!c.type()->is_nested()) continue;
    nested.resize(keys.size());
    nested[k].AssignImages(rows,
                           [&c](int64_t i, std::string* image) { AppendGroupingKey(c, i, image); });
    for (int64_t i = 0; i < rows; ++i) {
      size[i] += nested[k].offsets[i + 1] - nested[k].offsets[i];
    }
  }
  for (const Column& c : keys) {
    const Layout layout = c.type()->layout();
    if (c.type()->is_nested()) continue;
    if (layout == Layout::kVarBinary) {
      const int32_t* o = c.Offsets();
      for (int64_t i = 0; i < rows; ++i) {
        size[i] += c.IsNull(i) ? 1 : 5 + static_cast<uint32_t>(o[i + 1] - o[i]);
      }
    } else {
      const uint32_t width = layout == Layout::kBitmap ? 1 : c.type()->byte_width();
      if (c.null_count() == 0) {
        for (int64_t i = 0; i < rows; ++i) size[i] += 1 + width;
      } else {
        for (int64_t i = 0; i < rows; ++i) size[i] += c.IsNull(i) ? 1 : 1 + width;
      }
    }
  }
  for (int64_t i = 0; i < rows; ++i) offsets[i + 1] += offsets[i];
  out->bytes.resize(offsets[rows]);
  // Pass 2: write each column at every row's cursor.
  std::vector<uint32_t> cursor(offsets.begin(), offsets.end() - 1);
  uint8_t* bytes = out->bytes.data();
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& c = keys[k];
    if (c.type()->is_nested()) {
      for (int64_t i = 0; i < rows; ++i) {
        const std::string_view image = nested[k].row(i);
        std::memcpy(bytes + cursor[i], image.data(), image.size());
        cursor[i] += static_cast<uint32_t>(image.size());
      }
      continue;
    }
    switch (c.type_id()) {
      case TypeId::kBoolean:
        for (int64_t i = 0; i < rows; ++i) {
          uint8_t* p = bytes + cursor[i];
          if (c.IsNull(i)) {
            *p = 0;
            cursor[i] += 1;
          } else {
            p[0] = 1;
            p[1] = c.BoolAt(i) ? 1 : 0;
            cursor[i] += 2;
          }
        }
        break;
      case TypeId::kFloat32:
        EncodeFixed<float>(c, rows, bytes, cursor.data());
        break;
      case TypeId::kFloat64:
        EncodeFixed<double>(c, rows, bytes, cursor.data());
        break;
      default:
        if (c.type()->layout() == Layout::kFixedWidth) {
          const uint32_t width = c.type()->byte_width();
          for (int64_t i = 0; i < rows; ++i) {
            uint8_t* p = bytes + cursor[i];
            if (c.IsNull(i)) {
              *p = 0;
              cursor[i] += 1;
            } else {
              *p = 1;
              std::memcpy(p + 1, c.FixedSizeBinaryAt(i).data(), width);
              cursor[i] += 1 + width;
            }
          }
        } else {
          for (int64_t i = 0; i < rows; ++i) {
            uint8_t* p = bytes + cursor[i];
            if (c.IsNull(i)) {
              *p = 0;
              cursor[i] += 1;
            } else {
              std::string_view v = c.StringAt(i);
              const uint32_t length = static_cast<uint32_t>(v.size());
              *p = 1;
              std::memcpy(p + 1, &length, 4);
              std::memcpy(p + 5, v.data(), v.size());
              cursor[i] += 5 + length;
            }
          }
        }
        break;
    }
  }
  return Status::OK();
}

Result<std::vector<Column>> RowKeyEncoder::Decode(
    const std::vector<std::string_view>& rows,
    const std::shared_ptr<MemoryTracker>& tracker) const {
  const int64_t n = static_cast<int64_t>(rows.size());
  std::vector<size_t> cursor(rows.size(), 0);
  std::vector<Column> columns;
  for (const auto& type : key_types_) {
    const Layout layout = type->layout();
    if (type->is_nested()) {
      SQE_ASSIGN_OR_RETURN(std::unique_ptr<columnar::ColumnBuilder> builder,
                           columnar::MakeBuilder(type, tracker));
      SQE_RETURN_NOT_OK(builder->Reserve(n));
      for (int64_t i = 0; i < n; ++i) {
        const char* start = rows[i].data() + cursor[i];
        const char* p = start;
        SQE_RETURN_NOT_OK(ReadGroupingKey(&p, builder.get()));
        cursor[i] += static_cast<size_t>(p - start);
      }
      SQE_ASSIGN_OR_RETURN(Column c, builder->Finish());
      columns.push_back(std::move(c));
    } else if (layout == Layout::kBitmap) {
      columnar::BooleanBuilder builder(tracker);
      SQE_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t i = 0; i < n; ++i) {
        const char* p = rows[i].data() + cursor[i];
        if (p[0] == 0) {
          SQE_RETURN_NOT_OK(builder.AppendNull());
          cursor[i] += 1;
        } else {
          SQE_RETURN_NOT_OK(builder.Append(p[1] != 0));
          cursor[i] += 2;
        }
      }
      SQE_ASSIGN_OR_RETURN(Column c, builder.Finish());
      columns.push_back(std::move(c));
    } else if (layout == Layout::kFixedWidth) {
      const int32_t width = type->byte_width();
      columnar::FixedSizeBinaryBuilder builder(columnar::FixedSizeBinary(width), tracker);
      SQE_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t i = 0; i < n; ++i) {
        const char* p = rows[i].data() + cursor[i];
        if (p[0] == 0) {
          SQE_RETURN_NOT_OK(builder.AppendNull());
          cursor[i] += 1;
        } else {
          SQE_RETURN_NOT_OK(builder.Append(std::string_view(p + 1, width)));
          cursor[i] += 1 + width;
        }
      }
      SQE_ASSIGN_OR_RETURN(Column raw, builder.Finish());
      SQE_ASSIGN_OR_RETURN(Column c,
                           Column::Make(type, raw.length(), raw.buffers(), {}, raw.null_count()));
      columns.push_back(std::move(c));
    } else {
      columnar::BinaryBuilder builder(type, tracker);
      SQE_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t i = 0; i < n; ++i) {
        const char* p = rows[i].data() + cursor[i];
        if (p[0] == 0) {
          SQE_RETURN_NOT_OK(builder.AppendNull());
          cursor[i] += 1;
        } else {
          uint32_t length;
          std::memcpy(&length, p + 1, 4);
          SQE_RETURN_NOT_OK(builder.Append(std::string_view(p + 5, length)));
          cursor[i] += 5 + length;
        }
      }
      SQE_ASSIGN_OR_RETURN(Column c, builder.Finish());
      columns.push_back(std::move(c));
    }
  }
  return columns;
}

}  // namespace sqe::exec
