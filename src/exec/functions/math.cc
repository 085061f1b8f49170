// Math functions. Rounding is HALF_UP (ties away from zero) for doubles and decimals, as
// in Trino; decimal results keep decimal types with Trino's precision rules.

#include <cmath>
#include <random>

#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::Decimal128;
using columnar::TypeId;
using columnar::TypePtr;
using kernel::int128;

namespace {

TypePtr D() { return columnar::Float64(); }

Status NoError() { return Status::OK(); }

template <typename T>
Result<Column> IntegerAbs(const Column& a, int64_t rows, const TypePtr& type,
                          const EvalContext& ctx) {
  return kernel::MapUnary<T, T>(
      a, rows, type, ctx,
      [](T v, T* o) {
        if (v == std::numeric_limits<T>::min()) return false;
        *o = static_cast<T>(v < 0 ? -v : v);
        return true;
      },
      [&](T v) {
        return Status::InvalidArgument("Value " + std::to_string(v) + " is out of range for abs(" +
                                       type->ToString() + ")");
      });
}

/// Rounds a double to `digits` decimal places, HALF_UP.
double RoundDouble(double x, int64_t digits) {
  if (!std::isfinite(x)) return x;
  if (digits == 0) return std::round(x);
  if (digits > 0) {
    if (digits > 308) return x;
    const double f = std::pow(10.0, static_cast<double>(digits));
    const double scaled = x * f;
    if (!std::isfinite(scaled)) return x;
    return std::round(scaled) / f;
  }
  if (digits < -308) return 0.0 * x;
  const double f = std::pow(10.0, static_cast<double>(-digits));
  return std::round(x / f) * f;
}

/// Decimal of `type` rounded/truncated/ceiled/floored to `keep` fraction digits, the
/// result still at the input's scale (values) — `out_scale` rescales it afterwards.
enum class RoundMode { kHalfUp, kTruncate, kCeil, kFloor };

int128 RoundUnscaled(int128 v, int drop_digits, RoundMode mode) {
  if (drop_digits <= 0) return v;
  if (drop_digits > 38) return 0;
  const int128 p = kernel::Pow10(drop_digits);
  int128 q = v / p;
  const int128 r = v % p;
  switch (mode) {
    case RoundMode::kHalfUp:
      return kernel::DivPow10Round(v, drop_digits);
    case RoundMode::kTruncate:
      return q;
    case RoundMode::kCeil:
      return r > 0 ? q + 1 : q;
    case RoundMode::kFloor:
      return r < 0 ? q - 1 : q;
  }
  return q;
}

/// round/ceil/floor/truncate(decimal(p,s)) -> decimal(result_p, 0) per mode.
ScalarResolver DecimalToIntegral(std::string name, RoundMode mode, bool trunc_type) {
  return [=](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
    if (types.size() != 1 || !types[0] || types[0]->id() != TypeId::kDecimal128) {
      return std::optional<ScalarFunction>();
    }
    const int p = types[0]->precision();
    const int s = types[0]->scale();
    const int rp =
        trunc_type ? std::max(1, p - s) : std::min(38, std::max(1, p - s + std::min(s, 1)));
    TypePtr result = columnar::Decimal(rp, 0);
    ScalarKernel k = [s, mode](const std::vector<Column>& args, int64_t rows,
                               const ScalarFunction& fn, const EvalContext& ctx) {
      return kernel::MapUnary<Decimal128, Decimal128>(
          args[0], rows, fn.return_type, ctx,
          [&](Decimal128 v, Decimal128* o) {
            *o = kernel::FromInt128(RoundUnscaled(kernel::ToInt128(v), s, mode));
            return true;
          },
          [](Decimal128) { return NoError(); });
    };
    return kernel::Instance(name, {types[0]}, result, k);
  };
}

/// round(decimal(p,s), n) -> decimal(p+1, s); truncate(decimal(p,s), n) -> decimal(p, s).
ScalarResolver DecimalRoundDigits(std::string name, RoundMode mode) {
  return [=](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
    if (types.size() != 2 || !types[0] || types[0]->id() != TypeId::kDecimal128) {
      return std::optional<ScalarFunction>();
    }
    const int p = types[0]->precision();
    const int s = types[0]->scale();
    TypePtr result =
        mode == RoundMode::kHalfUp ? columnar::Decimal(std::min(38, p + 1), s) : types[0];
    ScalarKernel k = [s, mode](const std::vector<Column>& args, int64_t rows,
                               const ScalarFunction& fn, const EvalContext& ctx) {
      const int rp = fn.return_type->precision();
      return kernel::MapBinary<Decimal128, int64_t, Decimal128>(
          args[0], args[1], rows, fn.return_type, ctx,
          [&](Decimal128 v, int64_t digits, Decimal128* o) {
            const int64_t drop = s - digits;
            if (drop <= 0) {
              *o = v;
              return true;
            }
            if (drop > 38) {
              *o = Decimal128(0);
              return true;
            }
            int128 r = RoundUnscaled(kernel::ToInt128(v), static_cast<int>(drop), mode);
            if (!kernel::MulPow10(r, static_cast<int>(drop), &r) || !kernel::FitsPrecision(r, rp)) {
              return false;
            }
            *o = kernel::FromInt128(r);
            return true;
          },
          [](Decimal128, int64_t) { return Status::InvalidArgument("Decimal overflow"); });
    };
    return kernel::Instance(name, {types[0], columnar::Int64()}, result, k);
  };
}

template <typename F, typename Op>
ScalarKernel FloatUnary(Op op) {
  return [op](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
              const EvalContext& ctx) {
    return kernel::MapUnary<F, F>(
        args[0], rows, fn.return_type, ctx,
        [&](F v, F* o) {
          *o = static_cast<F>(op(v));
          return true;
        },
        [](F) { return NoError(); });
  };
}

template <typename T>
ScalarKernel IntegerRoundDigits() {
  return [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) {
    return kernel::MapBinary<T, int64_t, T>(
        args[0], args[1], rows, fn.return_type, ctx,
        [](T v, int64_t digits, T* o) {
          if (digits >= 0) {
            *o = v;
            return true;
          }
          const int128 r = digits < -38 ? 0 : kernel::DivPow10Round(v, static_cast<int>(-digits));
          int128 back = 0;
          if (!kernel::MulPow10(r, static_cast<int>(-digits), &back) ||
              back < std::numeric_limits<T>::min() || back > std::numeric_limits<T>::max()) {
            return false;
          }
          *o = static_cast<T>(back);
          return true;
        },
        [](T, int64_t) { return Status::InvalidArgument("round overflow"); });
  };
}

template <typename T>
ScalarKernel IntegerSign() {
  return [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) {
    return kernel::MapUnary<T, T>(
        args[0], rows, fn.return_type, ctx,
        [](T v, T* o) {
          *o = static_cast<T>((v > 0) - (v < 0));
          return true;
        },
        [](T) { return NoError(); });
  };
}

ScalarKernel Identity() {
  return [](const std::vector<Column>& args, int64_t, const ScalarFunction&,
            const EvalContext&) -> Result<Column> { return args[0]; };
}

std::mt19937_64& Rng() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

}  // namespace

void RegisterMathFunctions(FunctionRegistry& r) {
  using kernel::AddFixed;
  // abs
  for (const TypePtr& t : kernel::IntegerTypes()) {
    ScalarKernel k = [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                        const EvalContext& ctx) -> Result<Column> {
      return kernel::VisitInteger(fn.return_type->id(), [&](auto tag) {
        return IntegerAbs<decltype(tag)>(args[0], rows, fn.return_type, ctx);
      });
    };
    AddFixed(r, "abs", {t}, t, k, "absolute value");
    AddFixed(
        r, "sign", {t}, t,
        [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
           const EvalContext& ctx) -> Result<Column> {
          return kernel::VisitInteger(fn.return_type->id(), [&](auto tag) {
            return IntegerSign<decltype(tag)>()(args, rows, fn, ctx);
          });
        },
        "-1, 0 or 1");
    for (const char* name : {"round", "ceil", "ceiling", "floor", "truncate"}) {
      AddFixed(r, name, {t}, t, Identity(), "integers are already integral");
    }
    AddFixed(
        r, "round", {t, columnar::Int64()}, t,
        [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
           const EvalContext& ctx) -> Result<Column> {
          return kernel::VisitInteger(fn.return_type->id(), [&](auto tag) {
            return IntegerRoundDigits<decltype(tag)>()(args, rows, fn, ctx);
          });
        },
        "rounds to a power of ten when digits < 0");
  }
  AddFixed(r, "abs", {columnar::Float32()}, columnar::Float32(),
           FloatUnary<float>([](float v) { return std::fabs(v); }), "absolute value");
  AddFixed(r, "abs", {D()}, D(), FloatUnary<double>([](double v) { return std::fabs(v); }),
           "absolute value");
  r.AddScalar("abs",
              [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
                if (types.size() != 1 || !types[0] || types[0]->id() != TypeId::kDecimal128) {
                  return std::optional<ScalarFunction>();
                }
                return kernel::Instance("abs", {types[0]}, types[0],
                                        [](const std::vector<Column>& args, int64_t rows,
                                           const ScalarFunction& fn, const EvalContext& ctx) {
                                          return kernel::MapUnary<Decimal128, Decimal128>(
                                              args[0], rows, fn.return_type, ctx,
                                              [](Decimal128 v, Decimal128* o) {
                                                const int128 x = kernel::ToInt128(v);
                                                *o = kernel::FromInt128(x < 0 ? -x : x);
                                                return true;
                                              },
                                              [](Decimal128) { return NoError(); });
                                        });
              },
              {"abs", "decimal(p,s)", "decimal(p,s)", "scalar", "absolute value"});
  // round / ceil / floor / truncate
  for (const auto& [ft, is_double] :
       {std::pair{D(), true}, std::pair{columnar::Float32(), false}}) {
    auto add = [&, is_double = is_double, ft = ft](const char* name, double (*op)(double),
                                                   const char* what) {
      AddFixed(r, name, {ft}, ft,
               is_double ? FloatUnary<double>(op)
                         : FloatUnary<float>([op](float v) { return static_cast<float>(op(v)); }),
               what);
    };
    add(
        "round", [](double v) { return std::round(v); }, "nearest integer, ties away from zero");
    add(
        "ceil", [](double v) { return std::ceil(v); }, "smallest integer not below x");
    add(
        "ceiling", [](double v) { return std::ceil(v); }, "smallest integer not below x");
    add(
        "floor", [](double v) { return std::floor(v); }, "largest integer not above x");
    add(
        "truncate", [](double v) { return std::trunc(v); }, "x without its fraction");
  }
  AddFixed(
      r, "round", {D(), columnar::Int64()}, D(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapBinary<double, int64_t, double>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](double v, int64_t d, double* o) {
              *o = RoundDouble(v, d);
              return true;
            },
            [](double, int64_t) { return NoError(); });
      },
      "rounded to `digits` decimal places, ties away from zero");
  AddFixed(
      r, "truncate", {D(), columnar::Int64()}, D(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapBinary<double, int64_t, double>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](double v, int64_t d, double* o) {
              const double f = std::pow(10.0, static_cast<double>(d));
              *o = std::isfinite(v * f) ? std::trunc(v * f) / f : v;
              return true;
            },
            [](double, int64_t) { return NoError(); });
      },
      "truncated to `digits` decimal places");
  const struct {
    const char* name;
    RoundMode mode;
    bool trunc_type;
  } kDecimalModes[] = {{"round", RoundMode::kHalfUp, false},
                       {"ceil", RoundMode::kCeil, false},
                       {"ceiling", RoundMode::kCeil, false},
                       {"floor", RoundMode::kFloor, false},
                       {"truncate", RoundMode::kTruncate, true}};
  for (const auto& m : kDecimalModes) {
    r.AddScalar(m.name, DecimalToIntegral(m.name, m.mode, m.trunc_type),
                {m.name, "decimal(p,0)", "decimal(p,s)", "scalar", "decimal rounding"});
  }
  r.AddScalar("round", DecimalRoundDigits("round", RoundMode::kHalfUp),
              {"round", "decimal(p+1,s)", "decimal(p,s), bigint", "scalar",
               "rounded to `digits` decimal places, ties away from zero"});
  r.AddScalar("truncate", DecimalRoundDigits("truncate", RoundMode::kTruncate),
              {"truncate", "decimal(p,s)", "decimal(p,s), bigint", "scalar",
               "truncated to `digits` decimal places"});
  // mod: the % operator under a name.
  const FunctionRegistry* registry = &r;
  r.AddScalar(
      "mod",
      [registry](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        auto op = registry->ResolveScalar("%", types);
        if (!op.ok()) return std::optional<ScalarFunction>();
        ScalarFunction fn = **op;
        fn.name = "mod";
        return std::optional<ScalarFunction>(std::move(fn));
      },
      {"mod", "T", "T, T", "scalar", "remainder of n / m (sign of n)"});
  // sign for decimals and doubles
  AddFixed(r, "sign", {D()}, D(),
           FloatUnary<double>([](double v) { return std::isnan(v) ? v : (v > 0) - (v < 0) + 0.0; }),
           "-1.0, 0.0 or 1.0 (NaN stays NaN)");
  AddFixed(r, "sign", {columnar::Float32()}, columnar::Float32(),
           FloatUnary<float>([](float v) { return std::isnan(v) ? v : (v > 0) - (v < 0) + 0.0f; }),
           "-1.0, 0.0 or 1.0");
  r.AddScalar("sign",
              [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
                if (types.size() != 1 || !types[0] || types[0]->id() != TypeId::kDecimal128) {
                  return std::optional<ScalarFunction>();
                }
                return kernel::Instance(
                    "sign", {types[0]}, columnar::Decimal(1, 0),
                    [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                       const EvalContext& ctx) {
                      return kernel::MapUnary<Decimal128, Decimal128>(
                          args[0], rows, fn.return_type, ctx,
                          [](Decimal128 v, Decimal128* o) {
                            const int128 x = kernel::ToInt128(v);
                            *o = Decimal128(static_cast<int64_t>((x > 0) - (x < 0)));
                            return true;
                          },
                          [](Decimal128) { return NoError(); });
                    });
              },
              {"sign", "decimal(1,0)", "decimal(p,s)", "scalar", "-1, 0 or 1"});
  // Unary double functions.
  const struct {
    const char* name;
    double (*op)(double);
    const char* what;
  } kUnary[] = {
      {"sqrt", [](double v) { return std::sqrt(v); }, "square root"},
      {"cbrt",
       [](double v) {
         // One Newton step: libm's cbrt may be an ulp off (cbrt(27) = 3.0000000000000004).
         const double r = std::cbrt(v);
         return (r == 0 || !std::isfinite(r)) ? r : r - (r * r * r - v) / (3 * r * r);
       },
       "cube root"},
      {"ln", [](double v) { return std::log(v); }, "natural logarithm"},
      {"log10", [](double v) { return std::log10(v); }, "base-10 logarithm"},
      {"log2", [](double v) { return std::log2(v); }, "base-2 logarithm"},
      {"exp", [](double v) { return std::exp(v); }, "e raised to x"},
      {"sin", [](double v) { return std::sin(v); }, "sine"},
      {"cos", [](double v) { return std::cos(v); }, "cosine"},
      {"tan", [](double v) { return std::tan(v); }, "tangent"},
      {"asin", [](double v) { return std::asin(v); }, "arc sine"},
      {"acos", [](double v) { return std::acos(v); }, "arc cosine"},
      {"atan", [](double v) { return std::atan(v); }, "arc tangent"},
      {"degrees", [](double v) { return v * 180.0 / M_PI; }, "radians to degrees"},
      {"radians", [](double v) { return v * M_PI / 180.0; }, "degrees to radians"},
  };
  for (const auto& u : kUnary) AddFixed(r, u.name, {D()}, D(), FloatUnary<double>(u.op), u.what);
  ScalarKernel power = [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                          const EvalContext& ctx) {
    return kernel::MapBinary<double, double, double>(
        args[0], args[1], rows, fn.return_type, ctx,
        [](double a, double b, double* o) {
          *o = std::pow(a, b);
          return true;
        },
        [](double, double) { return NoError(); });
  };
  AddFixed(r, "power", {D(), D()}, D(), power, "x raised to y");
  AddFixed(r, "pow", {D(), D()}, D(), power, "x raised to y");
  AddFixed(
      r, "atan2", {D(), D()}, D(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapBinary<double, double, double>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](double a, double b, double* o) {
              *o = std::atan2(a, b);
              return true;
            },
            [](double, double) { return NoError(); });
      },
      "arc tangent of y / x");
  AddFixed(
      r, "log", {D(), D()}, D(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapBinary<double, double, double>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](double b, double x, double* o) {
              *o = std::log(x) / std::log(b);
              return true;
            },
            [](double, double) { return NoError(); });
      },
      "logarithm of x in base b: log(b, x)");
  auto constant = [&](const char* name, double v, const char* what) {
    AddFixed(
        r, name, {}, D(),
        [v](const std::vector<Column>&, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) {
          return kernel::MapToFixed<double>({}, rows, fn.return_type, ctx,
                                            [&](int64_t, double* o, bool*) {
                                              *o = v;
                                              return Status::OK();
                                            });
        },
        what);
  };
  constant("pi", M_PI, "the constant pi");
  constant("e", M_E, "Euler's number");
  constant("infinity", HUGE_VAL, "positive infinity");
  constant("nan", std::nan(""), "not a number");
  for (const char* name : {"is_nan", "is_finite", "is_infinite"}) {
    const std::string n = name;
    AddFixed(
        r, name, {D()}, columnar::Boolean(),
        [n](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
            const EvalContext& ctx) {
          return kernel::MapToBoolean(args, rows, ctx, [&](int64_t i, bool* out, bool*) {
            const double v = args[0].Value<double>(i);
            *out = n == "is_nan"      ? std::isnan(v)
                   : n == "is_finite" ? std::isfinite(v)
                                      : std::isinf(v);
            return Status::OK();
          });
        },
        "classifies a double");
  }
  for (const char* name : {"random", "rand"}) {
    AddFixed(
        r, name, {}, D(),
        [](const std::vector<Column>&, int64_t rows, const ScalarFunction& fn,
           const EvalContext& ctx) {
          std::uniform_real_distribution<double> dist(0.0, 1.0);
          return kernel::MapToFixed<double>({}, rows, fn.return_type, ctx,
                                            [&](int64_t, double* o, bool*) {
                                              *o = dist(Rng());
                                              return Status::OK();
                                            });
        },
        "a pseudo-random value in [0, 1)", false);
    AddFixed(
        r, name, {columnar::Int64()}, columnar::Int64(),
        [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
           const EvalContext& ctx) {
          return kernel::MapToFixed<int64_t>(
              args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* o, bool*) -> Status {
                const int64_t n = args[0].Value<int64_t>(i);
                if (n <= 0) return Status::InvalidArgument("bound must be positive");
                *o = std::uniform_int_distribution<int64_t>(0, n - 1)(Rng());
                return Status::OK();
              });
        },
        "a pseudo-random integer in [0, n)", false);
  }
}

}  // namespace sqe::exec
