#include "iceberg/transforms.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "columnar/civil_time.h"
#include "iceberg/murmur3.h"

// GCC 12 reports the std::variant inside Literal as "maybe uninitialized" when a Literal
// is copied into a Result (a known false positive of its variant storage analysis).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace sqe::iceberg {

namespace {

constexpr int64_t kMicrosPerHour = 3600LL * 1000 * 1000;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;

using Int128 = __int128;
using UInt128 = unsigned __int128;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::string Trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool IsTimestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}

bool IsNanos(TypeId id) { return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs; }

// Microseconds from the epoch of a timestamp literal (nanoseconds floor-divided).
int64_t TimestampMicros(const Literal& v) {
  return IsNanos(v.type()) ? FloorDiv(v.int_value(), 1000) : v.int_value();
}

// Days from the epoch of a date or timestamp literal.
int64_t EpochDays(const Literal& v) {
  if (v.type() == TypeId::kDate) return v.int_value();
  return FloorDiv(TimestampMicros(v), kMicrosPerDay);
}

Result<Literal> IntResult(int64_t v, const char* what) {
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument(std::string(what) + " value " + std::to_string(v) +
                                   " does not fit an int partition value");
  }
  return Literal::Int(static_cast<int32_t>(v));
}

std::string LongBytesLE(int64_t v) {
  std::string out(8, '\0');
  uint64_t u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((u >> (8 * i)) & 0xff);
  return out;
}

int32_t HashLong(int64_t v) { return static_cast<int32_t>(Murmur3X86_32(LongBytesLE(v))); }

Int128 ToInt128(const columnar::Decimal128& d) {
  return static_cast<Int128>(static_cast<UInt128>(static_cast<uint64_t>(d.high)) << 64 |
                             static_cast<UInt128>(d.low));
}

columnar::Decimal128 FromInt128(Int128 v) {
  UInt128 u = static_cast<UInt128>(v);
  return columnar::Decimal128(static_cast<int64_t>(static_cast<uint64_t>(u >> 64)),
                              static_cast<uint64_t>(u));
}

// The fewest big-endian two's-complement bytes holding v (Java BigInteger.toByteArray).
std::string MinimalBigEndian(Int128 v) {
  UInt128 u = static_cast<UInt128>(v);
  std::string full(16, '\0');
  for (int i = 0; i < 16; ++i) full[15 - i] = static_cast<char>((u >> (8 * i)) & 0xff);
  size_t start = 0;
  // Drop a leading byte while it is pure sign extension of the next byte.
  while (start < 15) {
    auto b = static_cast<unsigned char>(full[start]);
    auto next = static_cast<unsigned char>(full[start + 1]);
    if ((b == 0x00 && (next & 0x80) == 0) || (b == 0xff && (next & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return full.substr(start);
}

// The first `width` code points of UTF-8 text (bytes that are not lead bytes belong to
// the current code point).
std::string TruncateUtf8(const std::string& s, int32_t width) {
  int64_t points = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) != 0x80) {
      if (points == width) return s.substr(0, i);
      ++points;
    }
  }
  return s;
}

}  // namespace

Result<Transform> Transform::Parse(std::string_view text) {
  std::string t = Lower(Trimmed(text));
  if (t == "identity") return Identity();
  if (t == "year") return Year();
  if (t == "month") return Month();
  if (t == "day") return Day();
  if (t == "hour") return Hour();
  if (t == "void") return Void();
  for (const char* name : {"bucket", "truncate"}) {
    std::string_view prefix(name);
    if (t.size() > prefix.size() && t.compare(0, prefix.size(), prefix) == 0 &&
        t[prefix.size()] == '[' && t.back() == ']') {
      std::string inner =
          Trimmed(std::string_view(t).substr(prefix.size() + 1, t.size() - prefix.size() - 2));
      int32_t n = 0;
      auto [ptr, ec] = std::from_chars(inner.data(), inner.data() + inner.size(), n);
      if (inner.empty() || ec != std::errc() || ptr != inner.data() + inner.size() || n <= 0) {
        return Status::InvalidArgument("invalid transform '" + std::string(text) + "': " + name +
                                       " needs a positive integer parameter");
      }
      return prefix == "bucket" ? Bucket(n) : Truncate(n);
    }
  }
  Transform unknown(TransformKind::kUnknown, 0);
  unknown.unknown_text_ = std::string(text);
  return unknown;
}

std::string Transform::ToString() const {
  switch (kind_) {
    case TransformKind::kIdentity:
      return "identity";
    case TransformKind::kBucket:
      return "bucket[" + std::to_string(param_) + "]";
    case TransformKind::kTruncate:
      return "truncate[" + std::to_string(param_) + "]";
    case TransformKind::kYear:
      return "year";
    case TransformKind::kMonth:
      return "month";
    case TransformKind::kDay:
      return "day";
    case TransformKind::kHour:
      return "hour";
    case TransformKind::kVoid:
      return "void";
    case TransformKind::kUnknown:
      return unknown_text_;
  }
  return unknown_text_;
}

bool Transform::CanTransform(const Type& source) const {
  TypeId id = source.id();
  switch (kind_) {
    case TransformKind::kIdentity:
      return source.is_primitive() && id != TypeId::kGeometry && id != TypeId::kGeography;
    case TransformKind::kBucket:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal ||
             id == TypeId::kDate || id == TypeId::kTime || IsTimestamp(id) ||
             id == TypeId::kString || id == TypeId::kUuid || id == TypeId::kFixed ||
             id == TypeId::kBinary;
    case TransformKind::kTruncate:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal ||
             id == TypeId::kString || id == TypeId::kBinary;
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay:
      return id == TypeId::kDate || IsTimestamp(id);
    case TransformKind::kHour:
      return IsTimestamp(id);
    case TransformKind::kVoid:
      return true;
    case TransformKind::kUnknown:
      return false;
  }
  return false;
}

Result<TypePtr> Transform::ResultType(const TypePtr& source) const {
  if (kind_ == TransformKind::kUnknown) {
    return Status::NotImplemented("unknown partition transform '" + unknown_text_ + "'");
  }
  if (!source || !CanTransform(*source)) {
    return Status::InvalidArgument("transform " + ToString() + " cannot be applied to type " +
                                   (source ? source->ToString() : "?"));
  }
  switch (kind_) {
    case TransformKind::kBucket:
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kHour:
      return Type::Primitive(TypeId::kInt);
    case TransformKind::kDay:
      return Type::Primitive(TypeId::kDate);
    default:
      return source;
  }
}

Result<Literal> Transform::Apply(const Literal& value) const {
  if (kind_ == TransformKind::kUnknown) {
    return Status::NotImplemented("unknown partition transform '" + unknown_text_ + "'");
  }
  if (kind_ == TransformKind::kVoid) return Literal::Null(value.type());
  // CanTransform only looks at the type id, so a parameterless stand-in type suffices.
  TypePtr stand_in = value.type() == TypeId::kDecimal ? Type::Decimal(38, value.scale())
                     : value.type() == TypeId::kFixed ? Type::Fixed(1)
                                                      : Type::Primitive(value.type());
  if (!CanTransform(*stand_in)) {
    return Status::InvalidArgument("transform " + ToString() + " cannot be applied to a " +
                                   stand_in->ToString() + " value");
  }
  if (value.is_null()) {
    TypeId result = value.type();
    if (kind_ == TransformKind::kDay) {
      result = TypeId::kDate;
    } else if (kind_ != TransformKind::kIdentity && kind_ != TransformKind::kTruncate) {
      result = TypeId::kInt;
    }
    return Literal::Null(result);
  }
  switch (kind_) {
    case TransformKind::kIdentity:
      return value;
    case TransformKind::kBucket: {
      SQE_ASSIGN_OR_RETURN(int32_t hash, HashValue(value));
      return Literal::Int((hash & std::numeric_limits<int32_t>::max()) % param_);
    }
    case TransformKind::kTruncate: {
      const int64_t w = param_;
      switch (value.type()) {
        case TypeId::kInt: {
          int64_t v = value.int_value();
          int64_t r = v - (((v % w) + w) % w);
          // Java wraps an int that falls below INT_MIN; so do we.
          return Literal::Int(static_cast<int32_t>(static_cast<uint32_t>(r)));
        }
        case TypeId::kLong: {
          Int128 v = value.int_value();
          Int128 r = v - (((v % w) + w) % w);
          return Literal::Long(static_cast<int64_t>(static_cast<uint64_t>(r)));
        }
        case TypeId::kDecimal: {
          // W applies at the value's scale: W=50 at scale 2 truncates to multiples of 0.50.
          Int128 v = ToInt128(value.decimal_value());
          Int128 rem = ((v % w) + w) % w;
          Int128 r = static_cast<Int128>(static_cast<UInt128>(v) - static_cast<UInt128>(rem));
          return Literal::Decimal(FromInt128(r), value.scale());
        }
        case TypeId::kString:
          return Literal::String(TruncateUtf8(value.bytes(), param_));
        case TypeId::kBinary:
          return Literal::Binary(value.bytes().substr(
              0, std::min<size_t>(value.bytes().size(), static_cast<size_t>(param_))));
        default:
          break;
      }
      break;
    }
    case TransformKind::kYear: {
      columnar::CivilDate d = columnar::CivilFromDays(EpochDays(value));
      return IntResult(d.year - 1970, "year");
    }
    case TransformKind::kMonth: {
      columnar::CivilDate d = columnar::CivilFromDays(EpochDays(value));
      return IntResult((d.year - 1970) * 12 + (d.month - 1), "month");
    }
    case TransformKind::kDay: {
      int64_t days = EpochDays(value);
      if (days < std::numeric_limits<int32_t>::min() ||
          days > std::numeric_limits<int32_t>::max()) {
        return Status::InvalidArgument("day value out of range");
      }
      return Literal::Date(static_cast<int32_t>(days));
    }
    case TransformKind::kHour:
      return IntResult(FloorDiv(TimestampMicros(value), kMicrosPerHour), "hour");
    default:
      break;
  }
  return Status::Internal("transform " + ToString() + " not applied");
}

Result<int32_t> HashValue(const Literal& value) {
  if (value.is_null()) return Status::InvalidArgument("null has no hash value");
  switch (value.type()) {
    case TypeId::kBoolean:
      return HashLong(value.bool_value() ? 1 : 0);
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return HashLong(value.int_value());
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      // Appendix B note 3: nanoseconds are converted to microseconds first.
      return HashLong(TimestampMicros(value));
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = value.double_value();
      uint64_t bits;
      if (std::isnan(d)) {
        bits = 0x7ff8000000000000ULL;
      } else if (d == 0.0) {
        bits = 0;  // -0.0 hashes like 0.0
      } else {
        bits = std::bit_cast<uint64_t>(d);
      }
      return HashLong(static_cast<int64_t>(bits));
    }
    case TypeId::kDecimal:
      return static_cast<int32_t>(Murmur3X86_32(MinimalBigEndian(ToInt128(value.decimal_value()))));
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return static_cast<int32_t>(Murmur3X86_32(value.bytes()));
    default:
      return Status::InvalidArgument("values of type " + Type::Primitive(value.type())->ToString() +
                                     " have no 32-bit hash");
  }
}

}  // namespace sqe::iceberg
