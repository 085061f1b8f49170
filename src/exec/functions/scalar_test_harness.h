#pragma once
/// Test-only: a registry with every scalar family, a way to call a function by name on
/// columns (arguments cast to the resolved overload's types, as the binder would), and
/// the rows of a column as text (CAST to varchar, NULL for nulls). *_test.cc only.

#include <string>
#include <vector>

#include "columnar/test_columns.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/cast.h"
#include "exec/functions/registry.h"

namespace sqe::exec::testing {

inline const FunctionRegistry& ScalarRegistry() {
  static const FunctionRegistry* registry = [] {
    auto* r = new FunctionRegistry();
    RegisterScalarFunctions(*r);
    return r;
  }();
  return *registry;
}

inline EvalContext TestContext() {
  EvalContext ctx;
  ctx.query_start_micros = 1'706'700'000'000'000;  // 2024-01-31 11:20:00 UTC
  return ctx;
}

/// name(args...) through overload resolution; the result column or the error.
inline Result<columnar::Column> Call(const std::string& name, std::vector<columnar::Column> args,
                                     int64_t rows = -1) {
  std::vector<columnar::TypePtr> types;
  for (const auto& a : args) types.push_back(a.type());
  SQE_ASSIGN_OR_RETURN(const ScalarFunction* fn, ScalarRegistry().ResolveScalar(name, types));
  const EvalContext ctx = TestContext();
  for (size_t i = 0; i < args.size(); ++i) {
    SQE_ASSIGN_OR_RETURN(args[i], CastColumn(args[i], fn->arg_types[i], false, ctx));
  }
  if (rows < 0) rows = args.empty() ? 1 : args[0].length();
  return fn->kernel(args, rows, *fn, ctx);
}

/// Every row as its varchar text, "NULL" for nulls, joined by ", ". Doubles and reals as
/// Java prints them ("1.5", "1.0E10"), not in CAST's scientific form ("1.5E0").
inline std::string Text(const columnar::Column& c) {
  if (c.type_id() == columnar::TypeId::kFloat64 || c.type_id() == columnar::TypeId::kFloat32) {
    std::string out;
    for (int64_t i = 0; i < c.length(); ++i) {
      if (i > 0) out += ", ";
      if (c.IsNull(i)) {
        out += "NULL";
      } else if (c.type_id() == columnar::TypeId::kFloat64) {
        out += FormatDouble(c.Value<double>(i));
      } else {
        out += FormatReal(c.Value<float>(i));
      }
    }
    return out;
  }
  auto text = CastColumn(c, columnar::String(), false, TestContext());
  if (!text.ok()) return "<" + text.status().ToString() + ">";
  std::string out;
  for (int64_t i = 0; i < text->length(); ++i) {
    if (i > 0) out += ", ";
    out += text->IsNull(i) ? std::string("NULL") : std::string(text->StringAt(i));
  }
  return out;
}

/// Text(Call(...)) or "error: <message>".
inline std::string Eval(const std::string& name, std::vector<columnar::Column> args) {
  auto r = Call(name, std::move(args));
  if (!r.ok()) return "error: " + r.status().message();
  return Text(*r);
}

/// name(args) as columnar::testing::Json (arrays nested: [["a","b"],null]) or "error: ...".
inline std::string EvalJson(const std::string& name, std::vector<columnar::Column> args) {
  auto r = Call(name, std::move(args));
  if (!r.ok()) return "error: " + r.status().message();
  return columnar::testing::Json(*r);
}

/// The resolved result type of name(args) as text.
inline std::string ResultType(const std::string& name, std::vector<columnar::TypePtr> types) {
  auto fn = ScalarRegistry().ResolveScalar(name, types);
  if (!fn.ok()) return "error: " + fn.status().message();
  return (*fn)->return_type->ToString();
}

/// A column of one type from varchar literals (CAST from text; nullopt = NULL).
inline columnar::Column Typed(columnar::TypePtr type,
                              const std::vector<std::optional<std::string>>& text) {
  auto c = CastColumn(columnar::testing::Strings(text), type, false, TestContext());
  columnar::testing::DieIfError(c.status());
  return *c;
}

}  // namespace sqe::exec::testing
