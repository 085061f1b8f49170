// version(): what the server reports about itself to SQL (Trino clients and tools such as
// Superset and the Trino CLI's status line ask for it); typeof(x): the SQL type of x.

#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"

#ifndef SQE_VERSION
#define SQE_VERSION "0.0.0"
#endif

namespace sqe::exec {

using columnar::Column;

void RegisterSystemInformationFunctions(FunctionRegistry& r) {
  kernel::AddFixed(
      r, "version", {}, columnar::String(),
      [](const std::vector<Column>&, int64_t rows, const ScalarFunction&, const EvalContext& ctx) {
        return kernel::MapToString({}, rows, ctx, [](int64_t, std::string* out, bool*) {
          out->assign("sqe-" SQE_VERSION);
          return Status::OK();
        });
      },
      "the server's version (sqe-<version>)");
  // The binder folds typeof(x) to a constant (planner/bind_expression.cc); this entry gives
  // it a row in SHOW FUNCTIONS and answers the same where a call reaches the evaluator.
  r.AddScalar(
      "typeof",
      [](const std::vector<columnar::TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.size() != 1) return std::optional<ScalarFunction>();
        std::string name = types[0] != nullptr ? types[0]->ToString() : "unknown";
        return kernel::Instance(
            "typeof", {types[0] != nullptr ? types[0] : columnar::Boolean()}, columnar::String(),
            [name](const std::vector<Column>&, int64_t rows, const ScalarFunction&,
                   const EvalContext& ctx) {
              return kernel::MapToString({}, rows, ctx, [&name](int64_t, std::string* out, bool*) {
                out->assign(name);
                return Status::OK();
              });
            });
      },
      {"typeof", "varchar", "T", "scalar", "the SQL type of the argument, e.g. 'decimal(10,2)'"});
}

}  // namespace sqe::exec
