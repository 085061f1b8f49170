// FunctionRegistry::Global(): every built-in function family, registered once.

#include "exec/functions/builtin_families.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

const FunctionRegistry& FunctionRegistry::Global() {
  static const FunctionRegistry* registry = [] {
    auto* r = new FunctionRegistry();
    RegisterScalarFunctions(*r);
    // Aggregate families (exec/functions/aggregate_*.cc) register here.
    RegisterAggregateFunctions(*r);
    return r;
  }();
  return *registry;
}

}  // namespace sqe::exec
