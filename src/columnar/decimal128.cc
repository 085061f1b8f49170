#include "columnar/decimal128.h"

#include <algorithm>

namespace sqe::columnar {
namespace {

using UInt128 = unsigned __int128;

UInt128 ToUnsigned(const Decimal128& d) {
  return (static_cast<UInt128>(static_cast<uint64_t>(d.high)) << 64) | d.low;
}

Decimal128 FromUnsigned(UInt128 v) {
  return Decimal128(static_cast<int64_t>(static_cast<uint64_t>(v >> 64)), static_cast<uint64_t>(v));
}

// |d| as an unsigned value; correct for the most negative value too.
UInt128 Magnitude(const Decimal128& d) {
  UInt128 bits = ToUnsigned(d);
  return d.IsNegative() ? ~bits + 1 : bits;
}

constexpr uint64_t kTenTo19 = 10'000'000'000'000'000'000ULL;

// Writes the decimal digits of `v` into the end of `buf` and returns the first one.
char* FormatUnsigned(UInt128 v, char* end) {
  char* p = end;
  // Peel 19 digits at a time so most of the work is 64-bit division.
  while (v > UINT64_MAX) {
    uint64_t chunk = static_cast<uint64_t>(v % kTenTo19);
    v /= kTenTo19;
    for (int i = 0; i < 19; ++i) {
      *--p = static_cast<char>('0' + chunk % 10);
      chunk /= 10;
    }
  }
  uint64_t rest = static_cast<uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + rest % 10);
    rest /= 10;
  } while (rest != 0);
  return p;
}

}  // namespace

Decimal128 Decimal128::PowerOfTen(int exponent) {
  UInt128 v = 1;
  for (int i = 0; i < exponent; ++i) v *= 10;
  return FromUnsigned(v);
}

bool Decimal128::FitsInPrecision(int32_t precision) const {
  if (precision >= 39) return true;
  return Magnitude(*this) < ToUnsigned(PowerOfTen(precision));
}

void Decimal128::AppendTo(int32_t scale, std::string* out) const {
  char buf[48];
  char* end = buf + sizeof(buf);
  char* digits = FormatUnsigned(Magnitude(*this), end);
  int64_t num_digits = end - digits;
  if (IsNegative()) out->push_back('-');
  if (scale <= 0) {
    out->append(digits, end);
    out->append(static_cast<size_t>(-static_cast<int64_t>(scale)), '0');
    return;
  }
  if (num_digits <= scale) {
    out->append("0.");
    out->append(static_cast<size_t>(scale - num_digits), '0');
    out->append(digits, end);
    return;
  }
  out->append(digits, end - scale);
  out->push_back('.');
  out->append(end - scale, end);
}

std::string Decimal128::ToString(int32_t scale) const {
  std::string out;
  AppendTo(scale, &out);
  return out;
}

Result<Decimal128> Decimal128::FromString(std::string_view text, int32_t scale) {
  auto invalid = [&](const char* why) {
    return Status::InvalidArgument("invalid decimal '" + std::string(text) + "': " + why);
  };
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
    negative = text[pos] == '-';
    ++pos;
  }
  UInt128 value = 0;
  int digits = 0;
  int fraction_digits = 0;
  bool seen_point = false;
  bool any_digit = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c == '.') {
      if (seen_point) return invalid("more than one decimal point");
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') return invalid("expected digits");
    any_digit = true;
    if (seen_point) {
      if (++fraction_digits > scale) return invalid("more fractional digits than the scale");
    }
    if (value != 0 || c != '0') ++digits;
    if (digits > 38) return invalid("more than 38 digits");
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (!any_digit) return invalid("no digits");
  for (int i = fraction_digits; i < scale; ++i) {
    if (value != 0 && ++digits > 38) return invalid("more than 38 digits");
    value *= 10;
  }
  return FromUnsigned(negative ? ~value + 1 : value);
}

}  // namespace sqe::columnar
