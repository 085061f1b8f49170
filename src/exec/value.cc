#include "exec/value.h"

#include <cmath>
#include <cstring>

#include "columnar/civil_time.h"
#include "columnar/take.h"
#include "columnar/time_zone_rules.h"
#include "common/hex.h"
#include "exec/batch_concatenate.h"
#include "exec/functions/cast.h"
#include "exec/functions/interleave.h"

namespace sqe::exec {

using columnar::Buffer;
using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;

namespace {

std::string QuoteSql(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

template <typename T>
Result<Column> Broadcast(const TypePtr& type, T v, int64_t rows,
                         const std::shared_ptr<MemoryTracker>& tracker) {
  SQE_ASSIGN_OR_RETURN(
      auto values, Buffer::AllocateUninitialized(rows * static_cast<int64_t>(sizeof(T)), tracker));
  T* out = values->template mutable_data_as<T>();
  std::fill(out, out + rows, v);
  return Column::Make(type, rows, {nullptr, std::move(values)}, {}, 0);
}

}  // namespace

std::string Value::ToSql() const {
  if (is_null()) return "NULL";
  if (type_ == nullptr) return "NULL";
  switch (type_->id()) {
    case TypeId::kBoolean:
      return bool_value() ? "true" : "false";
    case TypeId::kInt8:
      return "TINYINT '" + std::to_string(int_value()) + "'";
    case TypeId::kInt16:
      return "SMALLINT '" + std::to_string(int_value()) + "'";
    case TypeId::kInt32:
      return std::to_string(int_value());
    case TypeId::kInt64:
      return "BIGINT '" + std::to_string(int_value()) + "'";
    case TypeId::kFloat32:
      return "REAL '" + FormatReal(static_cast<float>(double_value())) + "'";
    case TypeId::kFloat64:
      return "DOUBLE '" + FormatDouble(double_value()) + "'";
    case TypeId::kDecimal128:
      return "DECIMAL '" + decimal_value().ToString(type_->scale()) + "'";
    case TypeId::kString:
      return QuoteSql(string_value());
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
      return "X'" + HexUpper(string_value()) + "'";
    case TypeId::kUuid:
      return "UUID '" + UuidText(string_value()) + "'";
    case TypeId::kDate32:
      return "DATE '" + columnar::FormatDate(int_value()) + "'";
    case TypeId::kTime64:
      return "TIME '" + columnar::FormatTimeOfDay(int_value(), type_->unit()) + "'";
    case TypeId::kTimestamp: {
      if (!type_->has_timezone()) {
        return "TIMESTAMP '" + columnar::FormatTimestamp(int_value(), type_->unit()) + "'";
      }
      std::string text = "TIMESTAMP '";  // wall-clock time and zone: re-binds to this type
      columnar::AppendZonedTimestamp(int_value(), *type_, &text);
      return text + "'";
    }
    case TypeId::kList: {
      std::string out = "ARRAY[";
      const Elements& e = elements();
      for (size_t i = 0; i < e.size(); ++i) out += (i ? ", " : "") + e[i].ToSql();
      return out + "]";
    }
    case TypeId::kStruct: {
      std::string out = "ROW(";
      const Elements& e = elements();
      for (size_t i = 0; i < e.size(); ++i) out += (i ? ", " : "") + e[i].ToSql();
      return out + ")";
    }
    case TypeId::kMap: {
      std::string keys = "ARRAY[";
      std::string values = "ARRAY[";
      const Elements& e = elements();
      for (size_t i = 0; i < e.size(); ++i) {
        const Elements& kv = e[i].elements();
        keys += (i ? ", " : "") + kv[0].ToSql();
        values += (i ? ", " : "") + kv[1].ToSql();
      }
      return "MAP(" + keys + "], " + values + "])";
    }
  }
  return "?";
}

bool Value::Equals(const Value& other) const {
  if ((type_ == nullptr) != (other.type_ == nullptr)) return false;
  if (type_ != nullptr && !type_->Equals(*other.type_)) return false;
  if (storage_.index() != other.storage_.index()) return false;
  if (is_null()) return true;
  if (std::holds_alternative<double>(storage_)) {
    const double a = double_value();
    const double b = other.double_value();
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
  }
  if (std::holds_alternative<std::shared_ptr<const Elements>>(storage_)) {
    const Elements& a = elements();
    const Elements& b = other.elements();
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].Equals(b[i])) return false;
    }
    return true;
  }
  return storage_ == other.storage_;
}

Result<Column> Value::ToColumn(int64_t rows, std::shared_ptr<MemoryTracker> tracker) const {
  if (type_ == nullptr) return Column::MakeAllNull(columnar::Boolean(), rows, std::move(tracker));
  if (is_null()) return Column::MakeAllNull(type_, rows, std::move(tracker));
  switch (type_->id()) {
    case TypeId::kBoolean: {
      SQE_ASSIGN_OR_RETURN(auto bits, Buffer::Allocate(columnar::BytesForBits(rows), tracker));
      if (bool_value()) columnar::SetBitsTo(bits->mutable_data(), 0, rows, true);
      return Column::Make(type_, rows, {nullptr, std::move(bits)}, {}, 0);
    }
    case TypeId::kInt8:
      return Broadcast(type_, static_cast<int8_t>(int_value()), rows, tracker);
    case TypeId::kInt16:
      return Broadcast(type_, static_cast<int16_t>(int_value()), rows, tracker);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return Broadcast(type_, static_cast<int32_t>(int_value()), rows, tracker);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return Broadcast(type_, int_value(), rows, tracker);
    case TypeId::kFloat32:
      return Broadcast(type_, static_cast<float>(double_value()), rows, tracker);
    case TypeId::kFloat64:
      return Broadcast(type_, double_value(), rows, tracker);
    case TypeId::kDecimal128:
      return Broadcast(type_, decimal_value(), rows, tracker);
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid: {
      const std::string& s = string_value();
      const int64_t width = type_->byte_width();
      if (static_cast<int64_t>(s.size()) != width) {
        return Status::InvalidArgument("a " + type_->ToString() + " value needs " +
                                       std::to_string(width) + " bytes");
      }
      SQE_ASSIGN_OR_RETURN(auto values, Buffer::AllocateUninitialized(rows * width, tracker));
      for (int64_t i = 0; i < rows; ++i)
        std::memcpy(values->mutable_data() + i * width, s.data(), width);
      return Column::Make(type_, rows, {nullptr, std::move(values)}, {}, 0);
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const std::string& s = string_value();
      const int64_t len = static_cast<int64_t>(s.size());
      if (len * rows > INT32_MAX) {
        return Status::ResourceExhausted("a broadcast string column larger than 2 GiB");
      }
      SQE_ASSIGN_OR_RETURN(auto offsets, Buffer::AllocateUninitialized((rows + 1) * 4, tracker));
      int32_t* off = offsets->mutable_data_as<int32_t>();
      for (int64_t i = 0; i <= rows; ++i) off[i] = static_cast<int32_t>(i * len);
      SQE_ASSIGN_OR_RETURN(auto data, Buffer::AllocateUninitialized(len * rows, tracker));
      for (int64_t i = 0; i < rows; ++i) std::memcpy(data->mutable_data() + i * len, s.data(), len);
      return Column::Make(type_, rows, {nullptr, std::move(offsets), std::move(data)}, {}, 0);
    }
    case TypeId::kList: {
      const Elements& e = elements();
      const TypePtr& element_type = type_->value_field().type();
      const int64_t n = static_cast<int64_t>(e.size());
      std::vector<Column> pieces;
      for (const Value& v : e) {
        Value typed = v.type() == nullptr ? Value::Null(element_type) : v;
        SQE_ASSIGN_OR_RETURN(Column c, typed.ToColumn(1, tracker));
        pieces.push_back(std::move(c));
      }
      std::vector<int32_t> piece(n * rows);
      std::vector<uint32_t> index(n * rows, 0);
      for (int64_t i = 0; i < n * rows; ++i) piece[i] = static_cast<int32_t>(i % n);
      EvalContext ctx;
      ctx.tracker = tracker;
      Column child;
      if (n == 0) {
        SQE_ASSIGN_OR_RETURN(child, Column::MakeAllNull(element_type, 0, tracker));
      } else if (element_type->is_nested()) {
        // Interleave gathers nested values from one piece only: concatenate, then repeat.
        SQE_ASSIGN_OR_RETURN(Column one, Concatenate(pieces, tracker));
        columnar::SelectionVector repeat;
        repeat.Reserve(n * rows);
        for (int64_t i = 0; i < n * rows; ++i) repeat.Append(static_cast<uint32_t>(i % n));
        SQE_ASSIGN_OR_RETURN(child, columnar::Take(one, repeat, tracker));
      } else {
        SQE_ASSIGN_OR_RETURN(
            child, Interleave(element_type, pieces, piece.data(), index.data(), n * rows, ctx));
      }
      SQE_ASSIGN_OR_RETURN(auto offsets, Buffer::AllocateUninitialized((rows + 1) * 4, tracker));
      int32_t* off = offsets->mutable_data_as<int32_t>();
      for (int64_t i = 0; i <= rows; ++i) off[i] = static_cast<int32_t>(i * n);
      return Column::Make(type_, rows, {nullptr, std::move(offsets)}, {std::move(child)}, 0);
    }
    case TypeId::kStruct: {
      // Each field broadcast as a constant column of its own type.
      const Elements& e = elements();
      std::vector<Column> fields;
      for (int f = 0; f < type_->num_fields(); ++f) {
        const TypePtr& field_type = type_->field(f).type();
        const bool given = static_cast<size_t>(f) < e.size() && e[f].type() != nullptr;
        Value typed = given ? e[f] : Value::Null(field_type);
        SQE_ASSIGN_OR_RETURN(Column c, typed.ToColumn(rows, tracker));
        fields.push_back(std::move(c));
      }
      return Column::Make(type_, rows, {nullptr}, std::move(fields), 0);
    }
    case TypeId::kMap: {
      // The keys and the values as two constant arrays, broadcast, then paired as entries.
      const TypePtr& key_type = type_->key_field().type();
      const TypePtr& item_type = type_->item_field().type();
      Elements keys, items;
      for (const Value& entry : elements()) {
        const Elements& kv = entry.elements();
        keys.push_back(kv[0].type() == nullptr ? Value::Null(key_type) : kv[0]);
        items.push_back(kv[1].type() == nullptr ? Value::Null(item_type) : kv[1]);
      }
      Value key_list(columnar::List(key_type), std::make_shared<const Elements>(std::move(keys)));
      Value item_list(columnar::List(item_type),
                      std::make_shared<const Elements>(std::move(items)));
      SQE_ASSIGN_OR_RETURN(Column k, key_list.ToColumn(rows, tracker));
      SQE_ASSIGN_OR_RETURN(Column v, item_list.ToColumn(rows, tracker));
      const int64_t n = k.ListValues().length();
      SQE_ASSIGN_OR_RETURN(Column entries, Column::Make(type_->value_field().type(), n, {nullptr},
                                                        {k.ListValues(), v.ListValues()}, 0));
      return Column::Make(type_, rows, {nullptr, k.buffers()[1]}, {std::move(entries)}, 0);
    }
    default:
      break;
  }
  return Status::NotImplemented("constant " + type_->ToString() + " columns are not supported yet");
}

Result<Value> Value::FromColumn(const Column& column, int64_t row) {
  const TypePtr& type = column.type();
  if (row < 0 || row >= column.length()) {
    return Status::InvalidArgument("row " + std::to_string(row) + " out of range");
  }
  if (column.IsNull(row)) return Value::Null(type);
  switch (type->id()) {
    case TypeId::kBoolean:
      return Value(type, column.BoolAt(row));
    case TypeId::kInt8:
      return Value(type, static_cast<int64_t>(column.Value<int8_t>(row)));
    case TypeId::kInt16:
      return Value(type, static_cast<int64_t>(column.Value<int16_t>(row)));
    case TypeId::kInt32:
    case TypeId::kDate32:
      return Value(type, static_cast<int64_t>(column.Value<int32_t>(row)));
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return Value(type, column.Value<int64_t>(row));
    case TypeId::kFloat32:
      return Value(type, static_cast<double>(column.Value<float>(row)));
    case TypeId::kFloat64:
      return Value(type, column.Value<double>(row));
    case TypeId::kDecimal128:
      return Value(type, column.DecimalAt(row));
    case TypeId::kString:
    case TypeId::kBinary:
      return Value(type, std::string(column.StringAt(row)));
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      return Value(type, std::string(column.FixedSizeBinaryAt(row)));
    case TypeId::kList:
    case TypeId::kMap: {
      Elements out;
      const Column& child = column.ListValues();
      const int64_t start = column.ListStart(row);
      const int64_t len = column.ListLength(row);
      for (int64_t k = 0; k < len; ++k) {
        SQE_ASSIGN_OR_RETURN(Value v, FromColumn(child, start + k));
        out.push_back(std::move(v));
      }
      return Value(type, std::make_shared<const Elements>(std::move(out)));
    }
    case TypeId::kStruct: {
      Elements out;
      for (int f = 0; f < type->num_fields(); ++f) {
        SQE_ASSIGN_OR_RETURN(Value v, FromColumn(column.StructField(f), row));
        out.push_back(std::move(v));
      }
      return Value(type, std::make_shared<const Elements>(std::move(out)));
    }
  }
  return Status::NotImplemented("values of " + type->ToString());
}

}  // namespace sqe::exec
