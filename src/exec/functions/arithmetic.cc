// Arithmetic operators: + - * / % and negate for tinyint..bigint (overflow is an error),
// real and double (IEEE), and decimals with Trino's result precision and scale.

#include <cmath>

#include "exec/functions/builtin_families.h"
#include "exec/functions/coercion_internal.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;
using kernel::int128;

namespace {

enum class Op { kAdd, kSub, kMul, kDiv, kMod };

const char* OpWord(Op op) {
  switch (op) {
    case Op::kAdd:
      return "addition";
    case Op::kSub:
      return "subtraction";
    case Op::kMul:
      return "multiplication";
    case Op::kDiv:
      return "division";
    default:
      return "modulus";
  }
}
const char* OpSymbol(Op op) {
  switch (op) {
    case Op::kAdd:
      return "+";
    case Op::kSub:
      return "-";
    case Op::kMul:
      return "*";
    case Op::kDiv:
      return "/";
    default:
      return "%";
  }
}

Status DivisionByZero() { return Status::InvalidArgument("Division by zero"); }

template <typename T>
ScalarKernel IntegerKernel(Op op) {
  return [op](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
              const EvalContext& ctx) -> Result<Column> {
    const std::string type_name = fn.return_type->ToString();
    auto err = [&](T a, T b) -> Status {
      if ((op == Op::kDiv || op == Op::kMod) && b == 0) return DivisionByZero();
      return Status::InvalidArgument(type_name + " " + OpWord(op) +
                                     " overflow: " + std::to_string(a) + " " + OpSymbol(op) + " " +
                                     std::to_string(b));
    };
    switch (op) {
      case Op::kAdd:
        return kernel::MapBinary<T, T, T>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](T a, T b, T* o) { return !__builtin_add_overflow(a, b, o); }, err);
      case Op::kSub:
        return kernel::MapBinary<T, T, T>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](T a, T b, T* o) { return !__builtin_sub_overflow(a, b, o); }, err);
      case Op::kMul:
        return kernel::MapBinary<T, T, T>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](T a, T b, T* o) { return !__builtin_mul_overflow(a, b, o); }, err);
      case Op::kDiv:
        // Trino truncates toward zero (as C++ does); DuckDB's `/` on integers returns a
        // double instead, and its `//` floors.
        return kernel::MapBinary<T, T, T>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](T a, T b, T* o) {
              if (b == 0 || (b == -1 && a == std::numeric_limits<T>::min())) return false;
              *o = static_cast<T>(a / b);
              return true;
            },
            err);
      default:
        return kernel::MapBinary<T, T, T>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](T a, T b, T* o) {
              if (b == 0) return false;
              *o = b == -1 ? T{0} : static_cast<T>(a % b);
              return true;
            },
            err);
    }
  };
}

template <typename T>
ScalarKernel IntegerNegate() {
  return [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) -> Result<Column> {
    const std::string type_name = fn.return_type->ToString();
    return kernel::MapUnary<T, T>(
        args[0], rows, fn.return_type, ctx,
        [](T a, T* o) {
          if (a == std::numeric_limits<T>::min()) return false;
          *o = static_cast<T>(-a);
          return true;
        },
        [&](T a) {
          return Status::InvalidArgument(type_name + " negation overflow: " + std::to_string(a));
        });
  };
}

template <typename F>
ScalarKernel FloatingKernel(Op op) {
  return [op](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
              const EvalContext& ctx) -> Result<Column> {
    auto never = [](F, F) { return Status::OK(); };
    switch (op) {
      case Op::kAdd:
        return kernel::MapBinary<F, F, F>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](F a, F b, F* o) {
              *o = a + b;
              return true;
            },
            never);
      case Op::kSub:
        return kernel::MapBinary<F, F, F>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](F a, F b, F* o) {
              *o = a - b;
              return true;
            },
            never);
      case Op::kMul:
        return kernel::MapBinary<F, F, F>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](F a, F b, F* o) {
              *o = a * b;
              return true;
            },
            never);
      case Op::kDiv:
        return kernel::MapBinary<F, F, F>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](F a, F b, F* o) {
              *o = a / b;
              return true;
            },
            never);
      default:
        return kernel::MapBinary<F, F, F>(
            args[0], args[1], rows, fn.return_type, ctx,
            [](F a, F b, F* o) {
              *o = std::fmod(a, b);
              return true;
            },
            never);
    }
  };
}

template <typename F>
ScalarKernel FloatingNegate() {
  return [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) -> Result<Column> {
    return kernel::MapUnary<F, F>(
        args[0], rows, fn.return_type, ctx,
        [](F a, F* o) {
          *o = -a;
          return true;
        },
        [](F) { return Status::OK(); });
  };
}

Status DecimalOverflow() { return Status::InvalidArgument("Decimal overflow"); }

/// Decimal kernels work on int128 unscaled values; `s1`, `s2` are the argument scales and
/// `s` the result's.
ScalarKernel DecimalKernel(Op op, int s1, int s2, int p, int s) {
  return [=](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
             const EvalContext& ctx) -> Result<Column> {
    using columnar::Decimal128;
    bool div_zero = false;
    auto err = [&](Decimal128, Decimal128) {
      return div_zero ? DivisionByZero() : DecimalOverflow();
    };
    // Loop invariants: the rescaling factors of add / sub / mod and the precision bound.
    const bool rescale = (op == Op::kAdd || op == Op::kSub || op == Op::kMod) && (s != s1 || s != s2);
    const int128 factor_a = rescale ? kernel::Pow10(s - s1) : 1;
    const int128 factor_b = rescale ? kernel::Pow10(s - s2) : 1;
    const int128 limit = kernel::Pow10(p);
    auto op_fn = [&](Decimal128 da, Decimal128 db, Decimal128* o) {
      int128 a = kernel::ToInt128(da);
      int128 b = kernel::ToInt128(db);
      int128 r = 0;
      if (rescale && (__builtin_mul_overflow(a, factor_a, &a) ||
                      __builtin_mul_overflow(b, factor_b, &b))) {
        return false;
      }
      switch (op) {
        case Op::kAdd:
        case Op::kSub:
          if (op == Op::kAdd ? __builtin_add_overflow(a, b, &r)
                             : __builtin_sub_overflow(a, b, &r)) {
            return false;
          }
          break;
        case Op::kMul:
          if (__builtin_mul_overflow(a, b, &r)) return false;
          break;
        case Op::kDiv: {
          if (b == 0) {
            div_zero = true;
            return false;
          }
          int128 n = 0;
          if (!kernel::MulPow10(a, s - s1 + s2, &n)) return false;
          r = n / b;
          int128 rem = n % b;
          if (rem < 0) rem = -rem;
          const int128 abs_b = b < 0 ? -b : b;
          if (rem >= abs_b - rem) r += ((n < 0) != (b < 0)) ? -1 : 1;  // HALF_UP
          break;
        }
        case Op::kMod:
          if (b == 0) {
            div_zero = true;
            return false;
          }
          r = a % b;
          break;
      }
      if (r >= limit || r <= -limit) return false;
      *o = kernel::FromInt128(r);
      return true;
    };
    return kernel::MapBinary<Decimal128, Decimal128, Decimal128>(args[0], args[1], rows,
                                                                 fn.return_type, ctx, op_fn, err);
  };
}

/// The decimal overload family of one operator: applies when one argument is a decimal
/// and the other a decimal, an integer or unknown.
ScalarResolver DecimalResolver(Op op, std::string name) {
  return [op, name](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
    if (types.size() != 2) return std::optional<ScalarFunction>();
    auto is_dec = [](const TypePtr& t) { return t && t->id() == TypeId::kDecimal128; };
    if (!is_dec(types[0]) && !is_dec(types[1])) return std::optional<ScalarFunction>();
    TypePtr a = types[0];
    TypePtr b = types[1];
    auto as_decimal = [](const TypePtr& t, const TypePtr& other) -> TypePtr {
      if (t == nullptr) return other;
      if (t->id() == TypeId::kDecimal128) return t;
      if (t->is_integer()) return IntegerAsDecimal(t);
      return nullptr;
    };
    a = as_decimal(a, types[1]);
    b = as_decimal(b, types[0]);
    if (a == nullptr || b == nullptr) return std::optional<ScalarFunction>();
    const int p1 = a->precision(), s1 = a->scale(), p2 = b->precision(), s2 = b->scale();
    int p = 0;
    int s = 0;
    switch (op) {
      case Op::kAdd:
      case Op::kSub:
        s = std::max(s1, s2);
        p = std::min(38, std::max(p1 - s1, p2 - s2) + s + 1);
        break;
      case Op::kMul:
        s = s1 + s2;
        p = std::min(38, p1 + p2);
        if (s > 38) {
          return Status::InvalidArgument("DECIMAL scale must be in range [0, 38]: " +
                                         std::to_string(s));
        }
        break;
      case Op::kDiv:
        s = std::max(s1, s2);
        p = std::min(38, p1 - s1 + s2 + s);
        break;
      case Op::kMod:
        s = std::max(s1, s2);
        p = std::min(38, std::min(p1 - s1, p2 - s2) + s);
        break;
    }
    p = std::max(p, std::max(s, 1));
    return kernel::Instance(name, {a, b}, columnar::Decimal(p, s), DecimalKernel(op, s1, s2, p, s));
  };
}

ScalarKernel DecimalNegate() {
  return [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) -> Result<Column> {
    using columnar::Decimal128;
    return kernel::MapUnary<Decimal128, Decimal128>(
        args[0], rows, fn.return_type, ctx,
        [](Decimal128 a, Decimal128* o) {
          *o = kernel::FromInt128(-kernel::ToInt128(a));
          return true;
        },
        [](Decimal128) { return Status::OK(); });
  };
}

}  // namespace

void RegisterArithmeticFunctions(FunctionRegistry& registry) {
  const struct {
    Op op;
    const char* name;
    const char* what;
  } kOps[] = {{Op::kAdd, "+", "addition"},
              {Op::kSub, "-", "subtraction"},
              {Op::kMul, "*", "multiplication"},
              {Op::kDiv, "/", "division (integers truncate toward zero)"},
              {Op::kMod, "%", "remainder (sign of the dividend)"}};
  for (const auto& o : kOps) {
    for (const TypePtr& t : kernel::IntegerTypes()) {
      ScalarKernel k;
      switch (t->id()) {
        case TypeId::kInt8:
          k = IntegerKernel<int8_t>(o.op);
          break;
        case TypeId::kInt16:
          k = IntegerKernel<int16_t>(o.op);
          break;
        case TypeId::kInt32:
          k = IntegerKernel<int32_t>(o.op);
          break;
        default:
          k = IntegerKernel<int64_t>(o.op);
          break;
      }
      kernel::AddFixed(registry, o.name, {t, t}, t, k, std::string("integer ") + o.what);
    }
    kernel::AddFixed(registry, o.name, {columnar::Float32(), columnar::Float32()},
                     columnar::Float32(), FloatingKernel<float>(o.op),
                     std::string("real ") + o.what);
    kernel::AddFixed(registry, o.name, {columnar::Float64(), columnar::Float64()},
                     columnar::Float64(), FloatingKernel<double>(o.op),
                     std::string("double ") + o.what);
    FunctionInfo info;
    info.name = o.name;
    info.return_type = "decimal(p,s)";
    info.argument_types = "decimal(p1,s1), decimal(p2,s2)";
    info.description = std::string("decimal ") + o.what;
    registry.AddScalar(o.name, DecimalResolver(o.op, o.name), info);
  }
  for (const TypePtr& t : kernel::IntegerTypes()) {
    ScalarKernel k;
    switch (t->id()) {
      case TypeId::kInt8:
        k = IntegerNegate<int8_t>();
        break;
      case TypeId::kInt16:
        k = IntegerNegate<int16_t>();
        break;
      case TypeId::kInt32:
        k = IntegerNegate<int32_t>();
        break;
      default:
        k = IntegerNegate<int64_t>();
        break;
    }
    kernel::AddFixed(registry, "negate", {t}, t, k, "unary minus");
  }
  kernel::AddFixed(registry, "negate", {columnar::Float32()}, columnar::Float32(),
                   FloatingNegate<float>(), "unary minus");
  kernel::AddFixed(registry, "negate", {columnar::Float64()}, columnar::Float64(),
                   FloatingNegate<double>(), "unary minus");
  FunctionInfo info;
  info.name = "negate";
  info.return_type = "decimal(p,s)";
  info.argument_types = "decimal(p,s)";
  info.description = "unary minus";
  registry.AddScalar(
      "negate",
      [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.size() != 1 || !types[0] || types[0]->id() != TypeId::kDecimal128) {
          return std::optional<ScalarFunction>();
        }
        return kernel::Instance("negate", {types[0]}, types[0], DecimalNegate());
      },
      info);
}

}  // namespace sqe::exec
