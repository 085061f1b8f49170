#include "value_text.h"
#include "common/hex.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "columnar/civil_time.h"
#include "columnar/time_zone_rules.h"

namespace sqe::sqltest {
namespace {

using columnar::Column;
using columnar::TypeId;

/// Formats shortest scientific digits ("d.ddde±x") the way Python's repr does:
/// positional for decimal exponents in [-4, 16), scientific otherwise.
std::string ReprFromScientific(std::string_view sci) {
  bool negative = false;
  if (!sci.empty() && sci[0] == '-') {
    negative = true;
    sci.remove_prefix(1);
  }
  size_t e_pos = sci.find('e');
  std::string_view mantissa = sci.substr(0, e_pos);
  int exponent = std::atoi(std::string(sci.substr(e_pos + 1)).c_str());
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits += c;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out += "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += digits;
    } else {
      size_t int_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= int_digits) {
        out += digits;
        out.append(int_digits - digits.size(), '0');
        out += ".0";
      } else {
        out += digits.substr(0, int_digits);
        out += '.';
        out += digits.substr(int_digits);
      }
    }
    return out;
  }
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += 'e';
  out += exponent < 0 ? '-' : '+';
  int magnitude = std::abs(exponent);
  if (magnitude < 10) out += '0';
  out += std::to_string(magnitude);
  return out;
}

template <typename T>
std::string FloatingText(T value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  return ReprFromScientific(std::string_view(buf, static_cast<size_t>(end - buf)));
}

/// Drops trailing zeros of a fraction and the '.' when nothing is left of it.
std::string TrimFraction(std::string text) {
  size_t dot = text.rfind('.');
  if (dot == std::string::npos) return text;
  size_t last = text.find_last_not_of('0');
  if (last == dot) {
    text.erase(dot);
  } else if (last > dot) {
    text.erase(last + 1);
  }
  return text;
}

std::string HexText(std::string_view bytes) { return HexLower(bytes); }

std::string NestedText(const Column& column, int64_t row) {
  if (column.IsNull(row)) return "NULL";
  if (column.type_id() == TypeId::kString) {
    return std::string(column.StringAt(row));  // "(empty)" only at top level
  }
  return ValueText(column, row);
}

}  // namespace

std::string DoubleText(double value) { return FloatingText(value); }
std::string FloatText(float value) { return FloatingText(value); }

std::string ValueText(const Column& column, int64_t row) {
  if (column.IsNull(row)) return "NULL";
  const columnar::DataType& type = *column.type();
  switch (type.id()) {
    case TypeId::kBoolean:
      return column.BoolAt(row) ? "true" : "false";
    case TypeId::kInt8:
      return std::to_string(column.Value<int8_t>(row));
    case TypeId::kInt16:
      return std::to_string(column.Value<int16_t>(row));
    case TypeId::kInt32:
      return std::to_string(column.Value<int32_t>(row));
    case TypeId::kInt64:
      return std::to_string(column.Value<int64_t>(row));
    case TypeId::kFloat32:
      return FloatText(column.Value<float>(row));
    case TypeId::kFloat64:
      return DoubleText(column.Value<double>(row));
    case TypeId::kDecimal128:
      return column.DecimalAt(row).ToString(type.scale());
    case TypeId::kString: {
      std::string_view text = column.StringAt(row);
      return text.empty() ? "(empty)" : std::string(text);
    }
    case TypeId::kBinary:
      return HexText(column.BinaryAt(row));
    case TypeId::kFixedSizeBinary:
      return HexText(column.FixedSizeBinaryAt(row));
    case TypeId::kUuid: {
      std::string hex = HexText(column.FixedSizeBinaryAt(row));
      return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
             hex.substr(16, 4) + "-" + hex.substr(20);
    }
    case TypeId::kDate32:
      return columnar::FormatDate(column.Value<int32_t>(row));
    case TypeId::kTime64:
      return TrimFraction(columnar::FormatTimeOfDay(column.Value<int64_t>(row), type.unit()));
    case TypeId::kTimestamp: {
      // A timestamp with time zone: the wall-clock time in its type's zone, then the zone.
      const auto zone = columnar::ZoneRulesOf(type);
      const int64_t ticks = column.Value<int64_t>(row);
      std::string text = TrimFraction(columnar::FormatTimestamp(
          zone->ToLocal(ticks, columnar::TicksPerSecond(type.unit())), type.unit()));
      if (type.has_timezone()) text += " " + zone->name();
      return text;
    }
    case TypeId::kList: {
      const Column& values = column.ListValues();
      std::string out = "[";
      int64_t start = column.ListStart(row);
      for (int64_t i = 0; i < column.ListLength(row); ++i) {
        if (i > 0) out += ", ";
        out += NestedText(values, start + i);
      }
      return out + "]";
    }
    case TypeId::kStruct: {
      std::string out = "{";
      for (int f = 0; f < type.num_fields(); ++f) {
        if (f > 0) out += ", ";
        // An anonymous field (ROW(1, 'a')) shows its value alone: {1, a}.
        if (!type.field(f).name().empty()) out += "'" + type.field(f).name() + "': ";
        out += NestedText(column.StructField(f), row);
      }
      return out + "}";
    }
    case TypeId::kMap: {
      Column keys = column.MapKeys();
      Column items = column.MapItems();
      std::string out = "{";
      int64_t start = column.ListStart(row);
      for (int64_t i = 0; i < column.ListLength(row); ++i) {
        if (i > 0) out += ", ";
        out += NestedText(keys, start + i) + "=" + NestedText(items, start + i);
      }
      return out + "}";
    }
  }
  return "?";
}

}  // namespace sqe::sqltest
