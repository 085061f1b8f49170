#pragma once
/// Building blocks of the scalar kernels (private to exec/functions and the evaluator):
/// result buffers charged to the EvalContext's tracker, null propagation (the AND of the
/// arguments' validity bitmaps), typed element-wise loops over raw buffers that stop at
/// the first error of a non-null row, and the mapping of SQL types to their C++ values.
/// Every loop here is a plain typed loop: no virtual call and no allocation per row.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/bit_util.h"
#include "columnar/buffer.h"
#include "columnar/column.h"
#include "columnar/data_type.h"
#include "columnar/decimal128.h"
#include "common/result.h"
#include "exec/functions/registry.h"

namespace sqe::exec::kernel {

using columnar::Buffer;
using columnar::BufferPtr;
using columnar::Column;
using columnar::Decimal128;
using columnar::TypeId;
using columnar::TypePtr;

using int128 = __int128;

inline int128 ToInt128(const Decimal128& d) {
  return static_cast<int128>((static_cast<unsigned __int128>(static_cast<uint64_t>(d.high)) << 64) |
                             d.low);
}
inline Decimal128 FromInt128(int128 v) {
  return Decimal128(static_cast<int64_t>(v >> 64), static_cast<uint64_t>(v));
}
/// 10^n for 0 <= n <= 38.
int128 Pow10(int n);
/// |v| < 10^precision.
inline bool FitsPrecision(int128 v, int precision) {
  const int128 limit = Pow10(precision);
  return v < limit && v > -limit;
}
/// v / 10^n rounded HALF_UP (away from zero on ties), n >= 0.
int128 DivPow10Round(int128 v, int n);
/// v * 10^n, false on 128-bit overflow.
bool MulPow10(int128 v, int n, int128* out);
/// Decimal digits of v.
std::string Int128ToString(int128 v);

/// A zeroed values buffer of `bytes` bytes charged to ctx.tracker.
Result<std::shared_ptr<Buffer>> AllocateBuffer(int64_t bytes, const EvalContext& ctx);

/// The AND of the validity of `columns` over `rows` rows as a fresh bitmap indexed from
/// bit 0, or nullptr when none of them has a null. *null_count gets the nulls.
Result<BufferPtr> IntersectValidity(std::initializer_list<const Column*> columns, int64_t rows,
                                    const EvalContext& ctx, int64_t* null_count);
Result<BufferPtr> IntersectValidity(const std::vector<Column>& columns, int64_t rows,
                                    const EvalContext& ctx, int64_t* null_count);

/// Whether row i is valid given a bitmap from IntersectValidity (nullptr: all valid).
inline bool ValidAt(const BufferPtr& validity, int64_t i) {
  return validity == nullptr || columnar::GetBit(validity->data(), i);
}

/// `column` with a replaced validity bitmap (`validity` indexed from bit 0 of row 0;
/// nullptr: no nulls). Shares every other buffer; works for every layout.
Result<Column> WithValidity(const Column& column, BufferPtr validity, int64_t null_count,
                            const EvalContext& ctx);

/// A column of a fixed-width type from its parts.
inline Result<Column> MakeFixed(TypePtr type, int64_t rows, BufferPtr validity, int64_t null_count,
                                BufferPtr values) {
  return Column::Make(std::move(type), rows, {std::move(validity), std::move(values)}, {},
                      null_count);
}

/// Physical C++ type of a fixed-width SQL type's values.
template <TypeId id>
struct Physical;
template <>
struct Physical<TypeId::kInt8> {
  using T = int8_t;
};
template <>
struct Physical<TypeId::kInt16> {
  using T = int16_t;
};
template <>
struct Physical<TypeId::kInt32> {
  using T = int32_t;
};
template <>
struct Physical<TypeId::kInt64> {
  using T = int64_t;
};
template <>
struct Physical<TypeId::kFloat32> {
  using T = float;
};
template <>
struct Physical<TypeId::kFloat64> {
  using T = double;
};
template <>
struct Physical<TypeId::kDate32> {
  using T = int32_t;
};
template <>
struct Physical<TypeId::kTime64> {
  using T = int64_t;
};
template <>
struct Physical<TypeId::kTimestamp> {
  using T = int64_t;
};
template <>
struct Physical<TypeId::kDecimal128> {
  using T = Decimal128;
};

/// Calls f(T{}) with T the C++ type of an integer type id (int8..int64).
template <typename F>
auto VisitInteger(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kInt8:
      return f(int8_t{});
    case TypeId::kInt16:
      return f(int16_t{});
    case TypeId::kInt32:
      return f(int32_t{});
    default:
      return f(int64_t{});
  }
}

/// Element-wise out[i] = op(a[i]) over fixed-width columns; op(In, Out*) returns false on
/// an error, reported through err(In) for non-null rows only. Nulls propagate.
template <typename In, typename Out, typename Op, typename Err>
Result<Column> MapUnary(const Column& a, int64_t rows, TypePtr out_type, const EvalContext& ctx,
                        Op&& op, Err&& err) {
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(BufferPtr validity, IntersectValidity({&a}, rows, ctx, &nulls));
  SQE_ASSIGN_OR_RETURN(auto values, AllocateBuffer(rows * static_cast<int64_t>(sizeof(Out)), ctx));
  Out* out = values->template mutable_data_as<Out>();
  const In* in = a.Values<In>();
  for (int64_t i = 0; i < rows; ++i) {
    if (!op(in[i], &out[i])) {
      if (ValidAt(validity, i)) return err(in[i]);
      out[i] = Out{};
    }
  }
  return MakeFixed(std::move(out_type), rows, std::move(validity), nulls, std::move(values));
}

/// Element-wise out[i] = op(a[i], b[i]); as MapUnary.
template <typename A, typename B, typename Out, typename Op, typename Err>
Result<Column> MapBinary(const Column& a, const Column& b, int64_t rows, TypePtr out_type,
                         const EvalContext& ctx, Op&& op, Err&& err) {
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(BufferPtr validity, IntersectValidity({&a, &b}, rows, ctx, &nulls));
  SQE_ASSIGN_OR_RETURN(auto values, AllocateBuffer(rows * static_cast<int64_t>(sizeof(Out)), ctx));
  Out* out = values->template mutable_data_as<Out>();
  const A* x = a.Values<A>();
  const B* y = b.Values<B>();
  for (int64_t i = 0; i < rows; ++i) {
    if (!op(x[i], y[i], &out[i])) {
      if (ValidAt(validity, i)) return err(x[i], y[i]);
      out[i] = Out{};
    }
  }
  return MakeFixed(std::move(out_type), rows, std::move(validity), nulls, std::move(values));
}

/// A boolean result column filled by pred(i) for every row; nulls from `validity`.
template <typename Pred>
Result<Column> MakeBooleanColumn(int64_t rows, BufferPtr validity, int64_t nulls,
                                 const EvalContext& ctx, Pred&& pred) {
  SQE_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(columnar::BytesForBits(rows), ctx));
  uint8_t* out = bits->mutable_data();
  int64_t i = 0;
  for (; i + 8 <= rows; i += 8) {
    uint8_t byte = 0;
    for (int k = 0; k < 8; ++k) byte |= static_cast<uint8_t>(pred(i + k) ? 1u << k : 0u);
    out[i >> 3] = byte;
  }
  for (; i < rows; ++i) {
    if (pred(i)) columnar::SetBit(out, i);
  }
  return Column::Make(columnar::Boolean(), rows, {std::move(validity), std::move(bits)}, {}, nulls);
}

/// Appends code point `cp` as UTF-8.
void AppendUtf8(uint32_t cp, std::string* out);
/// Decodes the code point at text[*pos] and advances *pos (invalid bytes count as one
/// code point each, U+FFFD).
uint32_t NextCodePoint(std::string_view text, size_t* pos);
/// Number of code points.
int64_t CodePointCount(std::string_view text);

/// "INTEGER", "DECIMAL(10,2)": a type's name as Trino's error messages spell it.
std::string UpperTypeName(const TypePtr& type);

/// Row-wise drivers for kernels whose per-row work is not a single arithmetic step
/// (strings, calendar math). `fn` runs only for rows where every argument is valid and
/// returns a Status (an OK status is free); it may set *is_null for a NULL result.
/// The per-row call is a direct (inlined) lambda call, never a virtual one.
template <typename Fn>
Result<Column> MapToString(const std::vector<Column>& args, int64_t rows, const EvalContext& ctx,
                           Fn&& fn, TypePtr type = columnar::String()) {
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(BufferPtr validity, IntersectValidity(args, rows, ctx, &nulls));
  columnar::BinaryBuilder builder(std::move(type), ctx.tracker);
  SQE_RETURN_NOT_OK(builder.Reserve(rows));
  std::string out;
  for (int64_t i = 0; i < rows; ++i) {
    if (!ValidAt(validity, i)) {
      SQE_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    out.clear();
    bool is_null = false;
    SQE_RETURN_NOT_OK(fn(i, &out, &is_null));
    SQE_RETURN_NOT_OK(is_null ? builder.AppendNull() : builder.Append(out));
  }
  return builder.Finish();
}

template <typename Out, typename Fn>
Result<Column> MapToFixed(const std::vector<Column>& args, int64_t rows, TypePtr type,
                          const EvalContext& ctx, Fn&& fn) {
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(BufferPtr validity, IntersectValidity(args, rows, ctx, &nulls));
  SQE_ASSIGN_OR_RETURN(auto values, AllocateBuffer(rows * static_cast<int64_t>(sizeof(Out)), ctx));
  Out* out = values->template mutable_data_as<Out>();
  std::shared_ptr<Buffer> own_validity;
  for (int64_t i = 0; i < rows; ++i) {
    if (!ValidAt(validity, i)) continue;
    bool is_null = false;
    SQE_RETURN_NOT_OK(fn(i, &out[i], &is_null));
    if (is_null) {
      if (own_validity == nullptr) {
        SQE_ASSIGN_OR_RETURN(own_validity, AllocateBuffer(columnar::BytesForBits(rows), ctx));
        if (validity != nullptr) {
          std::memcpy(own_validity->mutable_data(), validity->data(), validity->size());
        } else {
          columnar::SetBitsTo(own_validity->mutable_data(), 0, rows, true);
        }
        validity = own_validity;
      }
      columnar::ClearBit(own_validity->mutable_data(), i);
      out[i] = Out{};
      ++nulls;
    }
  }
  return MakeFixed(std::move(type), rows, std::move(validity), nulls, std::move(values));
}

/// Boolean results row by row (fn(i, bool*, bool* is_null) -> Status).
template <typename Fn>
Result<Column> MapToBoolean(const std::vector<Column>& args, int64_t rows, const EvalContext& ctx,
                            Fn&& fn) {
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(BufferPtr validity, IntersectValidity(args, rows, ctx, &nulls));
  SQE_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(columnar::BytesForBits(rows), ctx));
  std::shared_ptr<Buffer> own_validity;
  for (int64_t i = 0; i < rows; ++i) {
    if (!ValidAt(validity, i)) continue;
    bool v = false;
    bool is_null = false;
    SQE_RETURN_NOT_OK(fn(i, &v, &is_null));
    if (is_null) {
      if (own_validity == nullptr) {
        SQE_ASSIGN_OR_RETURN(own_validity, AllocateBuffer(columnar::BytesForBits(rows), ctx));
        if (validity != nullptr) {
          std::memcpy(own_validity->mutable_data(), validity->data(), validity->size());
        } else {
          columnar::SetBitsTo(own_validity->mutable_data(), 0, rows, true);
        }
        validity = own_validity;
      }
      columnar::ClearBit(own_validity->mutable_data(), i);
      ++nulls;
    } else if (v) {
      columnar::SetBit(bits->mutable_data(), i);
    }
  }
  return Column::Make(columnar::Boolean(), rows, {std::move(validity), std::move(bits)}, {}, nulls);
}

/// Registers a fixed signature.
inline void AddFixed(FunctionRegistry& registry, std::string name, std::vector<TypePtr> args,
                     TypePtr result, ScalarKernel kernel, std::string description,
                     bool deterministic = true) {
  ScalarFunction fn;
  fn.name = std::move(name);
  fn.arg_types = std::move(args);
  fn.return_type = std::move(result);
  fn.kernel = std::move(kernel);
  fn.deterministic = deterministic;
  registry.AddScalar(std::move(fn), std::move(description));
}

/// A parametric instance made by a resolver.
inline std::optional<ScalarFunction> Instance(std::string name, std::vector<TypePtr> args,
                                              TypePtr result, ScalarKernel kernel) {
  ScalarFunction fn;
  fn.name = std::move(name);
  fn.arg_types = std::move(args);
  fn.return_type = std::move(result);
  fn.kernel = std::move(kernel);
  return fn;
}

/// The integer types, the floating types, every orderable fixed-width temporal type.
std::vector<TypePtr> IntegerTypes();

}  // namespace sqe::exec::kernel
