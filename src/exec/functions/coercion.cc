// Trino's implicit coercions: CommonSuperType, CanCoerceImplicitly and the resolution
// cost of a coercion.

#include <algorithm>

#include "exec/functions/coercion_internal.h"
#include "exec/functions/registry.h"
#include "exec/functions/row_functions.h"

namespace sqe::exec {

using columnar::TypeId;
using columnar::TypePtr;

namespace {

/// Rank along the numeric widening chain; 0 for non-numeric types.
int NumericRank(TypeId id) {
  switch (id) {
    case TypeId::kInt8:
      return 1;
    case TypeId::kInt16:
      return 2;
    case TypeId::kInt32:
      return 3;
    case TypeId::kInt64:
      return 4;
    case TypeId::kDecimal128:
      return 5;
    case TypeId::kFloat32:
      return 6;
    case TypeId::kFloat64:
      return 7;
    default:
      return 0;
  }
}

int IntegerDigits(TypeId id) {
  switch (id) {
    case TypeId::kInt8:
      return 3;
    case TypeId::kInt16:
      return 5;
    case TypeId::kInt32:
      return 10;
    default:
      return 19;
  }
}

bool IsTimestamp(const TypePtr& t) { return t->id() == TypeId::kTimestamp; }

}  // namespace

TypePtr IntegerAsDecimal(const TypePtr& integer_type) {
  return columnar::Decimal(IntegerDigits(integer_type->id()), 0);
}

int ImplicitCoercionCost(const TypePtr& from, const TypePtr& to) {
  if (to == nullptr) return from == nullptr ? 0 : -1;
  if (from == nullptr) return 1;  // unknown (NULL) -> anything
  if (from->Equals(*to)) return 0;
  if (IsUnknownElementArray(from) && to->id() == TypeId::kList) return 1;  // ARRAY[]
  const TypeId f = from->id();
  const TypeId t = to->id();
  const int rf = NumericRank(f);
  const int rt = NumericRank(t);
  if (rf != 0 && rt != 0) {
    if (rf > rt) return -1;
    if (t == TypeId::kDecimal128) {
      if (f == TypeId::kDecimal128) {
        const bool fits = to->precision() - to->scale() >= from->precision() - from->scale() &&
                          to->scale() >= from->scale();
        // A super type capped at 38 digits (decimal(38,2) vs decimal(38,6) -> decimal(38,6))
        // is still the common type, as in Trino: values past its range fail at run time.
        const bool capped = to->precision() == columnar::DataType::kMaxDecimalPrecision &&
                            to->scale() >= from->scale();
        return fits || capped ? 1 : -1;
      }
      // integer -> decimal: only when the integer's digits fit.
      return to->precision() - to->scale() >= IntegerDigits(f) ? rt - rf : -1;
    }
    return rt - rf;
  }
  switch (f) {
    case TypeId::kDate32:
      return t == TypeId::kTimestamp ? 1 : -1;
    case TypeId::kTimestamp:
      if (t != TypeId::kTimestamp) return -1;
      if (from->has_timezone() && !to->has_timezone()) return -1;
      if (static_cast<int>(to->unit()) < static_cast<int>(from->unit())) return -1;
      return 1;
    case TypeId::kTime64:
      return t == TypeId::kTime64 && to->unit() >= from->unit() ? 1 : -1;
    case TypeId::kString:
      return t == TypeId::kString ? 0 : -1;
    case TypeId::kFixedSizeBinary:
      return t == TypeId::kBinary ? 1 : -1;
    case TypeId::kList:
      if (t != TypeId::kList) return -1;
      return ImplicitCoercionCost(from->value_field().type(), to->value_field().type());
    case TypeId::kStruct: {
      // Field by field (the names may differ: a row coerces positionally).
      if (t != TypeId::kStruct || from->num_fields() != to->num_fields()) return -1;
      int cost = 0;
      for (int i = 0; i < from->num_fields(); ++i) {
        if (IsUnknownRowField(from->field(i))) {  // ROW(.., NULL): any type
          cost += 1;
          continue;
        }
        const int c = ImplicitCoercionCost(from->field(i).type(), to->field(i).type());
        if (c < 0) return -1;
        cost += c;
      }
      return cost == 0 ? 1 : cost;
    }
    default:
      return -1;
  }
}

bool CanCoerceImplicitly(const TypePtr& from, const TypePtr& to) {
  return ImplicitCoercionCost(from, to) >= 0;
}

namespace {

/// The element field name that marks an empty ARRAY[] (no user field can be named so in a
/// list: list elements are anonymous in SQL).
constexpr const char* kUnknownElement = "$unknown";

}  // namespace

TypePtr UnknownElementArray() {
  return columnar::List(columnar::Field(kUnknownElement, columnar::Boolean()));
}

bool IsUnknownElementArray(const TypePtr& type) {
  return type != nullptr && type->id() == TypeId::kList &&
         type->value_field().name() == kUnknownElement;
}

std::optional<TypePtr> CommonSuperType(const TypePtr& a, const TypePtr& b) {
  if (a == nullptr) return b;
  if (b == nullptr) return a;
  // An empty ARRAY[] takes the other side's array type.
  if (IsUnknownElementArray(a) && b->id() == TypeId::kList) return b;
  if (IsUnknownElementArray(b) && a->id() == TypeId::kList) return a;
  if (a->Equals(*b)) return a;
  const TypeId ia = a->id();
  const TypeId ib = b->id();
  const int ra = NumericRank(ia);
  const int rb = NumericRank(ib);
  if (ra != 0 && rb != 0) {
    if (ia == TypeId::kDecimal128 || ib == TypeId::kDecimal128) {
      if (ra > 5 || rb > 5) return ra > rb ? a : b;  // real / double win
      const TypePtr da = ia == TypeId::kDecimal128 ? a : IntegerAsDecimal(a);
      const TypePtr db = ib == TypeId::kDecimal128 ? b : IntegerAsDecimal(b);
      const int scale = std::max(da->scale(), db->scale());
      const int int_digits = std::max(da->precision() - da->scale(), db->precision() - db->scale());
      return columnar::Decimal(std::min(38, int_digits + scale), scale);
    }
    return ra > rb ? a : b;
  }
  if (ia == TypeId::kDate32 && IsTimestamp(b)) return b;
  if (IsTimestamp(a) && ib == TypeId::kDate32) return a;
  if (IsTimestamp(a) && IsTimestamp(b)) {
    const auto unit = std::max(a->unit(), b->unit());
    if (a->has_timezone() || b->has_timezone()) {
      return columnar::Timestamp(unit, a->has_timezone() ? a->timezone() : b->timezone());
    }
    return columnar::Timestamp(unit);
  }
  if (ia == TypeId::kTime64 && ib == TypeId::kTime64) {
    return columnar::Time64(std::max(a->unit(), b->unit()));
  }
  if (ia == TypeId::kString && ib == TypeId::kString) return a;
  if ((ia == TypeId::kBinary || ia == TypeId::kFixedSizeBinary) &&
      (ib == TypeId::kBinary || ib == TypeId::kFixedSizeBinary)) {
    return columnar::Binary();
  }
  if (ia == TypeId::kList && ib == TypeId::kList) {
    auto element = CommonSuperType(a->value_field().type(), b->value_field().type());
    if (!element) return std::nullopt;
    return columnar::List(*element);
  }
  if (ia == TypeId::kStruct && ib == TypeId::kStruct && a->num_fields() == b->num_fields()) {
    // Field-wise common types; a field keeps its name when both sides agree on it, else
    // it is anonymous (as Trino's row coercion).
    std::vector<columnar::Field> fields;
    for (int i = 0; i < a->num_fields(); ++i) {
      const columnar::Field& fa = a->field(i);
      const columnar::Field& fb = b->field(i);
      const std::string name = fa.name() == fb.name() ? fa.name() : std::string();
      // An untyped NULL's field (ROW(1, NULL)) takes the other side's type.
      if (IsUnknownRowField(fa) || IsUnknownRowField(fb)) {
        fields.push_back((IsUnknownRowField(fa) ? fb : fa).WithName(name));
        continue;
      }
      auto field = CommonSuperType(fa.type(), fb.type());
      if (!field) return std::nullopt;
      fields.emplace_back(name, *field, true);
    }
    return columnar::Struct(std::move(fields));
  }
  return std::nullopt;
}

}  // namespace sqe::exec
