// More math functions with Trino's semantics: hyperbolic functions, normal_cdf,
// width_bucket, from_base / to_base, the bitwise family (bitwise_and/or/xor/not, the shifts,
// bit_count) and random(m, n). Errors are Trino's (a bucket count below 1, equal bounds,
// a radix outside 2..36, a digit string that is not a number of that base, a value too
// wide for bit_count's bits).

#include <cmath>
#include <random>
#include <string>

#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;

namespace {

TypePtr D() { return columnar::Float64(); }
TypePtr I64() { return columnar::Int64(); }

ScalarKernel DoubleUnary(double (*op)(double)) {
  return [op](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
              const EvalContext& ctx) {
    return kernel::MapToFixed<double>(args, rows, fn.return_type, ctx,
                                      [&](int64_t i, double* out, bool*) {
                                        *out = op(args[0].Value<double>(i));
                                        return Status::OK();
                                      });
  };
}

ScalarKernel BigintBinary(int64_t (*op)(int64_t, int64_t)) {
  return [op](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
              const EvalContext& ctx) {
    return kernel::MapToFixed<int64_t>(
        args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) {
          *out = op(args[0].Value<int64_t>(i), args[1].Value<int64_t>(i));
          return Status::OK();
        });
  };
}

Status CheckRadix(int64_t radix) {
  if (radix < 2 || radix > 36) return Status::InvalidArgument("Radix must be between 2 and 36");
  return Status::OK();
}

/// Trino's width_bucket(operand, bound1, bound2, bucketCount).
Status WidthBucket(double x, double bound1, double bound2, int64_t count, int64_t* out) {
  if (count <= 0) return Status::InvalidArgument("bucketCount must be greater than 0");
  if (std::isnan(x)) return Status::InvalidArgument("operand must not be NaN");
  if (!std::isfinite(bound1)) return Status::InvalidArgument("first bound must be finite");
  if (!std::isfinite(bound2)) return Status::InvalidArgument("second bound must be finite");
  if (bound1 == bound2) return Status::InvalidArgument("bounds cannot equal each other");
  const double lower = std::min(bound1, bound2);
  const double upper = std::max(bound1, bound2);
  if (bound1 < bound2) {
    if (x < lower) {
      *out = 0;
      return Status::OK();
    }
    if (x >= upper) {
      if (count == INT64_MAX) return Status::InvalidArgument("Bucket for value is out of range");
      *out = count + 1;
      return Status::OK();
    }
    *out = static_cast<int64_t>(static_cast<double>(count) * (x - lower) / (upper - lower)) + 1;
  } else {
    if (x > upper) {
      *out = 0;
      return Status::OK();
    }
    if (x <= lower) {
      if (count == INT64_MAX) return Status::InvalidArgument("Bucket for value is out of range");
      *out = count + 1;
      return Status::OK();
    }
    *out = static_cast<int64_t>(static_cast<double>(count) * (upper - x) / (upper - lower)) + 1;
  }
  return Status::OK();
}

Status FromBase(std::string_view digits, int64_t radix, int64_t* out) {
  SQE_RETURN_NOT_OK(CheckRadix(radix));
  auto invalid = [&] {
    return Status::InvalidArgument("Not a valid base-" + std::to_string(radix) +
                                   " number: " + std::string(digits));
  };
  size_t k = 0;
  bool negative = false;
  if (k < digits.size() && (digits[k] == '-' || digits[k] == '+')) {
    negative = digits[k] == '-';
    ++k;
  }
  if (k == digits.size()) return invalid();
  // Accumulate negatively so that the minimum bigint parses.
  int64_t value = 0;
  for (; k < digits.size(); ++k) {
    const char c = digits[k];
    int d = 36;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'z') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') d = c - 'A' + 10;
    if (d >= radix) return invalid();
    if (__builtin_mul_overflow(value, radix, &value) || __builtin_sub_overflow(value, d, &value)) {
      return invalid();
    }
  }
  if (!negative) {
    if (value == INT64_MIN) return invalid();
    value = -value;
  }
  *out = value;
  return Status::OK();
}

std::string ToBase(int64_t value, int64_t radix) {
  static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  if (value == 0) return "0";
  const bool negative = value < 0;
  uint64_t v = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string out;
  while (v != 0) {
    out.push_back(kDigits[v % static_cast<uint64_t>(radix)]);
    v /= static_cast<uint64_t>(radix);
  }
  if (negative) out.push_back('-');
  return std::string(out.rbegin(), out.rend());
}

Status BitCount(int64_t x, int64_t bits, int64_t* out) {
  if (bits < 2 || bits > 64) {
    return Status::InvalidArgument("Bits specified in bit_count must be between 2 and 64, got " +
                                   std::to_string(bits));
  }
  if (bits < 64) {
    const int64_t low = -(int64_t{1} << (bits - 1));
    const int64_t high = (int64_t{1} << (bits - 1)) - 1;
    if (x < low || x > high) {
      return Status::InvalidArgument("Number must be representable with the bits specified. " +
                                     std::to_string(x) + " cannot be represented with " +
                                     std::to_string(bits) + " bits");
    }
  }
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  *out = __builtin_popcountll(static_cast<uint64_t>(x) & mask);
  return Status::OK();
}

std::mt19937_64& Generator() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

}  // namespace

void RegisterMoreMathFunctions(FunctionRegistry& r) {
  using kernel::AddFixed;
  AddFixed(r, "sinh", {D()}, D(), DoubleUnary([](double v) { return std::sinh(v); }),
           "hyperbolic sine");
  AddFixed(r, "cosh", {D()}, D(), DoubleUnary([](double v) { return std::cosh(v); }),
           "hyperbolic cosine");
  AddFixed(r, "tanh", {D()}, D(), DoubleUnary([](double v) { return std::tanh(v); }),
           "hyperbolic tangent");
  AddFixed(
      r, "normal_cdf", {D(), D(), D()}, D(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<double>(
            args, rows, fn.return_type, ctx, [&](int64_t i, double* out, bool*) -> Status {
              const double mean = args[0].Value<double>(i);
              const double sd = args[1].Value<double>(i);
              if (!(sd > 0)) return Status::InvalidArgument("standardDeviation must be > 0");
              *out = 0.5 * std::erfc(-(args[2].Value<double>(i) - mean) / (sd * M_SQRT2));
              return Status::OK();
            });
      },
      "normal_cdf(mean, sd, v): P(X <= v) for X ~ N(mean, sd)");
  AddFixed(
      r, "width_bucket", {D(), D(), D(), I64()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) {
              return WidthBucket(args[0].Value<double>(i), args[1].Value<double>(i),
                                 args[2].Value<double>(i), args[3].Value<int64_t>(i), out);
            });
      },
      "the bucket of x among `count` equal-width buckets between two bounds (0 below, count + 1 "
      "above)");
  AddFixed(
      r, "from_base", {columnar::String(), I64()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) {
              return FromBase(args[0].StringAt(i), args[1].Value<int64_t>(i), out);
            });
      },
      "the value of a number written in a radix (2..36)");
  AddFixed(
      r, "to_base", {I64(), I64()}, columnar::String(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx,
                                   [&](int64_t i, std::string* out, bool*) -> Status {
                                     const int64_t radix = args[1].Value<int64_t>(i);
                                     SQE_RETURN_NOT_OK(CheckRadix(radix));
                                     *out = ToBase(args[0].Value<int64_t>(i), radix);
                                     return Status::OK();
                                   });
      },
      "x written in a radix (2..36)");
  AddFixed(r, "bitwise_and", {I64(), I64()}, I64(),
           BigintBinary([](int64_t a, int64_t b) { return a & b; }), "two's complement AND");
  AddFixed(r, "bitwise_or", {I64(), I64()}, I64(),
           BigintBinary([](int64_t a, int64_t b) { return a | b; }), "two's complement OR");
  AddFixed(r, "bitwise_xor", {I64(), I64()}, I64(),
           BigintBinary([](int64_t a, int64_t b) { return a ^ b; }), "two's complement XOR");
  AddFixed(r, "bitwise_left_shift", {I64(), I64()}, I64(),
           BigintBinary([](int64_t a, int64_t s) -> int64_t {
             if (s < 0 || s >= 64) return 0;
             return static_cast<int64_t>(static_cast<uint64_t>(a) << s);
           }),
           "shifts left (0 from 64 bits on)");
  AddFixed(r, "bitwise_right_shift", {I64(), I64()}, I64(),
           BigintBinary([](int64_t a, int64_t s) -> int64_t {
             if (s < 0 || s >= 64) return 0;
             return static_cast<int64_t>(static_cast<uint64_t>(a) >> s);
           }),
           "logical right shift (zero fill)");
  AddFixed(r, "bitwise_right_shift_arithmetic", {I64(), I64()}, I64(),
           BigintBinary([](int64_t a, int64_t s) -> int64_t {
             if (s < 0 || s >= 64) return a < 0 ? -1 : 0;
             return a >> s;
           }),
           "arithmetic right shift (sign fill)");
  AddFixed(
      r, "bitwise_not", {I64()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(args, rows, fn.return_type, ctx,
                                           [&](int64_t i, int64_t* out, bool*) {
                                             *out = ~args[0].Value<int64_t>(i);
                                             return Status::OK();
                                           });
      },
      "two's complement NOT");
  AddFixed(
      r, "bit_count", {I64(), I64()}, I64(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) {
              return BitCount(args[0].Value<int64_t>(i), args[1].Value<int64_t>(i), out);
            });
      },
      "the number of 1 bits of x as a `bits`-bit two's complement integer");
  for (const char* name : {"random", "rand"}) {
    AddFixed(
        r, name, {I64(), I64()}, I64(),
        [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
           const EvalContext& ctx) {
          return kernel::MapToFixed<int64_t>(
              args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
                const int64_t low = args[0].Value<int64_t>(i);
                const int64_t high = args[1].Value<int64_t>(i);
                if (low >= high)
                  return Status::InvalidArgument("start value must be less than stop value");
                *out = std::uniform_int_distribution<int64_t>(low, high - 1)(Generator());
                return Status::OK();
              });
        },
        "a pseudo-random integer in [m, n)", false);
  }
}

}  // namespace sqe::exec
