// CAST kernels: one typed loop per (source family, target family) pair.

#include "exec/functions/cast.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/civil_time.h"
#include "columnar/time_zone_rules.h"
#include "columnar/utf8.h"
#include "common/hex.h"
#include "exec/functions/cast_row.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::BufferPtr;
using columnar::Column;
using columnar::TimeUnit;
using columnar::TypeId;
using columnar::TypePtr;
using kernel::int128;

namespace {

constexpr int64_t kSecondsPerDay = 86400;

std::string_view Trim(std::string_view s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\n' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r')) {
    --e;
  }
  return s.substr(b, e - b);
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

bool ParseInt64(std::string_view text, int64_t* out) {
  text = Trim(text);
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool ParseDouble(std::string_view text, double* out) {
  text = Trim(text);
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (ec == std::errc::result_out_of_range) {
    // from_chars refuses to round to infinity / zero: Java's parseDouble does not.
    std::string copy(text);
    *out = std::strtod(copy.c_str(), nullptr);
    return true;
  }
  return ec == std::errc() && ptr == text.data() + text.size();
}

/// Decimal text -> unscaled value at `scale`, rounding HALF_UP; false when not a number
/// or not within `precision` digits.
bool ParseDecimal(std::string_view text, int precision, int scale, int128* out) {
  text = Trim(text);
  bool neg = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    neg = text[0] == '-';
    text.remove_prefix(1);
  }
  int128 value = 0;
  int frac_digits = 0;
  bool seen_point = false;
  bool any_digit = false;
  bool round_up = false;
  bool rounding_decided = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (seen_point) return false;
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') return false;
    any_digit = true;
    if (seen_point && frac_digits >= scale) {
      if (!rounding_decided) {
        round_up = c >= '5';
        rounding_decided = true;
      }
      continue;
    }
    if (seen_point) ++frac_digits;
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, c - '0', &value)) {
      return false;
    }
  }
  if (!any_digit) return false;
  for (; frac_digits < scale; ++frac_digits) {
    if (__builtin_mul_overflow(value, 10, &value)) return false;
  }
  if (round_up) value += 1;
  if (neg) value = -value;
  if (!kernel::FitsPrecision(value, precision)) return false;
  *out = value;
  return true;
}

// -- floating point text ---------------------------------------------------------------

/// The parts of printf/to_chars scientific text "-1.2345e-05": sign, significant digits
/// without the point and trailing zeros ("12345", at least one digit), decimal exponent.
struct Scientific {
  bool negative = false;
  std::string digits;
  int exponent = 0;
};

Scientific SplitScientific(std::string_view sci) {
  Scientific out;
  if (!sci.empty() && sci[0] == '-') {
    out.negative = true;
    sci.remove_prefix(1);
  }
  const size_t e_pos = sci.find_first_of("eE");
  for (char c : sci.substr(0, e_pos)) {
    if (c != '.') out.digits.push_back(c);
  }
  if (e_pos != std::string_view::npos) {
    std::string_view exp_text = sci.substr(e_pos + 1);
    if (!exp_text.empty() && exp_text[0] == '+') exp_text.remove_prefix(1);
    std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), out.exponent);
  }
  while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
  return out;
}

/// The shortest digits that read back as v.
template <typename F>
Scientific ShortestDigits(F v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  return SplitScientific(std::string_view(buf, res.ptr - buf));
}

/// Java's Double.toString / Float.toString: plain between 1e-3 and 1e7, else d.dddE±n.
template <typename F>
std::string FormatJava(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  const Scientific sci = ShortestDigits(v);
  const std::string& digits = sci.digits;
  const int exp = sci.exponent;
  std::string out = sci.negative ? "-" : "";
  const double mag = std::fabs(static_cast<double>(v));
  if (mag >= 1e-3 && mag < 1e7) {
    if (exp >= 0) {
      std::string int_part = digits.substr(0, std::min<size_t>(digits.size(), exp + 1));
      while (static_cast<int>(int_part.size()) < exp + 1) int_part.push_back('0');
      std::string frac =
          digits.size() > static_cast<size_t>(exp + 1) ? digits.substr(exp + 1) : "0";
      out += int_part + "." + frac;
    } else {
      out += "0." + std::string(-exp - 1, '0') + digits;
    }
  } else {
    out += digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" +
           std::to_string(exp);
  }
  return out;
}

/// Trino's CAST(double|real AS varchar) text for a finite non-zero value: one integer
/// digit, at least one fraction digit, "E" and the exponent without '+' ("1.5E0",
/// "1.0E10", "-2.5E-4").
std::string TrinoScientificText(const Scientific& sci) {
  std::string out = sci.negative ? "-" : "";
  out += sci.digits[0];
  out += '.';
  out += sci.digits.size() > 1 ? std::string_view(sci.digits).substr(1) : "0";
  out += 'E';
  out += std::to_string(sci.exponent);
  return out;
}

/// The texts Trino gives the values that have no digits; nullopt for the others.
template <typename F>
std::optional<std::string> SpecialVarcharText(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0E0" : "0E0";
  return std::nullopt;
}

// -- date and time text ---------------------------------------------------------------

bool ParseFixedDigits(std::string_view s, size_t pos, size_t n, int64_t* out) {
  if (pos + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

int DaysInMonth(int64_t year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2) {
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return leap ? 29 : 28;
  }
  return kDays[month - 1];
}

/// Parses "YYYY-MM-DD" at the start of s (1-4+ digit years, optional sign); *consumed
/// gets its length.
bool ParseDatePrefix(std::string_view s, int64_t* days, size_t* consumed) {
  size_t pos = 0;
  bool neg = false;
  if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) {
    neg = s[pos] == '-';
    ++pos;
  }
  size_t year_start = pos;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
  const size_t year_len = pos - year_start;
  if (year_len < 1 || year_len > 9) return false;
  int64_t year = 0;
  ParseFixedDigits(s, year_start, year_len, &year);
  if (neg) year = -year;
  if (pos >= s.size() || s[pos] != '-') return false;
  ++pos;
  // Month and day: one or two digits each.
  int64_t month = 0;
  int64_t day = 0;
  auto read_small = [&](int64_t* v) {
    size_t start = pos;
    while (pos < s.size() && pos - start < 2 && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return false;
    ParseFixedDigits(s, start, pos - start, v);
    return true;
  };
  if (!read_small(&month)) return false;
  if (pos >= s.size() || s[pos] != '-') return false;
  ++pos;
  if (!read_small(&day)) return false;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, static_cast<int>(month))) {
    return false;
  }
  *days = columnar::DaysFromCivil(year, static_cast<int32_t>(month), static_cast<int32_t>(day));
  *consumed = pos;
  return true;
}

/// "HH:MM[:SS[.fffffffff]]" at the start of s -> nanoseconds since midnight.
bool ParseTimePrefix(std::string_view s, int64_t* nanos, size_t* consumed) {
  int64_t h = 0;
  int64_t m = 0;
  int64_t sec = 0;
  int64_t frac = 0;
  size_t pos = 0;
  auto read2 = [&](int64_t* v) {
    size_t start = pos;
    while (pos < s.size() && pos - start < 2 && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return false;
    ParseFixedDigits(s, start, pos - start, v);
    return true;
  };
  if (!read2(&h)) return false;
  if (pos >= s.size() || s[pos] != ':') return false;
  ++pos;
  if (!read2(&m)) return false;
  if (pos < s.size() && s[pos] == ':') {
    ++pos;
    if (!read2(&sec)) return false;
    if (pos < s.size() && s[pos] == '.') {
      ++pos;
      size_t start = pos;
      while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
      const size_t n = pos - start;
      if (n == 0 || n > 12) return false;
      int64_t scale = 100'000'000;
      for (size_t i = 0; i < n; ++i) {
        if (i < 9) frac += (s[start + i] - '0') * scale;
        scale /= 10;
      }
    }
  }
  if (h > 23 || m > 59 || sec > 59) return false;
  *nanos = ((h * 60 + m) * 60 + sec) * 1'000'000'000 + frac;
  *consumed = pos;
  return true;
}

bool ParseZone(std::string_view zone, int64_t* offset_seconds) {
  zone = Trim(zone);
  if (zone.empty()) return false;
  if (EqualsIgnoreCase(zone, "UTC") || EqualsIgnoreCase(zone, "Z") ||
      EqualsIgnoreCase(zone, "GMT") || EqualsIgnoreCase(zone, "Etc/UTC") ||
      EqualsIgnoreCase(zone, "UT")) {
    *offset_seconds = 0;
    return true;
  }
  if (zone.size() >= 3 && EqualsIgnoreCase(zone.substr(0, 3), "UTC")) zone.remove_prefix(3);
  if (zone[0] != '+' && zone[0] != '-') return false;
  const int64_t sign = zone[0] == '-' ? -1 : 1;
  zone.remove_prefix(1);
  int64_t h = 0;
  int64_t m = 0;
  if (zone.size() == 5 && zone[2] == ':') {
    if (!ParseFixedDigits(zone, 0, 2, &h) || !ParseFixedDigits(zone, 3, 2, &m)) return false;
  } else if (zone.size() == 4) {
    if (!ParseFixedDigits(zone, 0, 2, &h) || !ParseFixedDigits(zone, 2, 2, &m)) return false;
  } else if (zone.size() == 2 || zone.size() == 1) {
    if (!ParseFixedDigits(zone, 0, zone.size(), &h)) return false;
  } else {
    return false;
  }
  if (h > 18 || m > 59) return false;
  *offset_seconds = sign * (h * 3600 + m * 60);
  return true;
}

}  // namespace

std::string FormatDouble(double value) { return FormatJava(value); }
std::string FormatReal(float value) { return FormatJava(value); }

std::string DoubleToVarchar(double value) {
  if (auto special = SpecialVarcharText(value)) return *special;
  // Up to 21 significant digits are kept, more than the 17 a double ever needs: the shortest
  // round-trip digits are the text.
  return TrinoScientificText(ShortestDigits(value));
}

std::string RealToVarchar(float value) {
  if (auto special = SpecialVarcharText(value)) return *special;
  // Trino reads the real's shortest text back as a double and keeps 7 significant digits,
  // rounded half to even on that double's exact value (what printf's rounding does).
  const Scientific shortest = ShortestDigits(value);
  const std::string text = std::string(shortest.negative ? "-" : "") + shortest.digits[0] + "." +
                           shortest.digits.substr(1) + "e" + std::to_string(shortest.exponent);
  const double widened = std::strtod(text.c_str(), nullptr);
  char buf[64];
  const int n = std::snprintf(buf, sizeof(buf), "%.6e", widened);
  return TrinoScientificText(SplitScientific(std::string_view(buf, static_cast<size_t>(n))));
}

bool ParseDate(std::string_view text, int64_t* days) {
  text = Trim(text);
  size_t consumed = 0;
  return ParseDatePrefix(text, days, &consumed) && consumed == text.size();
}

bool ParseTime(std::string_view text, TimeUnit unit, int64_t* ticks) {
  text = Trim(text);
  int64_t nanos = 0;
  size_t consumed = 0;
  if (!ParseTimePrefix(text, &nanos, &consumed) || consumed != text.size()) return false;
  *ticks = unit == TimeUnit::kNano ? nanos : nanos / 1000;
  return true;
}

bool ParseTimestamp(std::string_view text, TimeUnit unit, int64_t* ticks, bool* has_zone,
                    int64_t* offset_seconds) {
  text = Trim(text);
  int64_t days = 0;
  size_t pos = 0;
  if (!ParseDatePrefix(text, &days, &pos)) return false;
  int64_t nanos = 0;
  if (pos < text.size() && (text[pos] == ' ' || text[pos] == 'T')) {
    std::string_view rest = text.substr(pos + 1);
    size_t consumed = 0;
    if (ParseTimePrefix(rest, &nanos, &consumed)) {
      pos += 1 + consumed;
    } else if (text[pos] == 'T') {
      return false;
    }
  }
  *has_zone = false;
  *offset_seconds = 0;
  if (pos < text.size()) {
    if (!ParseZone(text.substr(pos), offset_seconds)) return false;
    *has_zone = true;
  }
  const int64_t per_second = columnar::TicksPerSecond(unit);
  const int64_t sub = unit == TimeUnit::kNano ? nanos : nanos / 1000;
  int64_t t = 0;
  if (__builtin_mul_overflow(days, kSecondsPerDay * per_second, &t) ||
      __builtin_add_overflow(t, sub, &t)) {
    return false;
  }
  *ticks = t;
  return true;
}

int64_t ZoneOffsetSeconds(std::string_view zone) {
  int64_t offset = 0;
  return ParseZone(zone, &offset) ? offset : 0;
}

namespace {

// -- the cast drivers -------------------------------------------------------------------

/// Shared state of one cast: validity copied from the input, nulls added by try_cast.
class CastRun {
 public:
  CastRun(const Column& in, const TypePtr& to, bool try_cast, const EvalContext& ctx)
      : in_(in), to_(to), try_(try_cast), ctx_(ctx), rows_(in.length()) {}

  Status Init() {
    SQE_ASSIGN_OR_RETURN(BufferPtr v, kernel::IntersectValidity({&in_}, rows_, ctx_, &nulls_));
    if (v != nullptr) {
      SQE_ASSIGN_OR_RETURN(validity_, kernel::AllocateBuffer(v->size(), ctx_));
      std::memcpy(validity_->mutable_data(), v->data(), v->size());
    }
    return Status::OK();
  }
  bool Valid(int64_t i) const {
    return validity_ == nullptr || columnar::GetBit(validity_->data(), i);
  }
  /// A failed row: NULL under try_cast, else the error.
  Status Fail(int64_t i, const std::string& message) {
    if (!try_) return Status::InvalidArgument(message);
    if (validity_ == nullptr) {
      SQE_ASSIGN_OR_RETURN(validity_, kernel::AllocateBuffer(columnar::BytesForBits(rows_), ctx_));
      columnar::SetBitsTo(validity_->mutable_data(), 0, rows_, true);
    }
    columnar::ClearBit(validity_->mutable_data(), i);
    ++nulls_;
    return Status::OK();
  }
  int64_t rows() const { return rows_; }
  BufferPtr validity() const { return nulls_ == 0 ? nullptr : validity_; }
  int64_t nulls() const { return nulls_; }
  const Column& in() const { return in_; }
  const TypePtr& to() const { return to_; }
  const EvalContext& ctx() const { return ctx_; }

 private:
  const Column& in_;
  const TypePtr& to_;
  bool try_;
  const EvalContext& ctx_;
  int64_t rows_;
  int64_t nulls_ = 0;
  std::shared_ptr<columnar::Buffer> validity_;
};

/// Fixed-width result: conv(i, Out*) returns "" on success or the error message.
template <typename Out, typename Conv>
Result<Column> CastToFixed(CastRun& run, Conv&& conv) {
  SQE_RETURN_NOT_OK(run.Init());
  const int64_t rows = run.rows();
  SQE_ASSIGN_OR_RETURN(auto values,
                       kernel::AllocateBuffer(rows * static_cast<int64_t>(sizeof(Out)), run.ctx()));
  Out* out = values->template mutable_data_as<Out>();
  std::string err;
  for (int64_t i = 0; i < rows; ++i) {
    if (!run.Valid(i)) continue;
    if (!conv(i, &out[i], &err)) {
      out[i] = Out{};
      SQE_RETURN_NOT_OK(run.Fail(i, err));
    }
  }
  return kernel::MakeFixed(run.to(), rows, run.validity(), run.nulls(), std::move(values));
}

template <typename Conv>
Result<Column> CastToBoolean(CastRun& run, Conv&& conv) {
  SQE_RETURN_NOT_OK(run.Init());
  const int64_t rows = run.rows();
  SQE_ASSIGN_OR_RETURN(auto bits, kernel::AllocateBuffer(columnar::BytesForBits(rows), run.ctx()));
  std::string err;
  for (int64_t i = 0; i < rows; ++i) {
    if (!run.Valid(i)) continue;
    bool v = false;
    if (!conv(i, &v, &err)) {
      SQE_RETURN_NOT_OK(run.Fail(i, err));
    } else if (v) {
      columnar::SetBit(bits->mutable_data(), i);
    }
  }
  return Column::Make(columnar::Boolean(), rows, {run.validity(), std::move(bits)}, {},
                      run.nulls());
}

template <typename Conv>
Result<Column> CastToString(CastRun& run, Conv&& conv) {
  SQE_RETURN_NOT_OK(run.Init());
  const int64_t rows = run.rows();
  columnar::BinaryBuilder builder(run.to(), run.ctx().tracker);
  SQE_RETURN_NOT_OK(builder.Reserve(rows));
  std::string text;
  std::string err;
  for (int64_t i = 0; i < rows; ++i) {
    if (!run.Valid(i)) {
      SQE_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    text.clear();
    if (!conv(i, &text, &err)) {
      SQE_RETURN_NOT_OK(run.Fail(i, err));
      SQE_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    SQE_RETURN_NOT_OK(builder.Append(text));
  }
  return builder.Finish();
}

/// Reads row i of a numeric column as int128 (integers, decimals: unscaled), double
/// (floats) or bool.
struct NumericReader {
  const Column& c;
  TypeId id;
  int scale;  // decimal scale, 0 for integers
  bool is_float() const { return id == TypeId::kFloat32 || id == TypeId::kFloat64; }
  bool is_bool() const { return id == TypeId::kBoolean; }
  int128 Int(int64_t i) const {
    switch (id) {
      case TypeId::kInt8:
        return c.Value<int8_t>(i);
      case TypeId::kInt16:
        return c.Value<int16_t>(i);
      case TypeId::kInt32:
        return c.Value<int32_t>(i);
      case TypeId::kInt64:
        return c.Value<int64_t>(i);
      case TypeId::kDecimal128:
        return kernel::ToInt128(c.DecimalAt(i));
      case TypeId::kBoolean:
        return c.BoolAt(i) ? 1 : 0;
      default:
        return 0;
    }
  }
  double Double(int64_t i) const {
    if (id == TypeId::kFloat32) return c.Value<float>(i);
    if (id == TypeId::kFloat64) return c.Value<double>(i);
    if (id == TypeId::kDecimal128) {
      return static_cast<double>(static_cast<long double>(Int(i)) /
                                 static_cast<long double>(kernel::Pow10(scale)));
    }
    return static_cast<double>(Int(i));
  }
  /// Text of the source value for error messages.
  std::string Text(int64_t i) const {
    if (id == TypeId::kFloat64) return FormatDouble(c.Value<double>(i));
    if (id == TypeId::kFloat32) return FormatReal(c.Value<float>(i));
    if (id == TypeId::kDecimal128) return c.DecimalAt(i).ToString(scale);
    if (id == TypeId::kBoolean) return c.BoolAt(i) ? "true" : "false";
    return kernel::Int128ToString(Int(i));
  }
};

bool IsNumeric(TypeId id) {
  return (id >= TypeId::kInt8 && id <= TypeId::kDecimal128) || id == TypeId::kBoolean;
}

template <typename T>
Result<Column> CastToInteger(CastRun& run) {
  const Column& in = run.in();
  const TypeId from = in.type_id();
  const std::string type_name = run.to()->ToString();
  constexpr int128 kMin = std::numeric_limits<T>::min();
  constexpr int128 kMax = std::numeric_limits<T>::max();
  if (IsNumeric(from) || from == TypeId::kFloat32 || from == TypeId::kFloat64) {
    NumericReader r{in, from, in.type()->scale()};
    return CastToFixed<T>(run, [&](int64_t i, T* out, std::string* err) {
      int128 v;
      if (r.is_float()) {
        const double d = r.Double(i);
        const double rounded = std::round(d);  // half away from zero
        // -kMin is 2^(bits-1), the first integral value past kMax.
        if (std::isnan(d) || rounded < static_cast<double>(kMin) ||
            rounded >= -static_cast<double>(kMin)) {
          *err = "Out of range for " + type_name + ": " + r.Text(i);
          return false;
        }
        v = static_cast<int128>(rounded);
      } else if (from == TypeId::kDecimal128) {
        v = kernel::DivPow10Round(r.Int(i), r.scale);
      } else {
        v = r.Int(i);
      }
      if (v < kMin || v > kMax) {
        *err = "Out of range for " + type_name + ": " + r.Text(i);
        return false;
      }
      *out = static_cast<T>(v);
      return true;
    });
  }
  if (from == TypeId::kString) {
    return CastToFixed<T>(run, [&](int64_t i, T* out, std::string* err) {
      int64_t v = 0;
      const std::string_view s = in.StringAt(i);
      if (!ParseInt64(s, &v) || v < kMin || v > kMax) {
        *err = "Cannot cast " + Quote(s) + " to " + kernel::UpperTypeName(run.to());
        return false;
      }
      *out = static_cast<T>(v);
      return true;
    });
  }
  return Status::NotImplemented("cannot cast " + in.type()->ToString() + " to " + type_name);
}

template <typename F>
Result<Column> CastToFloating(CastRun& run) {
  const Column& in = run.in();
  const TypeId from = in.type_id();
  if (IsNumeric(from) || from == TypeId::kFloat32 || from == TypeId::kFloat64) {
    NumericReader r{in, from, in.type()->scale()};
    return CastToFixed<F>(run, [&](int64_t i, F* out, std::string*) {
      *out = static_cast<F>(r.is_float()                  ? r.Double(i)
                            : from == TypeId::kDecimal128 ? r.Double(i)
                                                          : static_cast<double>(r.Int(i)));
      return true;
    });
  }
  if (from == TypeId::kString) {
    return CastToFixed<F>(run, [&](int64_t i, F* out, std::string* err) {
      double v = 0;
      const std::string_view s = in.StringAt(i);
      if (!ParseDouble(s, &v)) {
        *err = "Cannot cast " + Quote(s) + " to " + kernel::UpperTypeName(run.to());
        return false;
      }
      *out = static_cast<F>(v);
      return true;
    });
  }
  return Status::NotImplemented("cannot cast " + in.type()->ToString() + " to " +
                                run.to()->ToString());
}

Result<Column> CastToDecimal(CastRun& run) {
  const Column& in = run.in();
  const TypeId from = in.type_id();
  const int p = run.to()->precision();
  const int s = run.to()->scale();
  auto overflow = [&](const std::string& text) {
    return "Cannot cast " + kernel::UpperTypeName(run.in().type()) + " '" + text + "' to " +
           kernel::UpperTypeName(run.to());
  };
  if (from == TypeId::kFloat32 || from == TypeId::kFloat64) {
    NumericReader r{in, from, 0};
    return CastToFixed<columnar::Decimal128>(run, [&](int64_t i, columnar::Decimal128* out,
                                                      std::string* err) {
      const double d = r.Double(i);
      const long double scaled =
          std::round(static_cast<long double>(d) * static_cast<long double>(kernel::Pow10(s)));
      if (!std::isfinite(d) || std::fabs(scaled) >= static_cast<long double>(kernel::Pow10(p))) {
        *err = overflow(r.Text(i));
        return false;
      }
      *out = kernel::FromInt128(static_cast<int128>(scaled));
      return true;
    });
  }
  if (IsNumeric(from)) {
    const int from_scale = from == TypeId::kDecimal128 ? in.type()->scale() : 0;
    NumericReader r{in, from, from_scale};
    return CastToFixed<columnar::Decimal128>(
        run, [&](int64_t i, columnar::Decimal128* out, std::string* err) {
          int128 v = r.Int(i);
          if (s >= from_scale) {
            if (!kernel::MulPow10(v, s - from_scale, &v)) {
              *err = overflow(r.Text(i));
              return false;
            }
          } else {
            v = kernel::DivPow10Round(v, from_scale - s);
          }
          if (!kernel::FitsPrecision(v, p)) {
            *err = overflow(r.Text(i));
            return false;
          }
          *out = kernel::FromInt128(v);
          return true;
        });
  }
  if (from == TypeId::kString) {
    return CastToFixed<columnar::Decimal128>(
        run, [&](int64_t i, columnar::Decimal128* out, std::string* err) {
          int128 v = 0;
          const std::string_view text = in.StringAt(i);
          if (!ParseDecimal(text, p, s, &v)) {
            *err = "Cannot cast " + Quote(text) + " to " + kernel::UpperTypeName(run.to());
            return false;
          }
          *out = kernel::FromInt128(v);
          return true;
        });
  }
  return Status::NotImplemented("cannot cast " + in.type()->ToString() + " to " +
                                run.to()->ToString());
}

Result<Column> CastToBool(CastRun& run) {
  const Column& in = run.in();
  const TypeId from = in.type_id();
  if (IsNumeric(from) || from == TypeId::kFloat32 || from == TypeId::kFloat64) {
    NumericReader r{in, from, 0};
    return CastToBoolean(run, [&](int64_t i, bool* out, std::string*) {
      *out = r.is_float() ? r.Double(i) != 0 : r.Int(i) != 0;
      return true;
    });
  }
  if (from == TypeId::kString) {
    return CastToBoolean(run, [&](int64_t i, bool* out, std::string* err) {
      const std::string_view raw = in.StringAt(i);
      const std::string_view s = Trim(raw);
      if (EqualsIgnoreCase(s, "true") || EqualsIgnoreCase(s, "t") || s == "1") {
        *out = true;
      } else if (EqualsIgnoreCase(s, "false") || EqualsIgnoreCase(s, "f") || s == "0") {
        *out = false;
      } else {
        *err = "Cannot cast " + Quote(raw) + " to BOOLEAN";
        return false;
      }
      return true;
    });
  }
  return Status::NotImplemented("cannot cast " + in.type()->ToString() + " to boolean");
}

Result<Column> CastToVarchar(CastRun& run, const EvalContext& ctx) {
  const Column& in = run.in();
  const TypePtr& type = in.type();
  switch (type->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
      return CastToString(run, [&](int64_t i, std::string* out, std::string* err) {
        const std::string_view v = in.StringAt(i);
        if (type->id() == TypeId::kBinary && !columnar::IsValidUtf8(v)) {
          *err = "Cannot cast varbinary to VARCHAR: not valid UTF-8";
          return false;
        }
        out->assign(v);
        return true;
      });
    case TypeId::kBoolean:
      return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
        out->assign(in.BoolAt(i) ? "true" : "false");
        return true;
      });
    case TypeId::kFloat64:
      return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
        *out = DoubleToVarchar(in.Value<double>(i));
        return true;
      });
    case TypeId::kFloat32:
      return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
        *out = RealToVarchar(in.Value<float>(i));
        return true;
      });
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kDecimal128: {
      NumericReader r{in, type->id(), type->scale()};
      return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
        *out = r.Text(i);
        return true;
      });
    }
    case TypeId::kDate32:
      return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
        columnar::AppendDate(in.Value<int32_t>(i), out);
        return true;
      });
    case TypeId::kTime64:
      return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
        columnar::AppendTimeOfDay(in.Value<int64_t>(i), type->unit(), out);
        return true;
      });
    case TypeId::kTimestamp: {
      // A timestamp with time zone shows its wall-clock time and zone name, as Trino.
      const bool tz = type->has_timezone();
      return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
        if (tz) {
          columnar::AppendZonedTimestamp(in.Value<int64_t>(i), *type, out);
        } else {
          columnar::AppendTimestamp(in.Value<int64_t>(i), type->unit(), out);
        }
        return true;
      });
    }
    case TypeId::kUuid:
      return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
        AppendUuidText(in.FixedSizeBinaryAt(i), out);
        return true;
      });
    default:
      break;
  }
  (void)ctx;
  return Status::NotImplemented("cannot cast " + type->ToString() + " to varchar");
}

/// Ticks of `from` as ticks of `to`; false when they do not fit (micro -> nano past 2262).
bool RescaleTicks(int64_t v, TimeUnit from, TimeUnit to, int64_t* out) {
  if (from == to) {
    *out = v;
    return true;
  }
  if (from == TimeUnit::kMicro) return !__builtin_mul_overflow(v, int64_t{1000}, out);
  // nano -> micro: round half up (Trino rounds when lowering precision).
  *out = FloorDiv(v, 1000) + (FloorMod(v, 1000) >= 500 ? 1 : 0);
  return true;
}

std::string OutOfRange(const TypePtr& to) {
  return "Value out of range for " + kernel::UpperTypeName(to);
}

Result<Column> CastToDate(CastRun& run) {
  const Column& in = run.in();
  const TypePtr& type = in.type();
  if (type->id() == TypeId::kString) {
    return CastToFixed<int32_t>(run, [&](int64_t i, int32_t* out, std::string* err) {
      int64_t days = 0;
      const std::string_view s = in.StringAt(i);
      if (!ParseDate(s, &days)) {
        *err = "Value cannot be cast to date: " + std::string(s);
        return false;
      }
      *out = static_cast<int32_t>(days);
      return true;
    });
  }
  if (type->id() == TypeId::kTimestamp) {
    // A timestamp with time zone gives the date of its wall-clock time in its zone.
    const int64_t per_second = columnar::TicksPerSecond(type->unit());
    const int64_t per_day = kSecondsPerDay * per_second;
    const auto zone = type->has_timezone() ? columnar::ZoneRulesOf(*type) : nullptr;
    return CastToFixed<int32_t>(run, [&](int64_t i, int32_t* out, std::string*) {
      const int64_t v = in.Value<int64_t>(i);
      *out = static_cast<int32_t>(FloorDiv(zone ? zone->ToLocal(v, per_second) : v, per_day));
      return true;
    });
  }
  return Status::NotImplemented("cannot cast " + type->ToString() + " to date");
}

Result<Column> CastToTimestamp(CastRun& run, const EvalContext& ctx) {
  const Column& in = run.in();
  const TypePtr& type = in.type();
  const TypePtr& to = run.to();
  const int64_t per_second = columnar::TicksPerSecond(to->unit());
  // A timestamp (or date) given a zone is wall-clock time in the session's zone; a
  // timestamp with time zone losing its zone keeps the wall-clock time of its own zone (as
  // Trino); between zones the instant stays. Values are UTC ticks either way.
  std::shared_ptr<const columnar::TimeZoneRules> session;
  if (to->has_timezone() && !(type->id() == TypeId::kTimestamp && type->has_timezone())) {
    auto rules = columnar::TimeZoneRules::Load(ctx.time_zone);
    session = rules.ok() ? *rules : columnar::ZoneRulesOf(*columnar::Timestamp());  // UTC
  }
  if (type->id() == TypeId::kDate32) {
    return CastToFixed<int64_t>(run, [&](int64_t i, int64_t* out, std::string* err) {
      if (__builtin_mul_overflow(int64_t{in.Value<int32_t>(i)}, kSecondsPerDay * per_second, out)) {
        *err = OutOfRange(to);
        return false;
      }
      if (session) *out = session->FromLocal(*out, per_second);
      return true;
    });
  }
  if (type->id() == TypeId::kTimestamp) {
    const auto own =
        type->has_timezone() && !to->has_timezone() ? columnar::ZoneRulesOf(*type) : nullptr;
    return CastToFixed<int64_t>(run, [&](int64_t i, int64_t* out, std::string* err) {
      if (!RescaleTicks(in.Value<int64_t>(i), type->unit(), to->unit(), out)) {
        *err = OutOfRange(to);
        return false;
      }
      if (own) *out = own->ToLocal(*out, per_second);
      if (session) *out = session->FromLocal(*out, per_second);
      return true;
    });
  }
  if (type->id() == TypeId::kString) {
    return CastToFixed<int64_t>(run, [&](int64_t i, int64_t* out, std::string* err) {
      const std::string_view s = in.StringAt(i);
      int64_t ticks = 0;
      bool has_zone = false;
      int64_t offset = 0;
      std::shared_ptr<const columnar::TimeZoneRules> named;
      if (!ParseTimestamp(s, to->unit(), &ticks, &has_zone, &offset)) {
        // 'yyyy-mm-dd hh:mm:ss America/New_York': an IANA zone name after the last space.
        const size_t space = s.find_last_of(' ');
        bool inner_zone = false;
        if (!to->has_timezone() || space == std::string_view::npos ||
            !ParseTimestamp(s.substr(0, space), to->unit(), &ticks, &inner_zone, &offset) ||
            inner_zone) {
          *err = "Value cannot be cast to timestamp: " + std::string(s);
          return false;
        }
        auto rules = columnar::TimeZoneRules::Load(s.substr(space + 1));
        if (!rules.ok()) {
          *err = rules.status().message();
          return false;
        }
        named = *rules;
      } else if (has_zone && !to->has_timezone()) {
        *err = "Value cannot be cast to timestamp: " + std::string(s);
        return false;
      }
      if (named) {
        ticks = named->FromLocal(ticks, per_second);
      } else if (has_zone) {
        ticks -= offset * per_second;
      } else if (session) {
        ticks = session->FromLocal(ticks, per_second);
      }
      *out = ticks;
      return true;
    });
  }
  return Status::NotImplemented("cannot cast " + type->ToString() + " to " + to->ToString());
}

Result<Column> CastToTime(CastRun& run) {
  const Column& in = run.in();
  const TypePtr& type = in.type();
  const TypePtr& to = run.to();
  if (type->id() == TypeId::kString) {
    return CastToFixed<int64_t>(run, [&](int64_t i, int64_t* out, std::string* err) {
      const std::string_view s = in.StringAt(i);
      if (!ParseTime(s, to->unit(), out)) {
        *err = "Value cannot be cast to time: " + std::string(s);
        return false;
      }
      return true;
    });
  }
  if (type->id() == TypeId::kTime64 || type->id() == TypeId::kTimestamp) {
    const int64_t per_day = kSecondsPerDay * columnar::TicksPerSecond(to->unit());
    // A timestamp with time zone gives the time of day of its wall-clock time.
    const auto zone = type->id() == TypeId::kTimestamp && type->has_timezone()
                          ? columnar::ZoneRulesOf(*type)
                          : nullptr;
    const int64_t from_second = columnar::TicksPerSecond(type->unit());
    return CastToFixed<int64_t>(run, [&](int64_t i, int64_t* out, std::string*) {
      // Only the time of day matters: wrap to one day before changing the unit.
      const int64_t from_day = kSecondsPerDay * from_second;
      const int64_t v = in.Value<int64_t>(i);
      int64_t tod = 0;
      RescaleTicks(FloorMod(zone ? zone->ToLocal(v, from_second) : v, from_day), type->unit(),
                   to->unit(), &tod);
      *out = FloorMod(tod, per_day);
      return true;
    });
  }
  return Status::NotImplemented("cannot cast " + type->ToString() + " to " + to->ToString());
}

Result<Column> CastToUuid(CastRun& run) {
  const Column& in = run.in();
  if (in.type_id() != TypeId::kString) {
    return Status::NotImplemented("cannot cast " + in.type()->ToString() + " to uuid");
  }
  SQE_RETURN_NOT_OK(run.Init());
  const int64_t rows = run.rows();
  SQE_ASSIGN_OR_RETURN(auto values, kernel::AllocateBuffer(rows * 16, run.ctx()));
  uint8_t* out = values->mutable_data();
  for (int64_t i = 0; i < rows; ++i) {
    if (!run.Valid(i)) continue;
    const std::string_view s = Trim(in.StringAt(i));
    int n = 0;
    bool ok = s.size() == 36;
    for (size_t k = 0; ok && k < s.size(); ++k) {
      if (k == 8 || k == 13 || k == 18 || k == 23) {
        ok = s[k] == '-';
        continue;
      }
      const int h = HexDigitValue(s[k]);
      if (h < 0) {
        ok = false;
        break;
      }
      if (n % 2 == 0) {
        out[i * 16 + n / 2] = static_cast<uint8_t>(h << 4);
      } else {
        out[i * 16 + n / 2] |= static_cast<uint8_t>(h);
      }
      ++n;
    }
    if (!ok) {
      std::memset(out + i * 16, 0, 16);
      SQE_RETURN_NOT_OK(run.Fail(i, "Cannot cast " + Quote(in.StringAt(i)) + " to UUID"));
    }
  }
  return kernel::MakeFixed(run.to(), rows, run.validity(), run.nulls(), std::move(values));
}

Result<Column> CastToVarbinary(CastRun& run) {
  const Column& in = run.in();
  if (in.type_id() == TypeId::kString || in.type_id() == TypeId::kBinary) {
    return Column::Make(columnar::Binary(), in.length(), in.buffers(), {}, in.null_count(),
                        in.offset());
  }
  if (in.type_id() == TypeId::kFixedSizeBinary || in.type_id() == TypeId::kUuid) {
    return CastToString(run, [&](int64_t i, std::string* out, std::string*) {
      out->assign(in.FixedSizeBinaryAt(i));
      return true;
    });
  }
  return Status::NotImplemented("cannot cast " + in.type()->ToString() + " to varbinary");
}

/// CAST(array(A) AS array(B)): each element cast as CAST(A AS B). The elements are cast
/// once with try semantics so a failure can be traced to its row and position: plain CAST
/// reports the first failing element of a non-null row (its own message plus its
/// position), TRY_CAST makes the whole array NULL as Trino's TRY does.
Result<Column> CastArray(const Column& in, const TypePtr& to, bool try_cast,
                         const EvalContext& ctx) {
  if (in.type_id() != TypeId::kList || !CanCast(in.type(), to)) {
    return Status::NotImplemented("cannot cast " + in.type()->ToString() + " to " + to->ToString());
  }
  const Column& elements = in.ListValues();
  const TypePtr& element_type = to->value_field().type();
  SQE_ASSIGN_OR_RETURN(Column cast, CastColumn(elements, element_type, true, ctx));
  const int64_t rows = in.length();
  std::vector<int64_t> failed_rows;
  for (int64_t i = 0; i < rows; ++i) {
    if (in.IsNull(i)) continue;
    const int64_t start = in.ListStart(i);
    for (int64_t k = 0; k < in.ListLength(i); ++k) {
      if (elements.IsNull(start + k) || !cast.IsNull(start + k)) continue;
      if (try_cast) {
        failed_rows.push_back(i);
        break;
      }
      // Cast the one element again without try to get its own message.
      Result<Column> alone = CastColumn(elements.Slice(start + k, 1), element_type, false, ctx);
      std::string why = alone.ok() ? "Cannot cast element to " + element_type->ToString()
                                   : alone.status().message();
      return Status::InvalidArgument(why + " (array element " + std::to_string(k + 1) +
                                     ", casting " + in.type()->ToString() + " to " +
                                     to->ToString() + ")");
    }
  }
  SQE_ASSIGN_OR_RETURN(Column out, Column::Make(to, rows, in.buffers(), {std::move(cast)},
                                                in.null_count(), in.offset()));
  if (failed_rows.empty()) return out;
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(BufferPtr shared, kernel::IntersectValidity({&in}, rows, ctx, &nulls));
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  if (shared != nullptr) {
    std::memcpy(validity->mutable_data(), shared->data(), columnar::BytesForBits(rows));
  } else {
    columnar::SetBitsTo(validity->mutable_data(), 0, rows, true);
  }
  for (int64_t i : failed_rows) columnar::ClearBit(validity->mutable_data(), i);
  nulls += static_cast<int64_t>(failed_rows.size());
  return kernel::WithValidity(out, std::move(validity), nulls, ctx);
}

}  // namespace

Result<Column> CastColumn(const Column& input, const TypePtr& to, bool try_cast,
                          const EvalContext& ctx) {
  if (to == nullptr) return Status::InvalidArgument("cast to an unknown type");
  if (input.type()->Equals(*to)) return input;
  if (input.null_count() == input.length()) {
    return Column::MakeAllNull(to, input.length(), ctx.tracker);
  }
  CastRun run(input, to, try_cast, ctx);
  switch (to->id()) {
    case TypeId::kInt8:
      return CastToInteger<int8_t>(run);
    case TypeId::kInt16:
      return CastToInteger<int16_t>(run);
    case TypeId::kInt32:
      return CastToInteger<int32_t>(run);
    case TypeId::kInt64:
      return CastToInteger<int64_t>(run);
    case TypeId::kFloat32:
      return CastToFloating<float>(run);
    case TypeId::kFloat64:
      return CastToFloating<double>(run);
    case TypeId::kDecimal128:
      return CastToDecimal(run);
    case TypeId::kBoolean:
      return CastToBool(run);
    case TypeId::kString:
      return CastToVarchar(run, ctx);
    case TypeId::kDate32:
      return CastToDate(run);
    case TypeId::kTimestamp:
      return CastToTimestamp(run, ctx);
    case TypeId::kTime64:
      return CastToTime(run);
    case TypeId::kUuid:
      return CastToUuid(run);
    case TypeId::kBinary:
      return CastToVarbinary(run);
    case TypeId::kList:
      return CastArray(input, to, try_cast, ctx);
    case TypeId::kStruct:
      return CastRow(input, to, try_cast, ctx);
    default:
      break;
  }
  return Status::NotImplemented("cannot cast " + input.type()->ToString() + " to " +
                                to->ToString());
}

bool CanCast(const TypePtr& from, const TypePtr& to) {
  if (from == nullptr || to == nullptr) return true;
  if (from->Equals(*to)) return true;
  const TypeId f = from->id();
  const TypeId t = to->id();
  auto numeric = [](TypeId id) {
    return (id >= TypeId::kInt8 && id <= TypeId::kDecimal128) || id == TypeId::kBoolean;
  };
  if (t == TypeId::kString) {
    return f != TypeId::kList && f != TypeId::kStruct && f != TypeId::kMap &&
           f != TypeId::kFixedSizeBinary;
  }
  if (numeric(t)) return numeric(f) || f == TypeId::kString;
  switch (t) {
    case TypeId::kDate32:
      return f == TypeId::kString || f == TypeId::kTimestamp;
    case TypeId::kTimestamp:
      return f == TypeId::kString || f == TypeId::kDate32 || f == TypeId::kTimestamp;
    case TypeId::kTime64:
      return f == TypeId::kString || f == TypeId::kTime64 || f == TypeId::kTimestamp;
    case TypeId::kUuid:
      return f == TypeId::kString;
    case TypeId::kBinary:
      return f == TypeId::kString || f == TypeId::kFixedSizeBinary || f == TypeId::kUuid;
    case TypeId::kList:
      return f == TypeId::kList && CanCast(from->value_field().type(), to->value_field().type());
    case TypeId::kStruct:
      return CanCastRow(from, to, &CanCast);
    default:
      return false;
  }
}

}  // namespace sqe::exec
