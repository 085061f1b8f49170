// version(): what the server reports about itself to SQL (Trino clients and tools such as
// Superset and the Trino CLI's status line ask for it).

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
}

}  // namespace sqe::exec
