// format(fmt, args...): Trino's printf-like formatting, which is java.util.Formatter's:
// %s / %S (any value; NULL as "null"), %d (integers), %x / %X / %o (integers, negatives
// as two's complement), %f / %e / %E (floating point and decimals, %f rounding HALF_UP on
// the shortest decimal form of a double as Java does), %b / %B, %c (a code point), %n and
// %%; flags - + space 0 , ( and #, a width, a precision and an explicit argument index
// (%2$s). A conversion that does not fit its argument's type, or a missing argument, is
// an "Invalid format string" error.

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "exec/functions/builtin_families.h"
#include "exec/functions/cast.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;

namespace {

/// One conversion: %[index$][flags][width][.precision]conversion.
struct Conversion {
  int index = 0;  ///< 1-based explicit argument, 0: the next one
  std::string flags;
  int width = -1;
  int precision = -1;
  char conversion = 0;
};

bool HasFlag(const Conversion& c, char flag) { return c.flags.find(flag) != std::string::npos; }

bool IsInteger(TypeId id) {
  return id == TypeId::kInt8 || id == TypeId::kInt16 || id == TypeId::kInt32 ||
         id == TypeId::kInt64;
}

int64_t IntegerAt(const Column& c, int64_t i) {
  return kernel::VisitInteger(
      c.type_id(), [&](auto t) { return static_cast<int64_t>(c.Value<decltype(t)>(i)); });
}

/// Inserts ',' every three digits of the integer part of `digits` (no sign).
std::string Group(const std::string& digits) {
  const size_t dot = digits.find('.');
  const size_t int_len = dot == std::string::npos ? digits.size() : dot;
  std::string out;
  for (size_t k = 0; k < int_len; ++k) {
    if (k > 0 && (int_len - k) % 3 == 0) out.push_back(',');
    out.push_back(digits[k]);
  }
  return out + digits.substr(int_len);
}

/// Applies sign flags, grouping, zero padding and width to a number's magnitude digits.
std::string Number(const Conversion& c, bool negative, std::string digits) {
  if (HasFlag(c, ',')) digits = Group(digits);
  std::string prefix;
  std::string suffix;
  if (negative) {
    if (HasFlag(c, '(')) {
      prefix = "(";
      suffix = ")";
    } else {
      prefix = "-";
    }
  } else if (HasFlag(c, '+')) {
    prefix = "+";
  } else if (HasFlag(c, ' ')) {
    prefix = " ";
  }
  if (HasFlag(c, '0') && c.width > 0) {
    const int used = static_cast<int>(prefix.size() + digits.size() + suffix.size());
    if (used < c.width) digits.insert(0, static_cast<size_t>(c.width - used), '0');
  }
  return prefix + digits + suffix;
}

/// The shortest decimal form of a non-negative double rounded HALF_UP to `precision`
/// fraction digits (as java.util.Formatter rounds).
std::string RoundHalfUp(double magnitude, int precision) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), magnitude, std::chars_format::fixed);
  std::string text(buf, res.ptr);
  size_t dot = text.find('.');
  if (dot == std::string::npos) {
    text += '.';
    dot = text.size() - 1;
  }
  std::string digits = text.substr(0, dot) + text.substr(dot + 1);
  const size_t int_len = dot;
  const size_t keep = int_len + static_cast<size_t>(precision);
  if (digits.size() < keep) digits.append(keep - digits.size(), '0');
  if (digits.size() > keep) {
    const bool up = digits[keep] >= '5';
    digits.resize(keep);
    if (up) {
      size_t k = keep;
      while (k > 0) {
        --k;
        if (digits[k] == '9') {
          digits[k] = '0';
        } else {
          ++digits[k];
          break;
        }
        if (k == 0) {
          digits.insert(0, "1");
          break;
        }
      }
      if (keep == 0) digits = "1";
    }
  }
  const size_t new_int = digits.size() - static_cast<size_t>(precision);
  std::string out = digits.substr(0, new_int);
  if (out.empty()) out = "0";
  if (precision > 0) out += "." + digits.substr(new_int);
  return out;
}

class Formatter {
 public:
  Formatter(const std::vector<Column>& args, const std::vector<Column>& text)
      : args_(args), text_(text) {}

  Status Format(std::string_view fmt, int64_t row, std::string* out) {
    size_t next_arg = 1;
    for (size_t k = 0; k < fmt.size(); ++k) {
      if (fmt[k] != '%') {
        out->push_back(fmt[k]);
        continue;
      }
      const size_t start = k;
      Conversion c;
      ++k;
      size_t digits_end = k;
      while (digits_end < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[digits_end])))
        ++digits_end;
      if (digits_end > k && digits_end < fmt.size() && fmt[digits_end] == '$') {
        c.index = std::stoi(std::string(fmt.substr(k, digits_end - k)));
        k = digits_end + 1;
      }
      while (k < fmt.size() && std::string_view("-#+ 0,(").find(fmt[k]) != std::string::npos) {
        c.flags.push_back(fmt[k++]);
      }
      int width = 0;
      bool has_width = false;
      while (k < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[k]))) {
        width = width * 10 + (fmt[k++] - '0');
        has_width = true;
        if (width > 1'000'000) return Invalid(fmt, "width too large");
      }
      if (has_width) c.width = width;
      if (k < fmt.size() && fmt[k] == '.') {
        ++k;
        int precision = 0;
        bool any = false;
        while (k < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[k]))) {
          precision = precision * 10 + (fmt[k++] - '0');
          any = true;
          if (precision > 1000) return Invalid(fmt, "precision too large");
        }
        if (!any) return Invalid(fmt, "missing precision");
        c.precision = precision;
      }
      if (k >= fmt.size()) {
        return Invalid(fmt, "incomplete format specifier '" + std::string(fmt.substr(start)) + "'");
      }
      c.conversion = fmt[k];
      const std::string spec(fmt.substr(start, k - start + 1));
      std::string piece;
      if (c.conversion == '%') {
        piece = "%";
      } else if (c.conversion == 'n') {
        piece = "\n";
      } else {
        const size_t arg = c.index > 0 ? static_cast<size_t>(c.index) : next_arg++;
        if (arg >= args_.size()) return Invalid(fmt, "missing argument for '" + spec + "'");
        SQE_RETURN_NOT_OK(Convert(c, fmt, spec, args_[arg], text_[arg], row, &piece));
      }
      if (c.width > 0 && static_cast<int>(kernel::CodePointCount(piece)) < c.width) {
        const std::string pad(static_cast<size_t>(c.width - kernel::CodePointCount(piece)), ' ');
        piece = HasFlag(c, '-') ? piece + pad : pad + piece;
      }
      out->append(piece);
    }
    return Status::OK();
  }

 private:
  static Status Invalid(std::string_view fmt, const std::string& why) {
    return Status::InvalidArgument("Invalid format string: " + std::string(fmt) + " (" + why + ")");
  }

  Status Convert(const Conversion& c, std::string_view fmt, const std::string& spec,
                 const Column& arg, const Column& text, int64_t row, std::string* out) {
    const TypeId id = arg.type_id();
    const bool null = arg.IsNull(row);
    auto mismatch = [&] {
      return Invalid(fmt, std::string(1, c.conversion) + " != " + arg.type()->ToString());
    };
    switch (c.conversion) {
      case 's':
      case 'S': {
        std::string s = null ? "null" : std::string(text.StringAt(row));
        if (c.precision >= 0 && kernel::CodePointCount(s) > c.precision) {
          size_t pos = 0;
          for (int k = 0; k < c.precision; ++k) kernel::NextCodePoint(s, &pos);
          s.resize(pos);
        }
        if (c.conversion == 'S') {
          for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        }
        *out = s;
        return Status::OK();
      }
      case 'b':
      case 'B': {
        *out = null                     ? "false"
               : id == TypeId::kBoolean ? (arg.Value<bool>(row) ? "true" : "false")
                                        : "true";
        if (c.conversion == 'B') {
          for (char& ch : *out)
            ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        }
        return Status::OK();
      }
      case 'd':
      case 'x':
      case 'X':
      case 'o':
      case 'c': {
        if (null) {
          *out = "null";
          return Status::OK();
        }
        if (!IsInteger(id)) return mismatch();
        const int64_t v = IntegerAt(arg, row);
        if (c.conversion == 'd') {
          const uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
          *out = Number(c, v < 0, std::to_string(mag));
        } else if (c.conversion == 'c') {
          if (v < 0 || v > 0x10FFFF) return Invalid(fmt, "illegal code point " + std::to_string(v));
          kernel::AppendUtf8(static_cast<uint32_t>(v), out);
        } else {
          // Java prints a negative value of the argument's width in two's complement.
          const int bits = static_cast<int>(arg.type()->byte_width()) * 8;
          uint64_t u = static_cast<uint64_t>(v);
          if (bits < 64) u &= (uint64_t{1} << bits) - 1;
          char buf[32];
          std::snprintf(buf, sizeof(buf),
                        c.conversion == 'o'   ? "%llo"
                        : c.conversion == 'x' ? "%llx"
                                              : "%llX",
                        static_cast<unsigned long long>(u));
          std::string digits = buf;
          if (HasFlag(c, '#'))
            digits = (c.conversion == 'o' ? "0" : c.conversion == 'x' ? "0x" : "0X") + digits;
          if (HasFlag(c, '0') && c.width > static_cast<int>(digits.size())) {
            digits.insert(0, static_cast<size_t>(c.width) - digits.size(), '0');
          }
          *out = digits;
        }
        return Status::OK();
      }
      case 'f':
      case 'e':
      case 'E': {
        if (null) {
          *out = "null";
          return Status::OK();
        }
        double v = 0;
        if (id == TypeId::kFloat64) {
          v = arg.Value<double>(row);
        } else if (id == TypeId::kFloat32) {
          v = arg.Value<float>(row);
        } else if (id == TypeId::kDecimal128) {
          v = std::stod(std::string(text.StringAt(row)));
        } else {
          return mismatch();
        }
        if (std::isnan(v)) {
          *out = "NaN";
          return Status::OK();
        }
        if (std::isinf(v)) {
          *out = v < 0 ? (HasFlag(c, '(') ? "(Infinity)" : "-Infinity")
                       : (HasFlag(c, '+') ? "+Infinity" : "Infinity");
          return Status::OK();
        }
        const int precision = c.precision < 0 ? 6 : c.precision;
        std::string digits;
        if (c.conversion == 'f') {
          digits = RoundHalfUp(std::fabs(v), precision);
        } else {
          char buf[512];
          std::snprintf(buf, sizeof(buf), c.conversion == 'e' ? "%.*e" : "%.*E", precision,
                        std::fabs(v));
          digits = buf;
        }
        *out = Number(c, std::signbit(v), digits);
        return Status::OK();
      }
      default:
        return Invalid(fmt, "unknown conversion '" + spec + "'");
    }
  }

  const std::vector<Column>& args_;
  const std::vector<Column>& text_;
};

Result<Column> FormatKernel(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                            const EvalContext& ctx) {
  // The text of every argument for %s, one cast per batch.
  std::vector<Column> text(args.size());
  for (size_t k = 1; k < args.size(); ++k) {
    const TypeId id = args[k].type_id();
    if (id == TypeId::kString) {
      text[k] = args[k];
    } else if (id == TypeId::kFloat64 || id == TypeId::kFloat32) {
      columnar::BinaryBuilder builder(columnar::String(), ctx.tracker);
      for (int64_t i = 0; i < rows; ++i) {
        if (args[k].IsNull(i)) {
          SQE_RETURN_NOT_OK(builder.AppendNull());
        } else {
          SQE_RETURN_NOT_OK(builder.Append(id == TypeId::kFloat64
                                               ? FormatDouble(args[k].Value<double>(i))
                                               : FormatReal(args[k].Value<float>(i))));
        }
      }
      SQE_ASSIGN_OR_RETURN(text[k], builder.Finish());
    } else {
      SQE_ASSIGN_OR_RETURN(text[k], CastColumn(args[k], columnar::String(), false, ctx));
    }
  }
  Formatter formatter(args, text);
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::IntersectValidity({&args[0]}, rows, ctx, &nulls));
  columnar::BinaryBuilder builder(columnar::String(), ctx.tracker);
  std::string out;
  for (int64_t i = 0; i < rows; ++i) {
    if (!kernel::ValidAt(validity, i)) {
      SQE_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    out.clear();
    SQE_RETURN_NOT_OK(formatter.Format(args[0].StringAt(i), i, &out));
    SQE_RETURN_NOT_OK(builder.Append(out));
  }
  return builder.Finish();
}

}  // namespace

void RegisterFormatFunction(FunctionRegistry& r) {
  r.AddScalar(
      "format",
      [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.empty()) return std::optional<ScalarFunction>();
        if (types[0] != nullptr && types[0]->id() != TypeId::kString) {
          return std::optional<ScalarFunction>();
        }
        std::vector<TypePtr> args;
        for (const TypePtr& t : types) {
          if (t != nullptr && t->is_nested()) return std::optional<ScalarFunction>();
          args.push_back(t == nullptr ? columnar::String() : t);
        }
        return kernel::Instance("format", std::move(args), columnar::String(), FormatKernel);
      },
      {"format", "varchar", "varchar, any, ...", "scalar",
       "Java's String.format: %s %d %x %o %f %e %b %c %n %% with flags, width and precision"});
}

}  // namespace sqe::exec
