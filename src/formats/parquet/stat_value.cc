#include "formats/parquet/stat_value.h"

#include <cmath>
#include <cstring>

#include "columnar/data_type.h"
#include "formats/parquet/value_conversion.h"

namespace sqe::parquet {
namespace {

using columnar::Decimal128;
using columnar::TypeId;
using Int128 = __int128;

Int128 ToInt128(const Decimal128& d) {
  return static_cast<Int128>((static_cast<unsigned __int128>(static_cast<uint64_t>(d.high)) << 64) |
                             d.low);
}
Decimal128 FromInt128(Int128 v) {
  return Decimal128(static_cast<int64_t>(v >> 64), static_cast<uint64_t>(v));
}

// v * 10^k, or nullopt on 128-bit overflow.
std::optional<Int128> ScaleUp(Int128 v, int32_t k) {
  for (int32_t i = 0; i < k; ++i) {
    if (__builtin_mul_overflow(v, Int128{10}, &v)) return std::nullopt;
  }
  return v;
}

template <typename T>
T Load(std::string_view raw) {
  T v;
  std::memcpy(&v, raw.data(), sizeof(T));
  return v;
}

}  // namespace

StatValue StatValue::Number(Decimal128 unscaled, int32_t scale) {
  StatValue v;
  v.kind = Kind::kNumber;
  v.unscaled = unscaled;
  v.scale = scale;
  return v;
}

StatValue StatValue::Float(double value) {
  StatValue v;
  v.kind = Kind::kFloat;
  v.real = value;
  return v;
}

StatValue StatValue::Bytes(std::string value) {
  StatValue v;
  v.kind = Kind::kBytes;
  v.bytes = std::move(value);
  return v;
}

bool StatValue::is_nan() const { return kind == Kind::kFloat && std::isnan(real); }

std::string StatValue::ToString() const {
  switch (kind) {
    case Kind::kNumber:
      return unscaled.ToString(scale);
    case Kind::kFloat:
      return std::to_string(real);
    case Kind::kBytes:
      return "'" + bytes + "'";
  }
  return "?";
}

int Compare(const StatValue& a, const StatValue& b) {
  switch (a.kind) {
    case StatValue::Kind::kNumber: {
      Int128 x = ToInt128(a.unscaled), y = ToInt128(b.unscaled);
      if (a.scale != b.scale) {
        // Bring the value with the smaller scale up; if that overflows, its magnitude
        // exceeds anything the other can hold, so its sign decides.
        const bool a_smaller = a.scale < b.scale;
        Int128& up = a_smaller ? x : y;
        auto scaled = ScaleUp(up, a_smaller ? b.scale - a.scale : a.scale - b.scale);
        if (!scaled) {
          const int sign_of_up = up < 0 ? -1 : 1;
          return a_smaller ? sign_of_up : -sign_of_up;
        }
        up = *scaled;
      }
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    case StatValue::Kind::kFloat:
      return a.real < b.real ? -1 : (a.real > b.real ? 1 : 0);
    case StatValue::Kind::kBytes: {
      // std::string_view::compare uses char_traits<char>, which compares as unsigned char.
      int c = std::string_view(a.bytes).compare(b.bytes);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
  }
  return 0;
}

std::optional<Decimal128> Rescale(const StatValue& number, int32_t to_scale) {
  Int128 v = ToInt128(number.unscaled);
  if (to_scale >= number.scale) {
    auto up = ScaleUp(v, to_scale - number.scale);
    if (!up) return std::nullopt;
    return FromInt128(*up);
  }
  for (int32_t i = 0; i < number.scale - to_scale; ++i) {
    if (v % 10 != 0) return std::nullopt;
    v /= 10;
  }
  return FromInt128(v);
}

StatValue::Kind StatType::kind() const {
  switch (encoding) {
    case StatEncoding::kFloat:
    case StatEncoding::kDouble:
    case StatEncoding::kFloat16:
      return StatValue::Kind::kFloat;
    case StatEncoding::kBytes:
      return StatValue::Kind::kBytes;
    default:
      return StatValue::Kind::kNumber;
  }
}

StatType StatTypeOf(const ColumnDescriptor& column) {
  StatType t;
  const columnar::DataType& type = *column.type;
  const bool millis = column.conversion == LeafConversion::kMillisToMicros;
  if (type.id() == TypeId::kTime64 || type.id() == TypeId::kTimestamp) {
    t.scale = millis ? 3 : columnar::FractionDigits(type.unit());
  } else if (type.id() == TypeId::kDecimal128) {
    t.scale = type.scale();
  }
  switch (column.physical_type) {
    case PhysicalType::kBoolean:
      t.encoding = StatEncoding::kBoolean;
      t.legacy_min_max_valid = true;  // signed and unsigned order agree on 0/1
      break;
    case PhysicalType::kInt32:
      t.encoding = column.conversion == LeafConversion::kUint32ToWider ? StatEncoding::kUint32
                                                                       : StatEncoding::kInt32;
      t.legacy_min_max_valid = t.encoding == StatEncoding::kInt32;
      break;
    case PhysicalType::kInt64:
      t.encoding = StatEncoding::kInt64;
      t.legacy_min_max_valid = true;
      break;
    case PhysicalType::kInt96:
      t.encoding = StatEncoding::kNone;  // undefined sort order
      break;
    case PhysicalType::kFloat:
      t.encoding = StatEncoding::kFloat;
      t.legacy_min_max_valid = true;
      break;
    case PhysicalType::kDouble:
      t.encoding = StatEncoding::kDouble;
      t.legacy_min_max_valid = true;
      break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      if (column.conversion == LeafConversion::kDecimalFromBytes) {
        t.encoding = StatEncoding::kDecimalBigEndian;
      } else if (column.conversion == LeafConversion::kFloat16ToFloat32) {
        t.encoding = StatEncoding::kFloat16;
      } else {
        t.encoding = StatEncoding::kBytes;
      }
      break;
  }
  return t;
}

std::optional<StatValue> DecodeStatValue(std::string_view raw, const StatType& type) {
  switch (type.encoding) {
    case StatEncoding::kNone:
      return std::nullopt;
    case StatEncoding::kBoolean:
      if (raw.size() != 1) return std::nullopt;
      return StatValue::Number(Decimal128(raw[0] != 0 ? 1 : 0));
    case StatEncoding::kInt32:
      if (raw.size() != 4) return std::nullopt;
      return StatValue::Number(Decimal128(int64_t{Load<int32_t>(raw)}), type.scale);
    case StatEncoding::kUint32:
      if (raw.size() != 4) return std::nullopt;
      return StatValue::Number(Decimal128(int64_t{Load<uint32_t>(raw)}), type.scale);
    case StatEncoding::kInt64:
      if (raw.size() != 8) return std::nullopt;
      return StatValue::Number(Decimal128(Load<int64_t>(raw)), type.scale);
    case StatEncoding::kFloat:
      if (raw.size() != 4) return std::nullopt;
      return StatValue::Float(Load<float>(raw));
    case StatEncoding::kDouble:
      if (raw.size() != 8) return std::nullopt;
      return StatValue::Float(Load<double>(raw));
    case StatEncoding::kFloat16:
      if (raw.size() != 2) return std::nullopt;
      return StatValue::Float(Float16ToFloat32(Load<uint16_t>(raw)));
    case StatEncoding::kBytes:
      return StatValue::Bytes(std::string(raw));
    case StatEncoding::kDecimalBigEndian: {
      if (raw.empty()) return std::nullopt;
      auto d = DecimalFromBigEndian(raw);
      if (!d.ok()) return std::nullopt;
      return StatValue::Number(*d, type.scale);
    }
  }
  return std::nullopt;
}

}  // namespace sqe::parquet
