#pragma once
/// The cost of one implicit coercion, for overload resolution (registry.cc): 0 for the
/// same type, a small positive number growing with the distance along Trino's widening
/// chain (tinyint < smallint < integer < bigint < decimal < real < double), -1 when
/// `from` does not coerce to `to` implicitly.

#include "columnar/data_type.h"

namespace sqe::exec {

int ImplicitCoercionCost(const columnar::TypePtr& from, const columnar::TypePtr& to);

/// The decimal type an integer type widens to: decimal(3,0), (5,0), (10,0), (19,0).
columnar::TypePtr IntegerAsDecimal(const columnar::TypePtr& integer_type);

}  // namespace sqe::exec
