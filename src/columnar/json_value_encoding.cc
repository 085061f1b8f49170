#include "columnar/json_value_encoding.h"

#include <charconv>
#include <cmath>

#include "columnar/civil_time.h"
#include "columnar/time_zone_rules.h"
#include "columnar/utf8.h"
#include "common/hex.h"

namespace sqe::columnar {
namespace {

template <typename T>
void AppendInteger(T value, std::string* out) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  out->append(buf, end);
}

template <typename T>
void AppendFloating(T value, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
  } else if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);  // shortest round trip
    out->append(buf, end);
  }
}

void AppendBase64(std::string_view bytes, std::string* out) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out->push_back('"');
  const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t v = (uint32_t{s[i]} << 16) | (uint32_t{s[i + 1]} << 8) | s[i + 2];
    out->push_back(kAlphabet[(v >> 18) & 63]);
    out->push_back(kAlphabet[(v >> 12) & 63]);
    out->push_back(kAlphabet[(v >> 6) & 63]);
    out->push_back(kAlphabet[v & 63]);
  }
  if (i < n) {
    uint32_t v = uint32_t{s[i]} << 16;
    if (i + 1 < n) v |= uint32_t{s[i + 1]} << 8;
    out->push_back(kAlphabet[(v >> 18) & 63]);
    out->push_back(kAlphabet[(v >> 12) & 63]);
    out->push_back(i + 1 < n ? kAlphabet[(v >> 6) & 63] : '=');
    out->push_back('=');
  }
  out->push_back('"');
}

void AppendUuid(std::string_view bytes, std::string* out) {
  out->push_back('"');
  AppendUuidText(bytes, out);
  out->push_back('"');
}

/// `rows_as_arrays`: ROW values as JSON arrays of their fields (the Trino protocol's
/// data), else as objects keyed by field name.
Status AppendValue(const Column& column, int64_t row, std::string* out,
                   bool rows_as_arrays = false);

Status AppendMapKey(const Column& keys, int64_t row, std::string* out) {
  if (keys.IsNull(row)) {
    return Status::InvalidArgument("map key " + std::to_string(row) +
                                   " is null; map keys must not be null");
  }
  if (keys.type_id() == TypeId::kString) {
    AppendJsonString(keys.StringAt(row), out);
    return Status::OK();
  }
  std::string text;
  SQE_RETURN_NOT_OK(AppendValue(keys, row, &text));
  if (!text.empty() && text.front() == '"') {
    out->append(text);  // already a JSON string (decimal, date, uuid, ...)
  } else {
    AppendJsonString(text, out);  // numbers, booleans, nested values: their JSON text
  }
  return Status::OK();
}

Status AppendValue(const Column& column, int64_t row, std::string* out, bool rows_as_arrays) {
  if (column.IsNull(row)) {
    out->append("null");
    return Status::OK();
  }
  const DataType& type = *column.type();
  switch (type.id()) {
    case TypeId::kBoolean:
      out->append(column.BoolAt(row) ? "true" : "false");
      break;
    case TypeId::kInt8:
      AppendInteger(column.Value<int8_t>(row), out);
      break;
    case TypeId::kInt16:
      AppendInteger(column.Value<int16_t>(row), out);
      break;
    case TypeId::kInt32:
      AppendInteger(column.Value<int32_t>(row), out);
      break;
    case TypeId::kInt64:
      AppendInteger(column.Value<int64_t>(row), out);
      break;
    case TypeId::kFloat32:
      AppendFloating(column.Value<float>(row), out);
      break;
    case TypeId::kFloat64:
      AppendFloating(column.Value<double>(row), out);
      break;
    case TypeId::kDecimal128:
      out->push_back('"');
      column.DecimalAt(row).AppendTo(type.scale(), out);
      out->push_back('"');
      break;
    case TypeId::kString:
      AppendJsonString(column.StringAt(row), out);
      break;
    case TypeId::kBinary:
      AppendBase64(column.BinaryAt(row), out);
      break;
    case TypeId::kFixedSizeBinary:
      AppendBase64(column.FixedSizeBinaryAt(row), out);
      break;
    case TypeId::kUuid:
      AppendUuid(column.FixedSizeBinaryAt(row), out);
      break;
    case TypeId::kDate32:
      out->push_back('"');
      AppendDate(column.Value<int32_t>(row), out);
      out->push_back('"');
      break;
    case TypeId::kTime64:
      out->push_back('"');
      AppendTimeOfDay(column.Value<int64_t>(row), type.unit(), out);
      out->push_back('"');
      break;
    case TypeId::kTimestamp:
      out->push_back('"');
      if (type.has_timezone()) {  // wall-clock time in the type's zone, then its name
        AppendZonedTimestamp(column.Value<int64_t>(row), type, out);
      } else {
        AppendTimestamp(column.Value<int64_t>(row), type.unit(), out);
      }
      out->push_back('"');
      break;
    case TypeId::kList: {
      const Column& values = column.ListValues();
      const int64_t start = column.ListStart(row);
      const int64_t end = start + column.ListLength(row);
      out->push_back('[');
      for (int64_t i = start; i < end; ++i) {
        if (i > start) out->push_back(',');
        SQE_RETURN_NOT_OK(AppendValue(values, i, out, rows_as_arrays));
      }
      out->push_back(']');
      break;
    }
    case TypeId::kStruct: {
      out->push_back(rows_as_arrays ? '[' : '{');
      for (int f = 0; f < type.num_fields(); ++f) {
        if (f > 0) out->push_back(',');
        if (!rows_as_arrays) {
          AppendJsonString(type.field(f).name(), out);
          out->push_back(':');
        }
        // Struct children are aligned with the struct's physical rows.
        SQE_RETURN_NOT_OK(AppendValue(column.child(f), column.offset() + row, out, rows_as_arrays));
      }
      out->push_back(rows_as_arrays ? ']' : '}');
      break;
    }
    case TypeId::kMap: {
      // Entry i's key and value sit at the entries struct's physical row.
      const Column& entries = column.ListValues();
      const Column& keys = entries.child(0);
      const Column& items = entries.child(1);
      const int64_t start = entries.offset() + column.ListStart(row);
      const int64_t end = start + column.ListLength(row);
      out->push_back('{');
      for (int64_t i = start; i < end; ++i) {
        if (i > start) out->push_back(',');
        SQE_RETURN_NOT_OK(AppendMapKey(keys, i, out));
        out->push_back(':');
        SQE_RETURN_NOT_OK(AppendValue(items, i, out, rows_as_arrays));
      }
      out->push_back('}');
      break;
    }
  }
  return Status::OK();
}

Status CheckRow(int64_t row, int64_t length) {
  if (row < 0 || row >= length) {
    return Status::InvalidArgument("row " + std::to_string(row) + " out of range for " +
                                   std::to_string(length) + " rows");
  }
  return Status::OK();
}

/// Row `row` of `batch` as a JSON array of its values (ROW values as arrays or objects).
Status AppendRowArray(const Batch& batch, int64_t row, std::string* out, bool rows_as_arrays) {
  SQE_RETURN_NOT_OK(CheckRow(row, batch.num_rows()));
  out->push_back('[');
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (c > 0) out->push_back(',');
    SQE_RETURN_NOT_OK(AppendValue(batch.column(c), row, out, rows_as_arrays));
  }
  out->push_back(']');
  return Status::OK();
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    // Copy the longest run that needs no escaping in one append.
    size_t run = i;
    while (run < n) {
      const auto c = static_cast<uint8_t>(text[run]);
      if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
      ++run;
    }
    out->append(text.data() + i, run - i);
    i = run;
    if (i >= n) break;
    const auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x80) {
      const size_t len = ValidUtf8SequenceLength(text.substr(i));
      if (len == 0) {
        out->append("\xEF\xBF\xBD");  // U+FFFD for a byte that starts no valid sequence
        ++i;
      } else {
        out->append(text.data() + i, len);
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        out->append("\\u00");
        AppendHexByte(static_cast<uint8_t>(c), false, out);
    }
    ++i;
  }
  out->push_back('"');
}

Status AppendJsonValue(const Column& column, int64_t row, std::string* out) {
  if (column.type() == nullptr) return Status::InvalidArgument("column has no type");
  SQE_RETURN_NOT_OK(CheckRow(row, column.length()));
  return AppendValue(column, row, out);
}

Status AppendJsonRowArray(const Batch& batch, int64_t row, std::string* out) {
  return AppendRowArray(batch, row, out, /*rows_as_arrays=*/false);
}

Status AppendTrinoRowArray(const Batch& batch, int64_t row, std::string* out) {
  return AppendRowArray(batch, row, out, /*rows_as_arrays=*/true);
}

Status AppendJsonRowObject(const Batch& batch, int64_t row, std::string* out) {
  SQE_RETURN_NOT_OK(CheckRow(row, batch.num_rows()));
  out->push_back('{');
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (c > 0) out->push_back(',');
    AppendJsonString(batch.schema()->field(c).name(), out);
    out->push_back(':');
    SQE_RETURN_NOT_OK(AppendValue(batch.column(c), row, out));
  }
  out->push_back('}');
  return Status::OK();
}

Status AppendJsonLines(const Batch& batch, std::string* out) {
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    SQE_RETURN_NOT_OK(AppendJsonRowObject(batch, row, out));
    out->push_back('\n');
  }
  return Status::OK();
}

}  // namespace sqe::columnar
