#pragma once
/// One registration function per family of built-in functions; FunctionRegistry::Global()
/// (exec/builtin_functions.cc) calls RegisterScalarFunctions and RegisterAggregateFunctions
/// once. Adding a scalar family: one file under exec/functions, one declaration here, one
/// call in RegisterScalarFunctions (scalar_families.cc; docs/dev/adding-a-function.md).

#include "exec/functions/registry.h"

namespace sqe::exec {

/// Every scalar family below, in order (scalar_families.cc).
void RegisterScalarFunctions(FunctionRegistry& registry);

// Scalar families (exec/functions/<family>.cc).
void RegisterArithmeticFunctions(FunctionRegistry& registry);   // + - * / % negate
void RegisterComparisonFunctions(FunctionRegistry& registry);   // = <> < <= > >=
void RegisterStringFunctions(FunctionRegistry& registry);       // length, substr, like, ...
void RegisterDatetimeFunctions(FunctionRegistry& registry);     // date_trunc, date_add, ...
void RegisterMathFunctions(FunctionRegistry& registry);         // abs, round, sqrt, ...
void RegisterConditionalFunctions(FunctionRegistry& registry);  // if, nullif, greatest, least
void RegisterArrayFunctions(FunctionRegistry& registry);        // ARRAY[...], cardinality, a[i]
void RegisterSystemInformationFunctions(FunctionRegistry& registry);  // version()
void RegisterRegexpFunctions(FunctionRegistry& registry);  // regexp_extract_all, regexp_split, ...
void RegisterMoreMathFunctions(FunctionRegistry& registry);    // sinh, width_bucket, bitwise_*, ...
void RegisterStringMoreFunctions(FunctionRegistry& registry);  // split, normalize, url_*, ...
void RegisterFormatFunction(FunctionRegistry& registry);       // format(fmt, args...)
void RegisterArrayRepeatFunction(FunctionRegistry& registry);  // repeat(element, count)
void RegisterArrayMoreFunctions(FunctionRegistry& registry);   // array_sort, slice, sequence, ...
void RegisterMapFunctions(FunctionRegistry& registry);         // map(), map_keys, map_concat, ...
void RegisterLambdaFunctions(FunctionRegistry& registry);      // transform, filter, reduce, ...
void RegisterTryFunction(FunctionRegistry& registry);          // try(expr)
void RegisterJsonFunctions(FunctionRegistry& registry);        // json_parse, json_extract, ...
void RegisterSequenceFunctions(FunctionRegistry& registry);    // sequence(start, stop[, step])
void RegisterZipFunction(FunctionRegistry& registry);          // zip(a, b, ...)
void RegisterRowFunctions(FunctionRegistry& registry);         // ROW(...) over non-constants

// Aggregate families (exec/functions/aggregate_*.cc) are declared below this line.
/// count, count_if, sum, avg, min, max, arbitrary/any_value, max_by, min_by, stddev*,
/// var*, variance, bool_and/bool_or/every, approx_distinct (aggregate_functions.cc).
void RegisterAggregateFunctions(FunctionRegistry& registry);

}  // namespace sqe::exec
