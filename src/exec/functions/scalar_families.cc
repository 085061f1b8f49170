// RegisterScalarFunctions: every scalar family, in one list that FunctionRegistry::Global()
// (exec/builtin_functions.cc) and the tests' scalar registry (scalar_test_harness.h) share.

#include "exec/functions/builtin_families.h"

namespace sqe::exec {

void RegisterScalarFunctions(FunctionRegistry& r) {
  RegisterArithmeticFunctions(r);
  RegisterComparisonFunctions(r);
  RegisterStringFunctions(r);
  RegisterDatetimeFunctions(r);
  RegisterMathFunctions(r);
  RegisterConditionalFunctions(r);
  RegisterArrayFunctions(r);
  RegisterSystemInformationFunctions(r);
  RegisterRegexpFunctions(r);
  RegisterMoreMathFunctions(r);
  RegisterStringMoreFunctions(r);
  RegisterFormatFunction(r);
  RegisterArrayRepeatFunction(r);
  RegisterArrayMoreFunctions(r);
  RegisterMapFunctions(r);
  RegisterLambdaFunctions(r);
  RegisterTryFunction(r);
  RegisterJsonFunctions(r);
  RegisterSequenceFunctions(r);
  RegisterZipFunction(r);
  RegisterRowFunctions(r);
}

}  // namespace sqe::exec
