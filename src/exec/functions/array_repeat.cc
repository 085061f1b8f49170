// repeat(element, count): Trino's array of `count` copies of a value (NULL elements
// repeat as NULLs; a NULL count gives NULL). count must lie in [0, 10000].

#include <string>
#include <vector>

#include "exec/functions/builtin_families.h"
#include "exec/functions/interleave.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;

namespace {

constexpr int64_t kMaxRepeat = 10000;

Result<Column> Repeat(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                      const EvalContext& ctx) {
  const Column& element = args[0];
  const Column& count = args[1];
  std::vector<int32_t> piece;
  std::vector<uint32_t> source;
  SQE_ASSIGN_OR_RETURN(auto offsets, kernel::AllocateBuffer((rows + 1) * 4, ctx));
  int32_t* off = offsets->mutable_data_as<int32_t>();
  off[0] = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t n = count.IsNull(i) ? 0 : count.Value<int64_t>(i);
    if (n < 0) {
      return Status::InvalidArgument(
          "count argument of repeat function must be greater than or equal to 0");
    }
    if (n > kMaxRepeat) {
      return Status::InvalidArgument(
          "count argument of repeat function must be less than or equal to 10000");
    }
    for (int64_t k = 0; k < n; ++k) {
      piece.push_back(element.IsNull(i) ? -1 : 0);
      source.push_back(static_cast<uint32_t>(i));
    }
    if (static_cast<int64_t>(piece.size()) > INT32_MAX) {
      return Status::ResourceExhausted("array column larger than 2^31 elements");
    }
    off[i + 1] = static_cast<int32_t>(piece.size());
  }
  const TypePtr& element_type = fn.return_type->value_field().type();
  SQE_ASSIGN_OR_RETURN(Column child,
                       Interleave(element_type, {element}, piece.data(), source.data(),
                                  static_cast<int64_t>(piece.size()), ctx));
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::IntersectValidity({&count}, rows, ctx, &nulls));
  return Column::Make(fn.return_type, rows, {std::move(validity), std::move(offsets)},
                      {std::move(child)}, nulls);
}

}  // namespace

void RegisterArrayRepeatFunction(FunctionRegistry& r) {
  r.AddScalar(
      "repeat",
      [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.size() != 2) return std::optional<ScalarFunction>();
        if (types[1] != nullptr && !CanCoerceImplicitly(types[1], columnar::Int64())) {
          return std::optional<ScalarFunction>();
        }
        TypePtr element = types[0] == nullptr ? columnar::Boolean() : types[0];
        return kernel::Instance("repeat", {element, columnar::Int64()}, columnar::List(element),
                                Repeat);
      },
      {"repeat", "array(T)", "T, bigint", "scalar", "an array of `count` copies of the element"});
}

}  // namespace sqe::exec
