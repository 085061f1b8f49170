// Subqueries in an outer join's ON condition (see outer_join_subqueries.h).

#include "planner/outer_join_subqueries.h"

#include <algorithm>
#include <unordered_map>

namespace sqe::planner {

using exec::Expr;
using exec::ExprKind;

namespace {

/// Which join inputs a bound ON conjunct (with the nodes its subqueries added) reads.
enum class Sides { kNone, kLeft, kRight, kBoth };

/// The columns the nodes of `node`'s tree read, leaving out `base` and what lies below it.
void ColumnsReadAbove(const LogicalNode& node, const LogicalNode* base, std::vector<int32_t>* out) {
  if (&node == base) return;
  std::vector<ExprPtr> exprs = node.expressions;
  exprs.insert(exprs.end(), node.group_keys.begin(), node.group_keys.end());
  exprs.insert(exprs.end(), node.conditions.begin(), node.conditions.end());
  for (const SortSpec& s : node.sort_keys) exprs.push_back(s.expr);
  for (const AggregateSpec& a : node.aggregates) {
    exprs.insert(exprs.end(), a.args.begin(), a.args.end());
    if (a.filter != nullptr) exprs.push_back(a.filter);
  }
  for (const WindowFunctionSpec& w : node.window_functions) {
    std::vector<ExprPtr> more = WindowFunctionExprs(w);
    exprs.insert(exprs.end(), more.begin(), more.end());
  }
  for (const ExprPtr& e : exprs) exec::CollectColumns(*e, out);
  for (const LogicalPtr& child : node.children) ColumnsReadAbove(*child, base, out);
}

Sides SidesRead(const LogicalNode& wrapped, const LogicalNode* base, const Expr& bound,
                const LogicalNode& left, const LogicalNode& right) {
  std::vector<int32_t> read;
  ColumnsReadAbove(wrapped, base, &read);
  exec::CollectColumns(bound, &read);
  bool l = false, r = false;
  for (int32_t id : read) {
    l = l || left.IndexOf(id) >= 0;
    r = r || right.IndexOf(id) >= 0;
  }
  if (l && r) return Sides::kBoth;
  if (l) return Sides::kLeft;
  if (r) return Sides::kRight;
  return Sides::kNone;
}

ExprPtr ColumnRef(const ColumnInfo& c) { return Expr::Column(c.id, c.type, c.name); }

ExprPtr BoolLiteral(bool v) { return Expr::Literal(exec::Value::Boolean(v)); }

ExprPtr IsNotNull(const ColumnInfo& c) {
  return Expr::Make(ExprKind::kIsNotNull, {ColumnRef(c)}, columnar::Boolean());
}

ExprPtr All(std::vector<ExprPtr> conjuncts) {
  if (conjuncts.size() == 1) return conjuncts[0];
  return Expr::Make(ExprKind::kAnd, std::move(conjuncts), columnar::Boolean());
}

/// The spanning conjuncts' evaluation (see the header): the join's inputs, the row-number
/// column of each preserved side, and the pieces the result is built from.
class SpanningJoin {
 public:
  SpanningJoin(Binder& binder, const ast::Expr& on, JoinType type, Scope* joined)
      : binder_(binder), on_(on), type_(type), joined_(joined) {}

  Result<LogicalPtr> Build(LogicalPtr left, LogicalPtr right, std::vector<ExprPtr> conditions,
                           const std::vector<const ast::Expr*>& spanning,
                           const std::vector<ColumnInfo>& left_columns,
                           const std::vector<ColumnInfo>& right_columns) {
    const bool keep_left = type_ == JoinType::kLeft || type_ == JoinType::kFull;
    const bool keep_right = type_ == JoinType::kRight || type_ == JoinType::kFull;
    ColumnInfo left_row, right_row;
    if (keep_left) left = Numbered(left, &left_row);
    if (keep_right) right = Numbered(right, &right_row);
    // The pairs the other conjuncts accept (with the preserved sides' unmatched rows), and
    // the spanning conjuncts over them.
    LogicalPtr pairs = binder_.JoinNode(left, right, type_, std::move(conditions));
    std::vector<ExprPtr> parts;
    for (const ast::Expr* c : spanning) {
      ExprContext ctx;
      ctx.scope = joined_;
      ctx.plan = &pairs;
      ctx.clause = "JOIN ON";
      SQE_ASSIGN_OR_RETURN(ExprPtr bound, binder_.BindPredicate(*c, ctx));
      SplitAnd(bound, &parts);
    }
    if (keep_left) parts.push_back(IsNotNull(left_row));
    if (keep_right) parts.push_back(IsNotNull(right_row));
    // TRUE for a real pair the whole ON accepts; FALSE (never NULL) otherwise.
    matched_ =
        Expr::Make(ExprKind::kCase, {All(std::move(parts)), BoolLiteral(true), BoolLiteral(false)},
                   columnar::Boolean());
    // Per preserved row: how many of its pairs match, and one pair picked.
    LogicalPtr window = binder_.MakeNode(LogicalKind::kWindow);
    window->children.push_back(pairs);
    window->output = pairs->output;
    Side left_side, right_side;
    if (keep_left) {
      SQE_ASSIGN_OR_RETURN(left_side, Partition(window.get(), left_row));
    }
    if (keep_right) {
      SQE_ASSIGN_OR_RETURN(right_side, Partition(window.get(), right_row));
    }
    if (type_ != JoinType::kFull) {
      const Side& kept = keep_left ? left_side : right_side;
      SQE_ASSIGN_OR_RETURN(ExprPtr unmatched, Unmatched(kept));
      LogicalPtr rows = binder_.FilterNode(
          window, {Expr::Make(ExprKind::kOr, {matched_, unmatched}, columnar::Boolean())});
      LogicalPtr out = Output(rows, left_columns, right_columns, keep_left ? kPass : kMasked,
                              keep_right ? kPass : kMasked);
      Rename(out->output, left_columns, right_columns);
      return out;
    }
    // FULL: the left rows with their matches (or alone), then the right rows without any.
    SQE_ASSIGN_OR_RETURN(ExprPtr left_alone, Unmatched(left_side));
    SQE_ASSIGN_OR_RETURN(ExprPtr right_alone, Unmatched(right_side));
    LogicalPtr first = Output(
        binder_.FilterNode(
            window, {Expr::Make(ExprKind::kOr, {matched_, left_alone}, columnar::Boolean())}),
        left_columns, right_columns, kPass, kMasked);
    LogicalPtr second = Output(binder_.FilterNode(window, {right_alone}), left_columns,
                               right_columns, kNull, kPass);
    LogicalPtr all = binder_.MakeNode(LogicalKind::kUnionAll);
    for (const ColumnInfo& c : first->output)
      all->output.push_back(binder_.NewColumn(c.name, c.type));
    all->children = {first, second};
    Rename(all->output, left_columns, right_columns);
    return all;
  }

 private:
  /// One preserved side's window columns: its matched pairs and a pair number.
  struct Side {
    ColumnInfo row;      ///< the side's row number
    ColumnInfo matches;  ///< count of its matched pairs
    ColumnInfo pick;     ///< 1 for one of its pairs
  };
  /// How a side's columns come out of one output projection.
  enum Mode { kPass, kMasked, kNull };

  /// `input` with a row-number column (`*row`) that tells its rows apart.
  LogicalPtr Numbered(const LogicalPtr& input, ColumnInfo* row) {
    WindowFunctionSpec spec;
    spec.kind = exec::WindowFunctionKind::kRowNumber;
    spec.name = "row_number";
    *row = binder_.NewColumn("$row", columnar::Int64());
    LogicalPtr node = binder_.MakeNode(LogicalKind::kWindow);
    node->children.push_back(input);
    node->output = input->output;
    node->output.push_back(*row);
    node->window_functions.push_back(std::move(spec));
    return node;
  }

  /// Adds count_if(matched) and row_number() partitioned by `row` to `window`.
  Result<Side> Partition(LogicalNode* window, const ColumnInfo& row) {
    auto count_if = binder_.registry_.ResolveAggregate("count_if", {columnar::Boolean()}, false);
    if (!count_if.ok()) return binder_.ErrorAt(on_.pos, count_if.status().message());
    Side side;
    side.row = row;
    WindowFunctionSpec matches;
    matches.kind = exec::WindowFunctionKind::kAggregate;
    matches.name = "count_if";
    matches.aggregate = *count_if;
    matches.args = {matched_};
    matches.partition_by = {ColumnRef(row)};
    side.matches = binder_.NewColumn("$matches", (*count_if)->return_type);
    WindowFunctionSpec pick;
    pick.kind = exec::WindowFunctionKind::kRowNumber;
    pick.name = "row_number";
    pick.partition_by = {ColumnRef(row)};
    side.pick = binder_.NewColumn("$pick", columnar::Int64());
    window->window_functions.push_back(std::move(matches));
    window->output.push_back(side.matches);
    window->window_functions.push_back(std::move(pick));
    window->output.push_back(side.pick);
    return side;
  }

  /// The pair kept for a preserved row without matches: its first one.
  Result<ExprPtr> Unmatched(const Side& side) {
    SQE_ASSIGN_OR_RETURN(
        ExprPtr none,
        binder_.CallFunction("=", {ColumnRef(side.matches), Expr::Literal(exec::Value::BigInt(0))},
                             on_.pos));
    SQE_ASSIGN_OR_RETURN(
        ExprPtr first,
        binder_.CallFunction("=", {ColumnRef(side.pick), Expr::Literal(exec::Value::BigInt(1))},
                             on_.pos));
    return All({IsNotNull(side.row), none, first});
  }

  /// The join's columns over `rows`, with fresh ids; a kMasked side is NULL where the pair
  /// did not match, a kNull side NULL throughout.
  LogicalPtr Output(const LogicalPtr& rows, const std::vector<ColumnInfo>& left_columns,
                    const std::vector<ColumnInfo>& right_columns, Mode left, Mode right) {
    std::vector<ExprPtr> exprs;
    std::vector<std::string> names;
    for (auto [columns, mode] :
         {std::pair{&left_columns, left}, std::pair{&right_columns, right}}) {
      for (const ColumnInfo& c : *columns) {
        ExprPtr null = Expr::Literal(exec::Value::Null(c.type));
        ExprPtr value = ColumnRef(c);
        if (mode == kMasked) {
          value = Expr::Make(ExprKind::kCase, {matched_, value, null}, c.type);
        } else if (mode == kNull) {
          value = null;
        }
        exprs.push_back(std::move(value));
        names.push_back(c.name);
      }
    }
    return binder_.Project(rows, std::move(exprs), names, nullptr);
  }

  /// Points the scope's columns at `output` (the left columns', then the right columns').
  void Rename(const std::vector<ColumnInfo>& output, const std::vector<ColumnInfo>& left_columns,
              const std::vector<ColumnInfo>& right_columns) {
    std::unordered_map<int32_t, ColumnInfo> map;
    size_t i = 0;
    for (const std::vector<ColumnInfo>* columns : {&left_columns, &right_columns}) {
      for (const ColumnInfo& c : *columns) map.emplace(c.id, output[i++]);
    }
    for (ScopeRelation& r : joined_->relations) {
      for (ScopeColumn& c : r.columns) {
        auto it = map.find(c.column.id);
        if (it != map.end()) c.column.id = it->second.id;
      }
    }
  }

  Binder& binder_;
  const ast::Expr& on_;
  JoinType type_;
  Scope* joined_;
  ExprPtr matched_;
};

}  // namespace

Result<LogicalPtr> BindOuterJoinOn(Binder& binder, const ast::Expr& on, LogicalPtr left,
                                   LogicalPtr right, JoinType type, std::vector<ExprPtr> conditions,
                                   Scope* joined) {
  const bool keep_left = type == JoinType::kLeft || type == JoinType::kFull;
  const bool keep_right = type == JoinType::kRight || type == JoinType::kFull;
  const std::vector<ColumnInfo> left_columns = left->output;
  const std::vector<ColumnInfo> right_columns = right->output;
  // A conjunct on `side` evaluated as a filter of that input, or as a boolean column of it.
  auto filter = [&](const ast::Expr& c, LogicalPtr* side) -> Status {
    SQE_ASSIGN_OR_RETURN(std::vector<ExprPtr> rest, binder.BindWhere(c, joined, side, nullptr));
    *side = binder.FilterNode(*side, std::move(rest));
    return Status::OK();
  };
  auto mark = [&](const ast::Expr& c, LogicalPtr* side) -> Status {
    ExprContext ctx;
    ctx.scope = joined;
    ctx.plan = side;
    ctx.clause = "JOIN ON";
    SQE_ASSIGN_OR_RETURN(ExprPtr bound, binder.BindPredicate(c, ctx));
    SplitAnd(bound, &conditions);
    return Status::OK();
  };
  std::vector<const ast::Expr*> spanning;
  for (const ast::Expr* c : AstConjuncts(on)) {
    // Bound once over both inputs to see what it reads; then again where it belongs.
    LogicalPtr base = binder.JoinNode(left, right, JoinType::kCross, {});
    LogicalPtr probe = base;
    ExprContext ctx;
    ctx.scope = joined;
    ctx.plan = &probe;
    ctx.clause = "JOIN ON";
    SQE_ASSIGN_OR_RETURN(ExprPtr bound, binder.BindPredicate(*c, ctx));
    if (probe == base) {
      SplitAnd(bound, &conditions);  // no subquery left in it
      continue;
    }
    switch (SidesRead(*probe, base.get(), *bound, *left, *right)) {
      case Sides::kBoth:
        spanning.push_back(c);
        break;
      case Sides::kLeft:
        SQE_RETURN_NOT_OK(keep_left ? mark(*c, &left) : filter(*c, &left));
        break;
      case Sides::kRight:
        SQE_RETURN_NOT_OK(keep_right ? mark(*c, &right) : filter(*c, &right));
        break;
      case Sides::kNone:
        // Reads neither input: a filter of a side that is not preserved, else (FULL) a
        // column of the left input.
        if (!keep_right) {
          SQE_RETURN_NOT_OK(filter(*c, &right));
        } else if (!keep_left) {
          SQE_RETURN_NOT_OK(filter(*c, &left));
        } else {
          SQE_RETURN_NOT_OK(mark(*c, &left));
        }
        break;
    }
  }
  if (spanning.empty()) return binder.JoinNode(left, right, type, std::move(conditions));
  SpanningJoin join(binder, on, type, joined);
  return join.Build(std::move(left), std::move(right), std::move(conditions), spanning,
                    left_columns, right_columns);
}

}  // namespace sqe::planner
