#include "formats/parquet/statistics_builder.h"

#include <cmath>
#include <cstring>

namespace sqe::parquet {
namespace {

using columnar::TypeId;

template <typename T>
T Load(std::string_view v) {
  T x{};
  std::memcpy(&x, v.data(), std::min(sizeof(T), v.size()));
  return x;
}

template <typename T>
void Store(T x, std::string* out) {
  out->append(reinterpret_cast<const char*>(&x), sizeof(T));
}

template <typename T>
int Cmp(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Big-endian two's complement of the low `width` bytes of a 128-bit value.
void AppendBigEndian(columnar::Decimal128 d, int32_t width, std::string* out) {
  for (int i = width - 1; i >= 0; --i) {
    uint64_t word = i >= 8 ? static_cast<uint64_t>(d.high) : d.low;
    int shift = (i % 8) * 8;
    out->push_back(static_cast<char>((word >> shift) & 0xff));
  }
}

// Drops leading bytes that only repeat the sign (Iceberg's minimal decimal form).
std::string MinimalBigEndian(std::string_view be) {
  size_t i = 0;
  while (i + 1 < be.size()) {
    uint8_t b = static_cast<uint8_t>(be[i]);
    uint8_t next = static_cast<uint8_t>(be[i + 1]);
    if ((b == 0x00 && (next & 0x80) == 0) || (b == 0xff && (next & 0x80) != 0)) {
      ++i;
    } else {
      break;
    }
  }
  return std::string(be.substr(i));
}

// The first `n` UTF-8 code points of `s` (all of it when shorter).
size_t Utf8Prefix(std::string_view s, size_t n) {
  size_t pos = 0;
  for (size_t cp = 0; cp < n && pos < s.size(); ++cp) {
    ++pos;
    while (pos < s.size() && (static_cast<uint8_t>(s[pos]) & 0xc0) == 0x80) ++pos;
  }
  return pos;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

// Decodes the code points of a valid UTF-8 string.
std::vector<uint32_t> CodePoints(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    uint8_t b = static_cast<uint8_t>(s[i]);
    int len = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    uint32_t cp = len == 1 ? b : len == 2 ? (b & 0x1f) : len == 3 ? (b & 0x0f) : (b & 0x07);
    for (int k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3f);
    out.push_back(cp);
    i += len;
  }
  return out;
}

constexpr size_t kTruncateLength = 16;

std::optional<std::string> TruncateString(std::string_view s, bool upper) {
  size_t cut = Utf8Prefix(s, kTruncateLength);
  if (cut == s.size()) return std::string(s);
  if (!upper) return std::string(s.substr(0, cut));
  std::vector<uint32_t> cps = CodePoints(s.substr(0, cut));
  while (!cps.empty()) {
    uint32_t next = cps.back() + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;  // skip surrogates
    if (next <= 0x10ffff) {
      cps.back() = next;
      std::string out;
      for (uint32_t cp : cps) AppendUtf8(cp, &out);
      return out;
    }
    cps.pop_back();
  }
  return std::nullopt;
}

std::optional<std::string> TruncateBinary(std::string_view s, bool upper) {
  if (s.size() <= kTruncateLength) return std::string(s);
  std::string out(s.substr(0, kTruncateLength));
  if (!upper) return out;
  while (!out.empty()) {
    if (static_cast<uint8_t>(out.back()) != 0xff) {
      out.back() = static_cast<char>(static_cast<uint8_t>(out.back()) + 1);
      return out;
    }
    out.pop_back();
  }
  return std::nullopt;
}

}  // namespace

ValueOrder ValueOrderOf(const columnar::DataType& type, PhysicalType physical) {
  switch (physical) {
    case PhysicalType::kBoolean:
      return ValueOrder::kBoolean;
    case PhysicalType::kInt32:
      return ValueOrder::kInt32;
    case PhysicalType::kInt64:
      return ValueOrder::kInt64;
    case PhysicalType::kFloat:
      return ValueOrder::kFloat;
    case PhysicalType::kDouble:
      return ValueOrder::kDouble;
    default:
      return type.id() == TypeId::kDecimal128 ? ValueOrder::kSignedBE : ValueOrder::kBytes;
  }
}

bool IsNaNRaw(ValueOrder order, std::string_view v) {
  if (order == ValueOrder::kFloat) return std::isnan(Load<float>(v));
  if (order == ValueOrder::kDouble) return std::isnan(Load<double>(v));
  return false;
}

int CompareRaw(ValueOrder order, std::string_view a, std::string_view b) {
  switch (order) {
    case ValueOrder::kBoolean:
      return Cmp<uint8_t>(Load<uint8_t>(a), Load<uint8_t>(b));
    case ValueOrder::kInt32:
      return Cmp(Load<int32_t>(a), Load<int32_t>(b));
    case ValueOrder::kInt64:
      return Cmp(Load<int64_t>(a), Load<int64_t>(b));
    case ValueOrder::kFloat:
      return Cmp(Load<float>(a), Load<float>(b));
    case ValueOrder::kDouble:
      return Cmp(Load<double>(a), Load<double>(b));
    case ValueOrder::kSignedBE: {
      // Equal widths (one FIXED_LEN_BYTE_ARRAY column): flip the sign bit, then unsigned.
      if (a.empty() || b.empty()) return Cmp(a.size(), b.size());
      uint8_t sa = static_cast<uint8_t>(a[0]) ^ 0x80, sb = static_cast<uint8_t>(b[0]) ^ 0x80;
      if (sa != sb) return sa < sb ? -1 : 1;
      return a.substr(1).compare(b.substr(1)) < 0 ? -1 : (a.substr(1) == b.substr(1) ? 0 : 1);
    }
    case ValueOrder::kBytes: {
      // std::string_view::compare uses char_traits<char>, which compares as unsigned char.
      int c = a.compare(b);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
  }
  return 0;
}

void AppendRawValue(const columnar::Column& values, int64_t row, PhysicalType physical,
                    int32_t type_length, std::string* out) {
  switch (values.type_id()) {
    case TypeId::kBoolean:
      out->push_back(values.BoolAt(row) ? 1 : 0);
      return;
    case TypeId::kInt8:
      return Store<int32_t>(values.Value<int8_t>(row), out);
    case TypeId::kInt16:
      return Store<int32_t>(values.Value<int16_t>(row), out);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return Store<int32_t>(values.Value<int32_t>(row), out);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return Store<int64_t>(values.Value<int64_t>(row), out);
    case TypeId::kFloat32:
      return Store<float>(values.Value<float>(row), out);
    case TypeId::kFloat64:
      return Store<double>(values.Value<double>(row), out);
    case TypeId::kDecimal128: {
      columnar::Decimal128 d = values.DecimalAt(row);
      if (physical == PhysicalType::kInt32) return Store<int32_t>(static_cast<int32_t>(d.low), out);
      if (physical == PhysicalType::kInt64) return Store<int64_t>(static_cast<int64_t>(d.low), out);
      return AppendBigEndian(d, type_length, out);
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view s = values.StringAt(row);
      out->append(s.data(), s.size());
      return;
    }
    default: {
      std::string_view s = values.FixedSizeBinaryAt(row);
      out->append(s.data(), s.size());
      return;
    }
  }
}

void StatisticsBuilder::Update(std::string_view raw) {
  ++non_null_;
  if (IsNaNRaw(order_, raw)) {
    ++nan_count_;
    return;
  }
  if (!has_min_max_) {
    min_.assign(raw);
    max_.assign(raw);
    has_min_max_ = true;
    return;
  }
  if (CompareRaw(order_, raw, min_) < 0) min_.assign(raw);
  if (CompareRaw(order_, raw, max_) > 0) max_.assign(raw);
}

void StatisticsBuilder::Merge(const StatisticsBuilder& other) {
  null_count_ += other.null_count_;
  nan_count_ += other.nan_count_;
  non_null_ += other.non_null_;
  if (!other.has_min_max_) return;
  if (!has_min_max_) {
    min_ = other.min_;
    max_ = other.max_;
    has_min_max_ = true;
    return;
  }
  if (CompareRaw(order_, other.min_, min_) < 0) min_ = other.min_;
  if (CompareRaw(order_, other.max_, max_) > 0) max_ = other.max_;
}

std::string StatisticsBuilder::min() const {
  if (order_ == ValueOrder::kFloat && Load<float>(min_) == 0.0f) {
    std::string out;
    Store<float>(-0.0f, &out);
    return out;
  }
  if (order_ == ValueOrder::kDouble && Load<double>(min_) == 0.0) {
    std::string out;
    Store<double>(-0.0, &out);
    return out;
  }
  return min_;
}

std::string StatisticsBuilder::max() const {
  if (order_ == ValueOrder::kFloat && Load<float>(max_) == 0.0f) {
    std::string out;
    Store<float>(0.0f, &out);
    return out;
  }
  if (order_ == ValueOrder::kDouble && Load<double>(max_) == 0.0) {
    std::string out;
    Store<double>(0.0, &out);
    return out;
  }
  return max_;
}

std::optional<std::string> IcebergBound(const columnar::DataType& type, PhysicalType physical,
                                        std::string_view raw, bool upper) {
  switch (type.id()) {
    case TypeId::kDecimal128: {
      std::string be;
      if (physical == PhysicalType::kInt32) {
        AppendBigEndian(columnar::Decimal128(Load<int32_t>(raw)), 4, &be);
      } else if (physical == PhysicalType::kInt64) {
        AppendBigEndian(columnar::Decimal128(Load<int64_t>(raw)), 8, &be);
      } else {
        be.assign(raw);
      }
      return MinimalBigEndian(be);
    }
    case TypeId::kString:
      return TruncateString(raw, upper);
    case TypeId::kBinary:
      return TruncateBinary(raw, upper);
    default:
      // Booleans (1 byte), 4-byte ints/dates, 8-byte longs/times/timestamps, floats,
      // doubles, fixed and uuid bytes: the PLAIN form already is Iceberg's form.
      return std::string(raw);
  }
}

}  // namespace sqe::parquet
