#pragma once
/// Higher-order functions (transform, filter, reduce, any_match, map_filter, zip_with, ...):
/// functions with lambda arguments. The binder asks LambdaParameterTypes for the types of a
/// lambda's parameters, binds the body (exec::ExprKind::kLambda) and resolves the function in
/// the registry with the body's type standing for the lambda argument. The registry entry
/// exists for resolution and SHOW FUNCTIONS; the evaluator runs the call through the
/// HigherOrderKernel FindHigherOrderKernel gives, handing it a LambdaFn per lambda argument.
///
/// Thread-safe: the kernel table is built once and read-only afterwards.

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "columnar/column.h"
#include "common/result.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

/// Evaluates a lambda's body over `params.size()`-ary inputs: params[p] holds parameter p of
/// every invocation (each of row_of.size() rows), and invocation j belongs to row row_of[j]
/// of the call's input (so the body may read that row's columns). Returns one value per
/// invocation.
using LambdaFn = std::function<Result<columnar::Column>(const std::vector<columnar::Column>& params,
                                                        const std::vector<uint32_t>& row_of)>;

/// The kernel of a higher-order function: `args` are the evaluated non-lambda arguments (an
/// empty Column where a lambda stands), `lambdas` the lambda arguments in order.
using HigherOrderKernel = std::function<Result<columnar::Column>(
    const std::vector<columnar::Column>& args, const std::vector<LambdaFn>& lambdas, int64_t rows,
    const ScalarFunction& fn, const EvalContext& ctx)>;

/// The kernel of higher-order function `name`, or nullptr when `name` takes no lambda.
const HigherOrderKernel* FindHigherOrderKernel(std::string_view name);

/// Whether `name` is a higher-order function (takes lambda arguments).
bool IsHigherOrderFunction(std::string_view name);

/// The parameter types of the lambda at argument `index` of a call of `name`, given the
/// types of the arguments before it (for an earlier lambda: its body's type).
/// InvalidArgument when `name` takes no lambda there or an earlier argument has the wrong
/// type for it.
Result<std::vector<columnar::TypePtr>> LambdaParameterTypes(
    std::string_view name, size_t index, const std::vector<columnar::TypePtr>& earlier);

}  // namespace sqe::exec
