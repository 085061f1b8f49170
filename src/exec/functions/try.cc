// try(expr): Trino's try, the value of expr or NULL where evaluating it fails with an
// error of the data (division by zero, an invalid cast, a value out of range, an invalid
// function argument). The evaluator runs it (exec/expression_evaluator.cc, EvalTry): it
// needs the unevaluated argument to retry the failing rows one by one. This entry gives
// the call its type and its row in SHOW FUNCTIONS.

#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;

void RegisterTryFunction(FunctionRegistry& r) {
  r.AddScalar("try",
              [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
                if (types.size() != 1) return std::optional<ScalarFunction>();
                TypePtr t = types[0] != nullptr ? types[0] : columnar::Boolean();
                // Reached only when the argument evaluated without error: the value itself.
                return kernel::Instance(
                    "try", {t}, t,
                    [](const std::vector<Column>& args, int64_t, const ScalarFunction&,
                       const EvalContext&) -> Result<Column> { return args[0]; });
              },
              {"try", "T", "T", "scalar",
               "the value of the expression, or NULL where evaluating it fails (division by zero, "
               "invalid cast, value out of range, invalid argument)"});
}

}  // namespace sqe::exec
