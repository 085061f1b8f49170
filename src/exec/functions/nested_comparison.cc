#include "exec/functions/nested_comparison.h"

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "exec/functions/array_elements_internal.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;

namespace {

/// A three-valued comparison outcome.
enum class Truth : uint8_t { kFalse, kTrue, kUnknown };

/// `=` of two valid scalars: IEEE for floats (NaN unequal) unless `nan_equal`.
bool ScalarEqual(const Column& a, int64_t i, const Column& b, int64_t j, bool nan_equal) {
  if (!nan_equal) {
    if (a.type_id() == TypeId::kFloat64) return a.Values<double>()[i] == b.Values<double>()[j];
    if (a.type_id() == TypeId::kFloat32) return a.Values<float>()[i] == b.Values<float>()[j];
  }
  return array_elements::CompareValues(a, i, b, j) == 0;
}

/// Row i of a against row j of b. `null_equal`: IS NOT DISTINCT FROM (NULLs equal each
/// other, never kUnknown); else `=` (a NULL anywhere that decides gives kUnknown).
Truth Equal(const Column& a, int64_t i, const Column& b, int64_t j, bool null_equal) {
  const bool an = a.IsNull(i);
  const bool bn = b.IsNull(j);
  if (an || bn) {
    if (!null_equal) return Truth::kUnknown;
    return an == bn ? Truth::kTrue : Truth::kFalse;
  }
  bool unknown = false;
  // Folds one element's outcome; true when the walk can stop (a false).
  auto fold = [&unknown](Truth t) {
    if (t == Truth::kUnknown) unknown = true;
    return t == Truth::kFalse;
  };
  switch (a.type_id()) {
    case TypeId::kList: {
      const int64_t n = a.ListLength(i);
      if (n != b.ListLength(j)) return Truth::kFalse;
      const int64_t as = a.ListStart(i);
      const int64_t bs = b.ListStart(j);
      for (int64_t k = 0; k < n; ++k) {
        if (fold(Equal(a.ListValues(), as + k, b.ListValues(), bs + k, null_equal))) {
          return Truth::kFalse;
        }
      }
      break;
    }
    case TypeId::kStruct:
      for (int f = 0; f < a.num_children(); ++f) {
        if (fold(Equal(a.StructField(f), i, b.StructField(f), j, null_equal))) return Truth::kFalse;
      }
      break;
    case TypeId::kMap: {
      const int64_t n = a.ListLength(i);
      if (n != b.ListLength(j)) return Truth::kFalse;
      const Column ak = a.MapKeys();
      const Column av = a.MapItems();
      const Column bk = b.MapKeys();
      const Column bv = b.MapItems();
      const int64_t as = a.ListStart(i);
      const int64_t bs = b.ListStart(j);
      for (int64_t k = 0; k < n; ++k) {
        int64_t match = -1;
        for (int64_t m = 0; m < n && match < 0; ++m) {
          if (Equal(ak, as + k, bk, bs + m, true) == Truth::kTrue) match = bs + m;
        }
        if (match < 0) return Truth::kFalse;  // different key sets
        if (fold(Equal(av, as + k, bv, match, null_equal))) return Truth::kFalse;
      }
      break;
    }
    default:
      return ScalarEqual(a, i, b, j, null_equal) ? Truth::kTrue : Truth::kFalse;
  }
  return unknown ? Truth::kUnknown : Truth::kTrue;
}

/// Order of two valid values of an orderable type; an error when a NULL element or field
/// is reached before the order is decided (Trino's rule).
Result<int> Order(const Column& a, int64_t i, const Column& b, int64_t j) {
  switch (a.type_id()) {
    case TypeId::kList: {
      const int64_t an = a.ListLength(i);
      const int64_t bn = b.ListLength(j);
      const int64_t as = a.ListStart(i);
      const int64_t bs = b.ListStart(j);
      const Column& av = a.ListValues();
      const Column& bv = b.ListValues();
      for (int64_t k = 0; k < std::min(an, bn); ++k) {
        if (av.IsNull(as + k) || bv.IsNull(bs + k)) {
          return Status::NotImplemented(
              "ARRAY comparison not supported for arrays with null elements");
        }
        SQE_ASSIGN_OR_RETURN(int c, Order(av, as + k, bv, bs + k));
        if (c != 0) return c;
      }
      return an < bn ? -1 : (an > bn ? 1 : 0);
    }
    case TypeId::kStruct:
      for (int f = 0; f < a.num_children(); ++f) {
        const Column af = a.StructField(f);
        const Column bf = b.StructField(f);
        if (af.IsNull(i) || bf.IsNull(j)) {
          return Status::NotImplemented(
              "ROW comparison not supported for fields with null elements");
        }
        SQE_ASSIGN_OR_RETURN(int c, Order(af, i, bf, j));
        if (c != 0) return c;
      }
      return 0;
    case TypeId::kMap:
      return Status::NotImplemented("map values have no order: " + a.type()->ToString());
    default:
      return array_elements::CompareValues(a, i, b, j);  // NaN largest, as array_sort
  }
}

}  // namespace

bool IsOrderableType(const TypePtr& type) {
  if (type == nullptr || type->id() == TypeId::kMap) return false;
  for (const columnar::Field& f : type->fields()) {
    if (!IsOrderableType(f.type())) return false;
  }
  return true;
}

std::optional<bool> NestedEquals(const Column& a, int64_t i, const Column& b, int64_t j) {
  const Truth t = Equal(a, i, b, j, false);
  if (t == Truth::kUnknown) return std::nullopt;
  return t == Truth::kTrue;
}

Result<Column> CompareNestedColumns(CompareOp op, const Column& a, const Column& b,
                                    const EvalContext& ctx) {
  const int64_t rows = a.length();
  const bool ordering = op != CompareOp::kEq && op != CompareOp::kNe;
  if (ordering && !IsOrderableType(a.type())) {
    return Status::NotImplemented("values of type " + a.type()->ToString() + " have no order");
  }
  // 0 false, 1 true, 2 NULL.
  std::vector<uint8_t> result(static_cast<size_t>(rows), 2);
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (a.IsNull(i) || b.IsNull(i)) {
      ++nulls;
      continue;
    }
    if (ordering) {
      SQE_ASSIGN_OR_RETURN(int c, Order(a, i, b, i));
      result[i] = CompareHolds(op, c) ? 1 : 0;
      continue;
    }
    const Truth t = Equal(a, i, b, i, false);
    if (t == Truth::kUnknown) {
      ++nulls;
      continue;
    }
    result[i] = ((t == Truth::kTrue) == (op == CompareOp::kEq)) ? 1 : 0;
  }
  columnar::BufferPtr validity;
  if (nulls > 0) {
    SQE_ASSIGN_OR_RETURN(auto valid, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
    for (int64_t i = 0; i < rows; ++i) {
      if (result[i] != 2) columnar::SetBit(valid->mutable_data(), i);
    }
    validity = std::move(valid);
  }
  return kernel::MakeBooleanColumn(rows, std::move(validity), nulls, ctx,
                                   [&](int64_t i) { return result[i] == 1; });
}

Result<Column> DistinctColumns(const Column& a, const Column& b, bool distinct,
                               const EvalContext& ctx) {
  return kernel::MakeBooleanColumn(a.length(), nullptr, 0, ctx, [&](int64_t i) {
    return (Equal(a, i, b, i, true) == Truth::kFalse) == distinct;
  });
}

}  // namespace sqe::exec
