#include "exec/expression_evaluator.h"

#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "columnar/take.h"
#include "exec/batch_concatenate.h"
#include "exec/functions/cast.h"
#include "exec/functions/comparison.h"
#include "exec/functions/interleave.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/lambda.h"
#include "exec/functions/nested_comparison.h"

namespace sqe::exec {

using columnar::Column;
using columnar::SelectionVector;
using columnar::TypeId;
using columnar::TypePtr;

namespace {

/// The columns an expression reads and the row count it is evaluated over. Subsets of a
/// batch (the undecided rows of AND/OR, a CASE branch's rows) are views with only the
/// referenced columns gathered; the others stay empty placeholders.
struct Input {
  const std::vector<Column>* columns;
  int64_t rows;
  /// The parameters of the lambdas being evaluated (ExprKind::kLambdaParam), one column of
  /// `rows` rows each; nullptr outside lambda bodies.
  const std::vector<Column>* params = nullptr;
};

Result<Column> Eval(const Expr& e, const Input& in, const EvalContext& ctx);
Result<Column> ToType(Column c, const TypePtr& type, const EvalContext& ctx);

/// The rows `selection` names (with repeats allowed) of the columns `e` reads and of
/// every lambda parameter in scope, into *columns / *params (columns `e` does not read
/// stay empty placeholders).
Status GatherRows(const Expr& e, const Input& in, const SelectionVector& selection,
                  const EvalContext& ctx, std::vector<Column>* columns,
                  std::vector<Column>* params) {
  std::vector<int32_t> refs;
  CollectColumns(e, &refs);
  columns->assign(in.columns->size(), Column());
  for (int32_t c : refs) {
    if (c < 0 || c >= static_cast<int32_t>(columns->size())) {
      return Status::Internal("expression references column #" + std::to_string(c) +
                              " of an input with " + std::to_string(columns->size()) + " columns");
    }
    if ((*columns)[c].type() != nullptr) continue;
    SQE_ASSIGN_OR_RETURN((*columns)[c], columnar::Take((*in.columns)[c], selection, ctx.tracker));
  }
  params->clear();
  if (in.params != nullptr) {
    for (const Column& p : *in.params) {
      SQE_ASSIGN_OR_RETURN(Column taken, columnar::Take(p, selection, ctx.tracker));
      params->push_back(std::move(taken));
    }
  }
  return Status::OK();
}

/// `e` evaluated on the rows `sel` names (ascending indices into `in`).
Result<Column> EvalOnRows(const Expr& e, const Input& in, const std::vector<uint32_t>& sel,
                          const EvalContext& ctx) {
  if (static_cast<int64_t>(sel.size()) == in.rows) return Eval(e, in, ctx);
  std::vector<Column> sub, params;
  SQE_RETURN_NOT_OK(GatherRows(e, in, SelectionVector(sel), ctx, &sub, &params));
  return Eval(e, Input{&sub, static_cast<int64_t>(sel.size()), in.params ? &params : nullptr}, ctx);
}

/// The errors try(expr) turns into NULL: failures of the data (division by zero, a bad
/// cast, a value out of range, an invalid function argument), not of the system.
bool IsTryableError(const Status& status) { return status.code() == StatusCode::kInvalidArgument; }

/// try(expr): expr, with NULL on the rows where evaluating it fails. The whole batch is
/// tried first; only a failing batch is evaluated again row by row.
Result<Column> EvalTry(const Expr& e, const Input& in, const EvalContext& ctx) {
  Result<Column> all = Eval(*e.args[0], in, ctx);
  if (all.ok() || !IsTryableError(all.status())) return all;
  std::vector<Column> parts;
  parts.reserve(static_cast<size_t>(in.rows));
  for (int64_t i = 0; i < in.rows; ++i) {
    Result<Column> one = EvalOnRows(*e.args[0], in, {static_cast<uint32_t>(i)}, ctx);
    if (!one.ok() && !IsTryableError(one.status())) return one.status();
    if (one.ok()) {
      SQE_ASSIGN_OR_RETURN(Column typed, ToType(std::move(*one), e.type, ctx));
      parts.push_back(std::move(typed));
    } else {
      SQE_ASSIGN_OR_RETURN(Column null, Column::MakeAllNull(e.type, 1, ctx.tracker));
      parts.push_back(std::move(null));
    }
  }
  if (parts.empty()) return Column::MakeAllNull(e.type, 0, ctx.tracker);
  return Concatenate(parts, ctx.tracker);
}

/// A lambda argument as a function the higher-order kernel calls: the body evaluated over
/// the invocations, each seeing the columns (and enclosing lambdas' parameters) of the row
/// it belongs to.
LambdaFn MakeLambda(const Expr& lambda, const Input& in, const EvalContext& ctx) {
  return [&lambda, in, &ctx](const std::vector<Column>& params,
                             const std::vector<uint32_t>& row_of) -> Result<Column> {
    const Expr& body = *lambda.args[0];
    std::vector<Column> sub, all_params;
    SQE_RETURN_NOT_OK(GatherRows(body, in, SelectionVector(row_of), ctx, &sub, &all_params));
    for (const Column& p : params) all_params.push_back(p);
    const int64_t n = static_cast<int64_t>(row_of.size());
    SQE_ASSIGN_OR_RETURN(Column out, Eval(body, Input{&sub, n, &all_params}, ctx));
    return ToType(std::move(out), lambda.type, ctx);
  };
}

/// A call with lambda arguments: the non-lambda arguments evaluated, then the function's
/// higher-order kernel.
Result<Column> EvalHigherOrder(const Expr& e, const Input& in, const EvalContext& ctx) {
  const HigherOrderKernel* kernel = FindHigherOrderKernel(e.function->name);
  if (kernel == nullptr) {
    return Status::Internal("function '" + e.name + "' does not take lambda arguments");
  }
  std::vector<Column> args(e.args.size());
  std::vector<LambdaFn> lambdas;
  for (size_t k = 0; k < e.args.size(); ++k) {
    if (e.args[k]->kind == ExprKind::kLambda) {
      lambdas.push_back(MakeLambda(*e.args[k], in, ctx));
      continue;
    }
    SQE_ASSIGN_OR_RETURN(Column c, Eval(*e.args[k], in, ctx));
    if (k < e.function->arg_types.size()) {
      SQE_ASSIGN_OR_RETURN(c, ToType(std::move(c), e.function->arg_types[k], ctx));
    }
    args[k] = std::move(c);
  }
  return (*kernel)(args, lambdas, in.rows, *e.function, ctx);
}

Result<Column> ToType(Column c, const TypePtr& type, const EvalContext& ctx) {
  if (type == nullptr || c.type()->Equals(*type)) return c;
  return CastColumn(c, type, false, ctx);
}

/// Casts two operands the binder left with different types (an untyped NULL, a narrower
/// number) to their common super type; an untyped all-NULL side takes the other's type.
Status ToCommonType(Column* a, Column* b, const EvalContext& ctx) {
  if (a->type()->Equals(*b->type())) return Status::OK();
  TypePtr target;
  if (a->null_count() == a->length()) {
    target = b->type();
  } else if (b->null_count() == b->length()) {
    target = a->type();
  } else {
    auto super = CommonSuperType(a->type(), b->type());
    if (!super || *super == nullptr) {
      return Status::InvalidArgument("cannot compare " + a->type()->ToString() + " with " +
                                     b->type()->ToString());
    }
    target = *super;
  }
  SQE_ASSIGN_OR_RETURN(*a, ToType(std::move(*a), target, ctx));
  SQE_ASSIGN_OR_RETURN(*b, ToType(std::move(*b), target, ctx));
  return Status::OK();
}

TypePtr OrBoolean(const TypePtr& t) { return t != nullptr ? t : columnar::Boolean(); }

bool TrueAt(const Column& c, int64_t i) { return c.IsValid(i) && c.BoolAt(i); }
bool FalseAt(const Column& c, int64_t i) { return c.IsValid(i) && !c.BoolAt(i); }

Result<Column> EvalAndOr(const Expr& e, const Input& in, const EvalContext& ctx) {
  const bool is_and = e.kind == ExprKind::kAnd;
  SQE_ASSIGN_OR_RETURN(Column acc, Eval(*e.args[0], in, ctx));
  const int64_t rows = in.rows;
  for (size_t k = 1; k < e.args.size(); ++k) {
    // Rows already decided: false for AND, true for OR.
    std::vector<uint32_t> undecided;
    undecided.reserve(rows);
    for (int64_t i = 0; i < rows; ++i) {
      if (!(is_and ? FalseAt(acc, i) : TrueAt(acc, i)))
        undecided.push_back(static_cast<uint32_t>(i));
    }
    if (undecided.empty()) break;
    SQE_ASSIGN_OR_RETURN(Column rhs, EvalOnRows(*e.args[k], in, undecided, ctx));
    const bool all = static_cast<int64_t>(undecided.size()) == rows;
    SQE_ASSIGN_OR_RETURN(auto bits, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
    SQE_ASSIGN_OR_RETURN(auto valid, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
    int64_t nulls = 0;
    size_t j = 0;
    for (int64_t i = 0; i < rows; ++i) {
      bool value;
      bool is_valid = true;
      if (!all && (j >= undecided.size() || undecided[j] != i)) {
        value = !is_and;  // decided
      } else {
        const int64_t r = all ? i : static_cast<int64_t>(j);
        ++j;
        const bool l_null = acc.IsNull(i);
        const bool r_null = rhs.IsNull(r);
        const bool l = !l_null && acc.BoolAt(i);
        const bool rv = !r_null && rhs.BoolAt(r);
        if (is_and) {
          if ((!l_null && !l) || (!r_null && !rv)) {
            value = false;
          } else if (l_null || r_null) {
            value = false;
            is_valid = false;
          } else {
            value = true;
          }
        } else {
          if ((!l_null && l) || (!r_null && rv)) {
            value = true;
          } else if (l_null || r_null) {
            value = false;
            is_valid = false;
          } else {
            value = false;
          }
        }
      }
      if (value) columnar::SetBit(bits->mutable_data(), i);
      if (is_valid) {
        columnar::SetBit(valid->mutable_data(), i);
      } else {
        ++nulls;
      }
    }
    SQE_ASSIGN_OR_RETURN(
        acc, Column::Make(columnar::Boolean(), rows,
                          {nulls == 0 ? nullptr : columnar::BufferPtr(valid), std::move(bits)}, {},
                          nulls));
  }
  return acc;
}

Result<Column> EvalCase(const Expr& e, const Input& in, const EvalContext& ctx) {
  const int64_t rows = in.rows;
  const TypePtr type = OrBoolean(e.type);
  std::vector<Column> pieces;
  std::vector<int32_t> piece_of_row(rows, -1);
  std::vector<uint32_t> row_in_piece(rows, 0);
  std::vector<uint32_t> remaining(rows);
  for (int64_t i = 0; i < rows; ++i) remaining[i] = static_cast<uint32_t>(i);
  auto add_piece = [&](const Expr& value, const std::vector<uint32_t>& where) -> Status {
    SQE_ASSIGN_OR_RETURN(Column c, EvalOnRows(value, in, where, ctx));
    SQE_ASSIGN_OR_RETURN(c, ToType(std::move(c), type, ctx));
    const auto p = static_cast<int32_t>(pieces.size());
    for (size_t j = 0; j < where.size(); ++j) {
      piece_of_row[where[j]] = p;
      row_in_piece[where[j]] = static_cast<uint32_t>(j);
    }
    pieces.push_back(std::move(c));
    return Status::OK();
  };
  for (size_t k = 0; k + 1 < e.args.size() && !remaining.empty(); k += 2) {
    SQE_ASSIGN_OR_RETURN(Column cond, EvalOnRows(*e.args[k], in, remaining, ctx));
    std::vector<uint32_t> taken;
    std::vector<uint32_t> rest;
    for (size_t j = 0; j < remaining.size(); ++j) {
      (TrueAt(cond, static_cast<int64_t>(j)) ? taken : rest).push_back(remaining[j]);
    }
    if (!taken.empty()) {
      if (taken.size() == static_cast<size_t>(rows)) {
        // Every row takes this branch: no merge needed.
        SQE_ASSIGN_OR_RETURN(Column c, Eval(*e.args[k + 1], in, ctx));
        return ToType(std::move(c), type, ctx);
      }
      SQE_RETURN_NOT_OK(add_piece(*e.args[k + 1], taken));
    }
    remaining = std::move(rest);
  }
  if (!remaining.empty()) {
    if (remaining.size() == static_cast<size_t>(rows)) {
      SQE_ASSIGN_OR_RETURN(Column c, Eval(*e.args.back(), in, ctx));
      return ToType(std::move(c), type, ctx);
    }
    SQE_RETURN_NOT_OK(add_piece(*e.args.back(), remaining));
  }
  return Interleave(type, pieces, piece_of_row.data(), row_in_piece.data(), rows, ctx);
}

Result<Column> EvalCoalesce(const Expr& e, const Input& in, const EvalContext& ctx) {
  const int64_t rows = in.rows;
  const TypePtr type = OrBoolean(e.type);
  std::vector<Column> pieces;
  std::vector<int32_t> piece_of_row(rows, -1);
  std::vector<uint32_t> row_in_piece(rows, 0);
  std::vector<uint32_t> remaining(rows);
  for (int64_t i = 0; i < rows; ++i) remaining[i] = static_cast<uint32_t>(i);
  for (size_t k = 0; k < e.args.size() && !remaining.empty(); ++k) {
    SQE_ASSIGN_OR_RETURN(Column c, EvalOnRows(*e.args[k], in, remaining, ctx));
    SQE_ASSIGN_OR_RETURN(c, ToType(std::move(c), type, ctx));
    if (pieces.empty() && c.null_count() == 0) return c;  // the first argument decides all
    const auto p = static_cast<int32_t>(pieces.size());
    std::vector<uint32_t> rest;
    for (size_t j = 0; j < remaining.size(); ++j) {
      if (c.IsValid(static_cast<int64_t>(j))) {
        piece_of_row[remaining[j]] = p;
        row_in_piece[remaining[j]] = static_cast<uint32_t>(j);
      } else {
        rest.push_back(remaining[j]);
      }
    }
    pieces.push_back(std::move(c));
    remaining = std::move(rest);
  }
  return Interleave(type, pieces, piece_of_row.data(), row_in_piece.data(), rows, ctx);
}

/// IN over a long list of literals of the value's own (integer, date or varchar) type: a
/// hash set built once per batch instead of one comparison column per item.
std::optional<Result<Column>> EvalInLiteralSet(const Expr& e, const Column& value, int64_t rows,
                                               const EvalContext& ctx) {
  constexpr size_t kMinItems = 8;
  if (e.args.size() - 1 < kMinItems) return std::nullopt;
  const TypeId id = value.type_id();
  const bool integral = value.type()->is_integer() || id == TypeId::kDate32;
  if (!integral && id != TypeId::kString) return std::nullopt;
  bool has_null = false;
  for (size_t k = 1; k < e.args.size(); ++k) {
    const Expr& item = *e.args[k];
    if (item.kind != ExprKind::kLiteral) return std::nullopt;
    if (item.value.is_null()) {
      has_null = true;
      continue;
    }
    if (item.value.type() == nullptr || !item.value.type()->Equals(*value.type())) {
      return std::nullopt;
    }
  }
  std::unordered_set<int64_t> ints;
  std::unordered_set<std::string_view> strings;
  for (size_t k = 1; k < e.args.size(); ++k) {
    const Value& v = e.args[k]->value;
    if (v.is_null()) continue;
    if (integral) {
      ints.insert(v.int_value());
    } else {
      strings.insert(v.string_value());
    }
  }
  auto contains = [&](int64_t i) -> bool {
    switch (id) {
      case TypeId::kInt8:
        return ints.count(value.Value<int8_t>(i)) != 0;
      case TypeId::kInt16:
        return ints.count(value.Value<int16_t>(i)) != 0;
      case TypeId::kInt32:
      case TypeId::kDate32:
        return ints.count(value.Value<int32_t>(i)) != 0;
      case TypeId::kInt64:
        return ints.count(value.Value<int64_t>(i)) != 0;
      default:
        return strings.count(value.StringAt(i)) != 0;
    }
  };
  // TRUE on a match; else NULL when the value is NULL or the list holds a NULL.
  auto run = [&]() -> Result<Column> {
    std::vector<uint8_t> hit(rows);
    for (int64_t i = 0; i < rows; ++i) hit[i] = value.IsValid(i) && contains(i);
    SQE_ASSIGN_OR_RETURN(auto valid, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
    int64_t nulls = 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (hit[i] || (!has_null && value.IsValid(i))) {
        columnar::SetBit(valid->mutable_data(), i);
      } else {
        ++nulls;
      }
    }
    return kernel::MakeBooleanColumn(rows, nulls == 0 ? nullptr : columnar::BufferPtr(valid), nulls,
                                     ctx, [&](int64_t i) { return hit[i] != 0; });
  };
  return run();
}

Result<Column> EvalIn(const Expr& e, const Input& in, const EvalContext& ctx) {
  const int64_t rows = in.rows;
  SQE_ASSIGN_OR_RETURN(Column value, Eval(*e.args[0], in, ctx));
  if (auto fast = EvalInLiteralSet(e, value, rows, ctx)) return std::move(*fast);
  std::vector<uint8_t> any_true(rows, 0);
  std::vector<uint8_t> any_null(rows, 0);
  for (size_t k = 1; k < e.args.size(); ++k) {
    SQE_ASSIGN_OR_RETURN(Column item, Eval(*e.args[k], in, ctx));
    Column probe = value;
    SQE_RETURN_NOT_OK(ToCommonType(&probe, &item, ctx));
    SQE_ASSIGN_OR_RETURN(Column eq, CompareColumns(CompareOp::kEq, probe, item, ctx));
    for (int64_t i = 0; i < rows; ++i) {
      if (eq.IsNull(i)) {
        any_null[i] = 1;
      } else if (eq.BoolAt(i)) {
        any_true[i] = 1;
      }
    }
  }
  // TRUE if some item matched; else NULL if the value or some item was NULL; else FALSE.
  SQE_ASSIGN_OR_RETURN(auto valid, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (any_true[i] || (!any_null[i] && value.IsValid(i))) {
      columnar::SetBit(valid->mutable_data(), i);
    } else {
      ++nulls;
    }
  }
  return kernel::MakeBooleanColumn(rows, nulls == 0 ? nullptr : columnar::BufferPtr(valid), nulls,
                                   ctx, [&](int64_t i) { return any_true[i] != 0; });
}

Result<Column> EvalDistinct(const Expr& e, const Input& in, const EvalContext& ctx) {
  SQE_ASSIGN_OR_RETURN(Column a, Eval(*e.args[0], in, ctx));
  SQE_ASSIGN_OR_RETURN(Column b, Eval(*e.args[1], in, ctx));
  SQE_RETURN_NOT_OK(ToCommonType(&a, &b, ctx));
  if (a.type()->is_nested()) {
    return DistinctColumns(a, b, e.kind == ExprKind::kIsDistinctFrom, ctx);
  }
  SQE_ASSIGN_OR_RETURN(Column eq, CompareColumns(CompareOp::kEq, a, b, ctx));
  const bool want_distinct = e.kind == ExprKind::kIsDistinctFrom;
  return kernel::MakeBooleanColumn(in.rows, nullptr, 0, ctx, [&](int64_t i) {
    const bool an = a.IsNull(i);
    const bool bn = b.IsNull(i);
    const bool distinct = (an || bn) ? an != bn : !eq.BoolAt(i);
    return distinct == want_distinct;
  });
}

Result<Column> Eval(const Expr& e, const Input& in, const EvalContext& ctx) {
  switch (e.kind) {
    case ExprKind::kColumn: {
      if (e.column < 0 || e.column >= static_cast<int32_t>(in.columns->size()) ||
          (*in.columns)[e.column].type() == nullptr) {
        return Status::Internal("expression references column #" + std::to_string(e.column) +
                                " of an input with " + std::to_string(in.columns->size()) +
                                " columns");
      }
      return (*in.columns)[e.column];
    }
    case ExprKind::kLiteral:
      if (e.value.type() == nullptr && e.type != nullptr) {
        return Column::MakeAllNull(e.type, in.rows, ctx.tracker);
      }
      return e.value.ToColumn(in.rows, ctx.tracker);
    case ExprKind::kCall: {
      if (e.function == nullptr || !e.function->kernel) {
        return Status::Internal("call of an unresolved function '" + e.name + "'");
      }
      if (e.name == "try" && e.args.size() == 1) return EvalTry(e, in, ctx);
      for (const ExprPtr& a : e.args) {
        if (a->kind == ExprKind::kLambda) return EvalHigherOrder(e, in, ctx);
      }
      std::vector<Column> args;
      args.reserve(e.args.size());
      for (size_t k = 0; k < e.args.size(); ++k) {
        SQE_ASSIGN_OR_RETURN(Column c, Eval(*e.args[k], in, ctx));
        if (k < e.function->arg_types.size()) {
          SQE_ASSIGN_OR_RETURN(c, ToType(std::move(c), e.function->arg_types[k], ctx));
        }
        args.push_back(std::move(c));
      }
      SQE_ASSIGN_OR_RETURN(Column out, e.function->kernel(args, in.rows, *e.function, ctx));
      if (out.length() != in.rows) {
        return Status::Internal("function '" + e.name + "' returned " +
                                std::to_string(out.length()) + " rows for " +
                                std::to_string(in.rows));
      }
      return out;
    }
    case ExprKind::kCast: {
      SQE_ASSIGN_OR_RETURN(Column c, Eval(*e.args[0], in, ctx));
      return CastColumn(c, e.type, e.try_cast, ctx);
    }
    case ExprKind::kAnd:
    case ExprKind::kOr:
      return EvalAndOr(e, in, ctx);
    case ExprKind::kNot: {
      SQE_ASSIGN_OR_RETURN(Column c, Eval(*e.args[0], in, ctx));
      int64_t nulls = 0;
      SQE_ASSIGN_OR_RETURN(columnar::BufferPtr valid,
                           kernel::IntersectValidity({&c}, in.rows, ctx, &nulls));
      return kernel::MakeBooleanColumn(in.rows, valid, nulls, ctx,
                                       [&](int64_t i) { return !c.BoolAt(i); });
    }
    case ExprKind::kIsNull:
    case ExprKind::kIsNotNull: {
      SQE_ASSIGN_OR_RETURN(Column c, Eval(*e.args[0], in, ctx));
      const bool want_null = e.kind == ExprKind::kIsNull;
      return kernel::MakeBooleanColumn(in.rows, nullptr, 0, ctx,
                                       [&](int64_t i) { return c.IsNull(i) == want_null; });
    }
    case ExprKind::kCase:
      return EvalCase(e, in, ctx);
    case ExprKind::kCoalesce:
      return EvalCoalesce(e, in, ctx);
    case ExprKind::kIn:
      return EvalIn(e, in, ctx);
    case ExprKind::kIsDistinctFrom:
    case ExprKind::kIsNotDistinctFrom:
      return EvalDistinct(e, in, ctx);
    case ExprKind::kLambdaParam:
      if (in.params == nullptr || e.column < 0 ||
          e.column >= static_cast<int32_t>(in.params->size())) {
        return Status::Internal("lambda parameter '" + e.name + "' outside its lambda");
      }
      return (*in.params)[e.column];
    case ExprKind::kLambda:
      return Status::Internal("a lambda may only be an argument of a higher-order function");
  }
  return Status::Internal("unknown expression kind");
}

}  // namespace

Result<Column> Evaluate(const Expr& expr, const columnar::Batch& input, const EvalContext& ctx) {
  return Eval(expr, Input{&input.columns(), input.num_rows()}, ctx);
}

Result<SelectionVector> EvaluatePredicate(const Expr& predicate, const columnar::Batch& input,
                                          const EvalContext& ctx) {
  SQE_ASSIGN_OR_RETURN(Column mask, Evaluate(predicate, input, ctx));
  if (mask.type_id() != TypeId::kBoolean) {
    return Status::InvalidArgument("a predicate must be boolean, got " + mask.type()->ToString());
  }
  if (mask.null_count() == 0 && mask.length() > 0 &&
      columnar::CountSetBits(mask.buffers()[1]->data(), mask.offset(), mask.length()) ==
          mask.length()) {
    return SelectionVector::Range(0, static_cast<uint32_t>(mask.length()));
  }
  return SelectionVector::FromMask(mask);
}

Result<Value> EvaluateConstant(const Expr& expr, const EvalContext& ctx) {
  std::vector<int32_t> refs;
  CollectColumns(expr, &refs);
  if (!refs.empty()) {
    return Status::InvalidArgument("not a constant expression: " + expr.ToString());
  }
  const std::vector<Column> none;
  SQE_ASSIGN_OR_RETURN(Column c, Eval(expr, Input{&none, 1}, ctx));
  SQE_ASSIGN_OR_RETURN(Value v, Value::FromColumn(c, 0));
  if (expr.type == nullptr && v.is_null()) return Value();  // still an untyped NULL
  return v;
}

}  // namespace sqe::exec
