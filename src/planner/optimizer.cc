#include "planner/optimizer.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <unordered_map>

#include "planner/binder_internal.h"

namespace sqe::planner {

namespace {

using exec::Expr;
using exec::ExprKind;

std::set<int32_t> ColumnsOf(const Expr& e) {
  std::vector<int32_t> cols;
  exec::CollectColumns(e, &cols);
  return std::set<int32_t>(cols.begin(), cols.end());
}

std::set<int32_t> IdsOf(const LogicalNode& node) {
  std::set<int32_t> ids;
  for (const ColumnInfo& c : node.output) ids.insert(c.id);
  return ids;
}

bool SubsetOf(const std::set<int32_t>& a, const std::set<int32_t>& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

bool Deterministic(const Expr& e) {
  if (e.kind == ExprKind::kCall && e.function != nullptr && !e.function->deterministic)
    return false;
  for (const exec::ExprPtr& a : e.args) {
    if (!Deterministic(*a)) return false;
  }
  return true;
}

LogicalPtr Copy(const LogicalNode& node) { return std::make_shared<LogicalNode>(node); }

LogicalPtr WrapFilter(LogicalPtr child, std::vector<ExprPtr> conjuncts) {
  if (conjuncts.empty()) return child;
  auto node = std::make_shared<LogicalNode>();
  node->kind = LogicalKind::kFilter;
  node->output = child->output;
  node->expressions = std::move(conjuncts);
  node->children.push_back(std::move(child));
  return node;
}

/// Replaces references to `outputs[i]` by `replacements[i]`.
ExprPtr Substitute(const ExprPtr& e, const std::unordered_map<int32_t, ExprPtr>& map) {
  if (e->kind == ExprKind::kColumn) {
    auto it = map.find(e->column);
    return it == map.end() ? e : it->second;
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (exec::ExprPtr& a : copy->args) a = Substitute(a, map);
  return copy;
}

// ---------------------------------------------------------------------------------------
// OR factoring: (a AND b) OR (a AND c) is a AND (b OR c), so a join key repeated in every
// branch (TPC-H Q19) becomes a join condition.

std::vector<ExprPtr> Conjuncts(const ExprPtr& e) {
  std::vector<ExprPtr> out;
  SplitAnd(e, &out);
  return out;
}

ExprPtr MakeOr(std::vector<ExprPtr> disjuncts) {
  if (disjuncts.size() == 1) return disjuncts[0];
  return Expr::Make(ExprKind::kOr, std::move(disjuncts), columnar::Boolean());
}

/// `c` with the conjuncts common to all its OR branches pulled out (several conjuncts).
std::vector<ExprPtr> FactorOr(const ExprPtr& c) {
  if (c->kind != ExprKind::kOr) return {c};
  std::vector<std::vector<ExprPtr>> branches;
  for (const exec::ExprPtr& d : c->args) branches.push_back(Conjuncts(d));
  std::vector<ExprPtr> common;
  for (const ExprPtr& candidate : branches[0]) {
    bool everywhere = true;
    for (size_t b = 1; b < branches.size() && everywhere; ++b) {
      bool found = false;
      for (const ExprPtr& e : branches[b]) found = found || ExprEquals(*e, *candidate);
      everywhere = found;
    }
    bool duplicate = false;
    for (const ExprPtr& e : common) duplicate = duplicate || ExprEquals(*e, *candidate);
    if (everywhere && !duplicate) common.push_back(candidate);
  }
  if (common.empty()) return {c};
  std::vector<ExprPtr> rest;
  for (const std::vector<ExprPtr>& branch : branches) {
    std::vector<ExprPtr> left;
    for (const ExprPtr& e : branch) {
      bool is_common = false;
      for (const ExprPtr& k : common) is_common = is_common || ExprEquals(*e, *k);
      if (!is_common) left.push_back(e);
    }
    // A branch reduced to nothing is TRUE: the whole OR is implied by the common part.
    if (left.empty()) return common;
    rest.push_back(MakeAnd(std::move(left)));
  }
  common.push_back(MakeOr(std::move(rest)));
  return common;
}

/// An OR implied by `c` that uses only columns of `side`: each branch keeps its conjuncts
/// on that side (nullptr when some branch has none, so nothing is implied).
ExprPtr ImpliedOnSide(const Expr& c, const std::set<int32_t>& side) {
  if (c.kind != ExprKind::kOr) return nullptr;
  std::vector<ExprPtr> branches;
  for (const exec::ExprPtr& d : c.args) {
    std::vector<ExprPtr> kept;
    for (const ExprPtr& e : Conjuncts(d)) {
      std::set<int32_t> cols = ColumnsOf(*e);
      if (!cols.empty() && SubsetOf(cols, side) && Deterministic(*e)) kept.push_back(e);
    }
    if (kept.empty()) return nullptr;
    branches.push_back(MakeAnd(std::move(kept)));
  }
  return MakeOr(std::move(branches));
}

// ---------------------------------------------------------------------------------------
// Filter pushdown

class FilterPushdown {
 public:
  LogicalPtr Push(const LogicalPtr& node, std::vector<ExprPtr> pending) {
    // Constant conjuncts: TRUE goes, FALSE / NULL empties the subtree.
    std::vector<ExprPtr> factored;
    for (const ExprPtr& c : pending) {
      for (const ExprPtr& f : FactorOr(c)) {
        bool duplicate = false;
        for (const ExprPtr& e : factored) duplicate = duplicate || ExprEquals(*e, *f);
        if (!duplicate) factored.push_back(f);
      }
    }
    std::vector<ExprPtr> kept;
    for (const ExprPtr& c : factored) {
      if (c->kind == ExprKind::kLiteral) {
        if (!c->value.is_null() && c->value.type() != nullptr &&
            c->value.type()->id() == columnar::TypeId::kBoolean && c->value.bool_value()) {
          continue;
        }
        return Empty(*node);
      }
      kept.push_back(c);
    }
    pending = std::move(kept);
    switch (node->kind) {
      case LogicalKind::kFilter: {
        for (const ExprPtr& c : node->expressions) pending.push_back(c);
        return Push(node->children[0], std::move(pending));
      }
      case LogicalKind::kProject: {
        std::unordered_map<int32_t, ExprPtr> map;
        bool deterministic = true;
        for (size_t i = 0; i < node->output.size(); ++i) {
          map.emplace(node->output[i].id, node->expressions[i]);
          deterministic = deterministic && Deterministic(*node->expressions[i]);
        }
        std::vector<ExprPtr> down, above;
        for (const ExprPtr& c : pending) {
          if (deterministic) {
            down.push_back(Substitute(c, map));
          } else {
            above.push_back(c);
          }
        }
        return WithChildFiltered(node, std::move(down), std::move(above));
      }
      case LogicalKind::kScan: {
        LogicalPtr copy = Copy(*node);
        std::vector<ExprPtr> above;
        for (const ExprPtr& c : pending) {
          bool duplicate = false;
          for (const ExprPtr& e : copy->expressions) duplicate = duplicate || ExprEquals(*e, *c);
          if (duplicate) continue;
          if (Deterministic(*c)) {
            copy->expressions.push_back(c);
          } else {
            above.push_back(c);
          }
        }
        return WrapFilter(copy, std::move(above));
      }
      case LogicalKind::kJoin:
        return PushJoin(node, std::move(pending));
      case LogicalKind::kAggregate: {
        std::unordered_map<int32_t, ExprPtr> keys;
        for (size_t i = 0; i < node->group_keys.size(); ++i) {
          keys.emplace(node->output[i].id, node->group_keys[i]);
        }
        std::vector<ExprPtr> down, above;
        for (const ExprPtr& c : pending) {
          std::set<int32_t> cols = ColumnsOf(*c);
          bool only_keys = !node->group_keys.empty();
          for (int32_t id : cols) only_keys = only_keys && keys.count(id) > 0;
          if (only_keys && Deterministic(*c)) {
            down.push_back(Substitute(c, keys));
          } else {
            above.push_back(c);
          }
        }
        return WithChildFiltered(node, std::move(down), std::move(above));
      }
      case LogicalKind::kSort: {
        LogicalPtr copy = Copy(*node);
        copy->children[0] = Push(node->children[0], std::move(pending));
        return copy;
      }
      case LogicalKind::kCteRef: {
        // A WITH query read once passes its columns through; a shared (materialized) one
        // is computed for every reference alike, so filters stay above it.
        if (node->materialized) return WithChildFiltered(node, {}, std::move(pending));
        return WithChildFiltered(node, std::move(pending), {});
      }
      case LogicalKind::kWindow: {
        // A conjunct over columns every function partitions by keeps or drops whole
        // partitions, so it filters the same rows below the window.
        std::set<int32_t> common;
        for (size_t f = 0; f < node->window_functions.size(); ++f) {
          std::set<int32_t> keys;
          for (const ExprPtr& p : node->window_functions[f].partition_by) {
            if (p->kind == ExprKind::kColumn) keys.insert(p->column);
          }
          if (f == 0) {
            common = keys;
          } else {
            std::set<int32_t> both;
            for (int32_t id : keys) {
              if (common.count(id) > 0) both.insert(id);
            }
            common = std::move(both);
          }
        }
        if (common.empty()) return WithChildFiltered(node, {}, std::move(pending));
        return PushConjunctsOver(node, std::move(pending), common);
      }
      case LogicalKind::kUnnest: {
        // Conjuncts over the input's columns only go below (they hold alike for every
        // row one input row expands to); those on unnested values stay above.
        return PushConjunctsOver(node, std::move(pending), IdsOf(*node->children[0]));
      }
      case LogicalKind::kUnionAll:
      case LogicalKind::kDistinct: {
        LogicalPtr copy = Copy(*node);
        for (LogicalPtr& child : copy->children) {
          std::unordered_map<int32_t, ExprPtr> map;
          for (size_t i = 0; i < node->output.size(); ++i) {
            const ColumnInfo& c = child->output[i];
            map.emplace(node->output[i].id, Expr::Column(c.id, c.type, c.name));
          }
          std::vector<ExprPtr> down;
          for (const ExprPtr& c : pending) {
            if (Deterministic(*c)) down.push_back(Substitute(c, map));
          }
          child = Push(child, std::move(down));
        }
        std::vector<ExprPtr> above;
        for (const ExprPtr& c : pending) {
          if (!Deterministic(*c)) above.push_back(c);
        }
        return WrapFilter(copy, std::move(above));
      }
      default: {
        LogicalPtr copy = Copy(*node);
        for (LogicalPtr& child : copy->children) child = Push(child, {});
        return WrapFilter(copy, std::move(pending));
      }
    }
  }

 private:
  /// `node` over its only child with `down` pushed into the child and `above` kept over it.
  LogicalPtr WithChildFiltered(const LogicalPtr& node, std::vector<ExprPtr> down,
                               std::vector<ExprPtr> above) {
    LogicalPtr copy = Copy(*node);
    copy->children[0] = Push(node->children[0], std::move(down));
    return WrapFilter(copy, std::move(above));
  }

  /// Deterministic conjuncts over `columns` only go below `node` (one child); the rest stay.
  LogicalPtr PushConjunctsOver(const LogicalPtr& node, std::vector<ExprPtr> pending,
                               const std::set<int32_t>& columns) {
    std::vector<ExprPtr> down, above;
    for (ExprPtr& c : pending) {
      if (Deterministic(*c) && SubsetOf(ColumnsOf(*c), columns)) {
        down.push_back(std::move(c));
      } else {
        above.push_back(std::move(c));
      }
    }
    return WithChildFiltered(node, std::move(down), std::move(above));
  }

  static LogicalPtr Empty(const LogicalNode& node) {
    auto values = std::make_shared<LogicalNode>();
    values->kind = LogicalKind::kValues;
    values->output = node.output;
    values->estimated_rows = 0;
    return values;
  }

  LogicalPtr PushJoin(const LogicalPtr& node, std::vector<ExprPtr> pending) {
    std::set<int32_t> left = IdsOf(*node->children[0]);
    std::set<int32_t> right = IdsOf(*node->children[1]);
    std::vector<ExprPtr> to_left, to_right, conditions, above;
    JoinType type = node->join_type;
    bool inner = type == JoinType::kInner || type == JoinType::kCross;
    auto classify = [&](const ExprPtr& c, bool from_condition) {
      std::set<int32_t> cols = ColumnsOf(*c);
      bool l = SubsetOf(cols, left);
      bool r = SubsetOf(cols, right);
      bool det = Deterministic(*c);
      if (inner) {
        if (l && det) return to_left.push_back(c);
        if (r && det) return to_right.push_back(c);
        return conditions.push_back(c);
      }
      if (from_condition) {
        // ON conditions of outer / semi joins: only those on the inner side move down.
        if (r && det &&
            (type == JoinType::kLeft || type == JoinType::kSemi || type == JoinType::kAnti ||
             type == JoinType::kMark)) {
          return to_right.push_back(c);
        }
        if (l && det && type == JoinType::kRight) return to_left.push_back(c);
        return conditions.push_back(c);
      }
      // Filters above: the preserved side's own conjuncts may move below.
      if (l && det &&
          (type == JoinType::kLeft || type == JoinType::kSemi || type == JoinType::kAnti ||
           type == JoinType::kMark)) {
        return to_left.push_back(c);
      }
      if (r && det && type == JoinType::kRight) return to_right.push_back(c);
      above.push_back(c);
    };
    for (const ExprPtr& c : node->conditions) {
      for (const ExprPtr& f : FactorOr(c)) classify(f, true);
    }
    for (const ExprPtr& c : pending) classify(c, false);
    if (inner) {
      // ORs across both sides imply weaker filters on each side (TPC-H Q7, Q19).
      for (const ExprPtr& c : conditions) {
        if (ExprPtr l = ImpliedOnSide(*c, left)) to_left.push_back(l);
        if (ExprPtr r = ImpliedOnSide(*c, right)) to_right.push_back(r);
      }
    }
    LogicalPtr copy = Copy(*node);
    copy->conditions = std::move(conditions);
    if (copy->join_type == JoinType::kCross && !copy->conditions.empty()) {
      copy->join_type = JoinType::kInner;
    }
    copy->children[0] = Push(node->children[0], std::move(to_left));
    copy->children[1] = Push(node->children[1], std::move(to_right));
    return WrapFilter(copy, std::move(above));
  }
};

// ---------------------------------------------------------------------------------------
// Cardinality estimates

double ConjunctSelectivity(const Expr& c) {
  if (c.kind == ExprKind::kCall) {
    if (c.name == "=") return 0.1;
    if (c.name == "<>") return 0.9;
    if (c.name == "<" || c.name == "<=" || c.name == ">" || c.name == ">=") return 0.33;
    if (c.name == "like" || c.name == "ilike") return 0.25;
  }
  if (c.kind == ExprKind::kIn) return std::min(0.5, 0.1 * static_cast<double>(c.args.size() - 1));
  if (c.kind == ExprKind::kNot) return 1.0 - ConjunctSelectivity(*c.args[0]);
  if (c.kind == ExprKind::kOr) {
    double keep = 1;
    for (const exec::ExprPtr& a : c.args) keep *= 1 - ConjunctSelectivity(*a);
    return 1 - keep;
  }
  if (c.kind == ExprKind::kAnd) {
    double s = 1;
    for (const exec::ExprPtr& a : c.args) s *= ConjunctSelectivity(*a);
    return s;
  }
  if (c.kind == ExprKind::kIsNull) return 0.1;
  return 0.5;
}

double Estimate(LogicalNode& node);

/// The largest row estimate stored in a node (well inside int64's range).
constexpr double kMaxEstimate = 1e18;

double EstimateChildren(LogicalNode& node) {
  double first = -1;
  for (LogicalPtr& c : node.children) {
    double e = Estimate(*c);
    if (first < 0) first = e;
  }
  return first;
}

double Estimate(LogicalNode& node) {
  double rows = 1000;
  switch (node.kind) {
    case LogicalKind::kScan: {
      rows = node.source->row_count >= 0 ? static_cast<double>(node.source->row_count) : 1e6;
      for (const ExprPtr& f : node.expressions) rows *= ConjunctSelectivity(*f);
      break;
    }
    case LogicalKind::kValues: {
      rows = 0;
      for (const columnar::Batch& b : node.rows) rows += static_cast<double>(b.num_rows());
      break;
    }
    case LogicalKind::kFilter: {
      rows = EstimateChildren(node);
      for (const ExprPtr& f : node.expressions) rows *= ConjunctSelectivity(*f);
      break;
    }
    case LogicalKind::kProject:
    case LogicalKind::kSort:
    case LogicalKind::kWindow:
      rows = EstimateChildren(node);
      break;
    case LogicalKind::kAggregate: {
      double in = EstimateChildren(node);
      rows = node.group_keys.empty() ? 1 : std::max(1.0, std::min(in, in / 10));
      break;
    }
    case LogicalKind::kJoin: {
      double l = Estimate(*node.children[0]);
      double r = Estimate(*node.children[1]);
      switch (node.join_type) {
        case JoinType::kSemi:
        case JoinType::kAnti:
          rows = l * 0.5;
          break;
        case JoinType::kRightSemi:
        case JoinType::kRightAnti:
          rows = r * 0.5;
          break;
        case JoinType::kMark:
          rows = l;
          break;
        case JoinType::kCross:
          rows = l * r;
          break;
        default: {
          // Equi-joins as key / foreign-key joins: the larger side's rows, scaled by how
          // much the smaller side was filtered.
          bool equi = false;
          for (const ExprPtr& c : node.conditions) {
            equi = equi || (c->kind == ExprKind::kCall && c->name == "=");
          }
          rows = equi ? std::max(l, r) : l * r;
          if (node.join_type == JoinType::kLeft) rows = std::max(rows, l);
          if (node.join_type == JoinType::kRight) rows = std::max(rows, r);
          if (node.join_type == JoinType::kFull) rows = std::max(rows, l + r);
        }
      }
      break;
    }
    case LogicalKind::kLimit:
    case LogicalKind::kTopN: {
      double in = EstimateChildren(node);
      rows = node.limit < 0 ? in : std::min(in, static_cast<double>(node.limit));
      break;
    }
    case LogicalKind::kUnionAll: {
      rows = 0;
      for (LogicalPtr& c : node.children) rows += Estimate(*c);
      break;
    }
    case LogicalKind::kDistinct:
      rows = EstimateChildren(node);
      break;
    case LogicalKind::kUnnest:
      rows = EstimateChildren(node) * 10;  // elements per array: unknown, a guess
      break;
    case LogicalKind::kSetOp:
      rows = EstimateChildren(node);
      for (size_t i = 1; i < node.children.size(); ++i) Estimate(*node.children[i]);
      break;
    case LogicalKind::kRecursiveCte:
      rows = EstimateChildren(node) * 10;  // iterations: unknown, a guess
      break;
    case LogicalKind::kWorkingTable:
      rows = 100;  // one iteration's new rows: unknown
      break;
    case LogicalKind::kCteRef:
      rows = EstimateChildren(node);
      break;
  }
  // Products of cross joins (a decorrelation domain joined to every row) can pass what an
  // int64 holds; a saturated estimate still orders the sides (an overflowed one read as 1).
  node.estimated_rows = static_cast<int64_t>(std::llround(std::clamp(rows, 0.0, kMaxEstimate)));
  return rows;
}

/// The unfiltered size of a join leaf (the table's rows for scans).
double BaseRows(const LogicalNode& node) {
  if (node.kind == LogicalKind::kScan) {
    return node.source->row_count >= 0 ? static_cast<double>(node.source->row_count) : 1e6;
  }
  if (node.kind == LogicalKind::kFilter || node.kind == LogicalKind::kProject) {
    return BaseRows(*node.children[0]);
  }
  return std::max<double>(1, static_cast<double>(node.estimated_rows));
}

/// An upper bound on the distinct values of column `id` in the unfiltered `node` (a join
/// leaf): the scan's column metrics, followed through filters and projections that forward
/// the column; the leaf's base rows when nothing better is known.
double BaseDistinct(const LogicalNode& node, int32_t id) {
  const double rows = BaseRows(node);
  const int index = node.IndexOf(id);
  if (index < 0) return rows;
  switch (node.kind) {
    case LogicalKind::kScan: {
      const std::vector<int64_t>& bounds = node.source->distinct_bounds;
      const size_t column = static_cast<size_t>(node.scan_columns[static_cast<size_t>(index)]);
      if (column < bounds.size() && bounds[column] > 0) {
        return std::min(rows, static_cast<double>(bounds[column]));
      }
      return rows;
    }
    case LogicalKind::kFilter:
      return BaseDistinct(*node.children[0], id);
    case LogicalKind::kProject: {
      const Expr& e = *node.expressions[static_cast<size_t>(index)];
      // A projection has its child's base rows, which already bound the child's answer.
      return e.kind == ExprKind::kColumn ? BaseDistinct(*node.children[0], e.column) : rows;
    }
    default:
      return rows;
  }
}

/// `plan` with its columns in `output`'s order (a projection when they differ).
LogicalPtr RestoreOrder(const std::vector<ColumnInfo>& output, LogicalPtr plan) {
  bool same = output.size() == plan->output.size();
  for (size_t i = 0; same && i < output.size(); ++i) same = output[i].id == plan->output[i].id;
  if (same) return plan;
  auto project = std::make_shared<LogicalNode>();
  project->kind = LogicalKind::kProject;
  project->output = output;
  for (const ColumnInfo& c : output)
    project->expressions.push_back(Expr::Column(c.id, c.type, c.name));
  project->estimated_rows = plan->estimated_rows;
  project->children.push_back(std::move(plan));
  return project;
}

// ---------------------------------------------------------------------------------------
// Join ordering

class JoinReorder {
 public:
  LogicalPtr Apply(const LogicalPtr& node) {
    if (IsInnerJoin(*node)) return Reorder(node);
    LogicalPtr copy = Copy(*node);
    for (LogicalPtr& c : copy->children) c = Apply(c);
    return copy;
  }

 private:
  static bool IsInnerJoin(const LogicalNode& n) {
    return n.kind == LogicalKind::kJoin &&
           (n.join_type == JoinType::kInner || n.join_type == JoinType::kCross);
  }

  void Collect(const LogicalPtr& node, std::vector<LogicalPtr>* leaves,
               std::vector<ExprPtr>* conds) {
    if (IsInnerJoin(*node)) {
      for (const ExprPtr& c : node->conditions) conds->push_back(c);
      Collect(node->children[0], leaves, conds);
      Collect(node->children[1], leaves, conds);
      return;
    }
    leaves->push_back(Apply(node));
  }

  struct Edge {
    uint32_t mask;  // relations the condition references
    ExprPtr condition;
  };

  struct Best {
    double rows = 0;
    double cost = 0;
    LogicalPtr plan;
    bool set = false;
  };

  LogicalPtr Reorder(const LogicalPtr& root) {
    std::vector<LogicalPtr> leaves;
    std::vector<ExprPtr> conds;
    Collect(root, &leaves, &conds);
    size_t n = leaves.size();
    if (n < 2 || n > 16) return Rebuild(root, leaves);
    std::vector<std::set<int32_t>> ids;
    std::vector<double> rows, base;
    for (LogicalPtr& leaf : leaves) {
      ids.push_back(IdsOf(*leaf));
      rows.push_back(std::max(1.0, Estimate(*leaf)));
      base.push_back(std::max(1.0, BaseRows(*leaf)));
    }
    std::vector<Edge> edges;
    for (const ExprPtr& c : conds) {
      std::set<int32_t> cols = ColumnsOf(*c);
      uint32_t mask = 0;
      for (size_t i = 0; i < n; ++i) {
        for (int32_t id : cols) {
          if (ids[i].count(id) > 0) mask |= 1u << i;
        }
      }
      edges.push_back({mask, c});
    }
    // Selectivity of the equi-conditions between two relations, once per pair: 1 / the
    // smaller base size (key / foreign-key joins), unless the column metrics bound both
    // keys' distinct values lower (a join on a low-cardinality column such as a nation key
    // multiplies rows): then 1 / the larger of the two bounds.
    auto divisor = [&](const Edge& e, int a, int b) {
      double d = std::min(base[a], base[b]);
      const Expr& c = *e.condition;
      if (c.args.size() != 2 || c.args[0]->kind != ExprKind::kColumn ||
          c.args[1]->kind != ExprKind::kColumn) {
        return d;
      }
      int32_t col_a = c.args[0]->column, col_b = c.args[1]->column;
      if (ids[a].count(col_a) == 0) std::swap(col_a, col_b);
      if (ids[a].count(col_a) == 0 || ids[b].count(col_b) == 0) return d;
      const double distinct =
          std::max(BaseDistinct(*leaves[a], col_a), BaseDistinct(*leaves[b], col_b));
      return std::max(1.0, std::min(d, distinct));
    };
    auto cardinality = [&](uint32_t set) {
      double card = 1;
      for (size_t i = 0; i < n; ++i) {
        if (set & (1u << i)) card *= rows[i];
      }
      std::set<uint32_t> pairs;
      for (const Edge& e : edges) {
        if ((e.mask & set) != e.mask || __builtin_popcount(e.mask) != 2) continue;
        if (!(e.condition->kind == ExprKind::kCall && e.condition->name == "=")) continue;
        if (!pairs.insert(e.mask).second) continue;
        int a = __builtin_ctz(e.mask);
        int b = 31 - __builtin_clz(e.mask);
        card /= divisor(e, a, b);
      }
      return std::max(1.0, card);
    };
    auto connected = [&](uint32_t a, uint32_t b) {
      for (const Edge& e : edges) {
        if ((e.mask & a) != 0 && (e.mask & b) != 0 && (e.mask & ~(a | b)) == 0) return true;
      }
      return false;
    };
    uint32_t full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    std::unordered_map<uint32_t, Best> best;
    for (size_t i = 0; i < n; ++i) best[1u << i] = {rows[i], 0, leaves[i], true};
    auto join = [&](uint32_t s1, uint32_t s2, bool allow_cross) {
      const Best& a = best[s1];
      const Best& b = best[s2];
      if (!a.set || !b.set) return;
      if (!allow_cross && !connected(s1, s2)) return;
      uint32_t s = s1 | s2;
      double out = cardinality(s);
      // Build (right) the smaller side; building costs more than probing.
      const Best& probe = a.rows >= b.rows ? a : b;
      const Best& build = a.rows >= b.rows ? b : a;
      double cost = a.cost + b.cost + out + 2 * build.rows + probe.rows;
      Best& cur = best[s];
      if (cur.set && cur.cost <= cost) return;
      auto node = std::make_shared<LogicalNode>();
      node->kind = LogicalKind::kJoin;
      node->join_type = JoinType::kInner;
      node->children = {probe.plan, build.plan};
      node->output = probe.plan->output;
      node->output.insert(node->output.end(), build.plan->output.begin(), build.plan->output.end());
      for (const Edge& e : edges) {
        if ((e.mask & s) == e.mask && (e.mask & s1) != 0 && (e.mask & s2) != 0) {
          node->conditions.push_back(e.condition);
        }
      }
      if (node->conditions.empty()) node->join_type = JoinType::kCross;
      node->estimated_rows = static_cast<int64_t>(std::clamp(out, 0.0, kMaxEstimate));
      cur = {out, cost, node, true};
    };
    if (n <= 10) {
      // Dynamic programming over subsets, bushy trees, connected splits first.
      for (uint32_t s = 1; s <= full; ++s) {
        if (__builtin_popcount(s) < 2) continue;
        for (bool allow_cross : {false, true}) {
          for (uint32_t s1 = (s - 1) & s; s1 > 0; s1 = (s1 - 1) & s) {
            uint32_t s2 = s & ~s1;
            if (s1 < s2) continue;  // each split once
            join(s1, s2, allow_cross);
          }
          if (best[s].set) break;
        }
      }
    } else {
      // Greedy: repeatedly join the pair of current trees with the smallest result.
      std::vector<uint32_t> trees;
      for (size_t i = 0; i < n; ++i) trees.push_back(1u << i);
      while (trees.size() > 1) {
        double best_rows = std::numeric_limits<double>::infinity();
        size_t bi = 0, bj = 1;
        bool found_connected = false;
        for (size_t i = 0; i < trees.size(); ++i) {
          for (size_t j = i + 1; j < trees.size(); ++j) {
            bool conn = connected(trees[i], trees[j]);
            if (found_connected && !conn) continue;
            double r = cardinality(trees[i] | trees[j]);
            if ((conn && !found_connected) || r < best_rows) {
              best_rows = r;
              bi = i;
              bj = j;
              found_connected = found_connected || conn;
            }
          }
        }
        join(trees[bi], trees[bj], true);
        trees[bi] |= trees[bj];
        trees.erase(trees.begin() + static_cast<long>(bj));
      }
    }
    const Best& result = best[full];
    if (!result.set) return Rebuild(root, leaves);
    // Conditions referencing a single relation or none (constants) stay on top.
    std::vector<ExprPtr> leftover;
    for (const Edge& e : edges) {
      if (__builtin_popcount(e.mask) < 2) leftover.push_back(e.condition);
    }
    LogicalPtr plan = WrapFilter(result.plan, std::move(leftover));
    return RestoreOrder(root->output, plan);
  }

  /// The original join tree with reordered children below it (when not reordering).
  LogicalPtr Rebuild(const LogicalPtr& root, const std::vector<LogicalPtr>&) {
    LogicalPtr copy = Copy(*root);
    for (LogicalPtr& c : copy->children) c = IsInnerJoin(*c) ? Rebuild(c, {}) : Apply(c);
    return copy;
  }
};

// ---------------------------------------------------------------------------------------
// Projection pruning

class ColumnPruning {
 public:
  LogicalPtr Prune(const LogicalPtr& node, const std::set<int32_t>& required) {
    LogicalPtr copy = Copy(*node);
    switch (node->kind) {
      case LogicalKind::kScan: {
        std::set<int32_t> needed = required;
        for (const ExprPtr& f : node->expressions) {
          for (int32_t id : ColumnsOf(*f)) needed.insert(id);
        }
        copy->output.clear();
        copy->scan_columns.clear();
        for (size_t i = 0; i < node->output.size(); ++i) {
          if (needed.count(node->output[i].id) == 0) continue;
          copy->output.push_back(node->output[i]);
          copy->scan_columns.push_back(node->scan_columns[i]);
        }
        if (copy->output.empty() && !node->output.empty()) {
          // Row counts only (count(*)): read the narrowest column.
          size_t pick = 0;
          int32_t best = std::numeric_limits<int32_t>::max();
          for (size_t i = 0; i < node->output.size(); ++i) {
            // Not a hidden column ("$file_modified_time" costs a request per file).
            if (node->scan_columns[i] >= node->source->schema->num_fields()) continue;
            int32_t width = node->output[i].type->byte_width();
            if (width == 0) width = 64;
            if (width < best) {
              best = width;
              pick = i;
            }
          }
          copy->output.push_back(node->output[pick]);
          copy->scan_columns.push_back(node->scan_columns[pick]);
        }
        return copy;
      }
      case LogicalKind::kProject: {
        copy->output.clear();
        copy->expressions.clear();
        std::set<int32_t> needed;
        for (size_t i = 0; i < node->output.size(); ++i) {
          if (required.count(node->output[i].id) == 0) continue;
          copy->output.push_back(node->output[i]);
          copy->expressions.push_back(node->expressions[i]);
          for (int32_t id : ColumnsOf(*node->expressions[i])) needed.insert(id);
        }
        copy->children[0] = Prune(node->children[0], needed);
        return copy;
      }
      case LogicalKind::kFilter: {
        std::set<int32_t> needed = required;
        for (const ExprPtr& f : node->expressions) {
          for (int32_t id : ColumnsOf(*f)) needed.insert(id);
        }
        copy->children[0] = Prune(node->children[0], needed);
        copy->output = Keep(node->output, copy->children[0]);
        return copy;
      }
      case LogicalKind::kSort:
      case LogicalKind::kTopN:
      case LogicalKind::kLimit: {
        std::set<int32_t> needed = required;
        for (const SortSpec& s : node->sort_keys) {
          for (int32_t id : ColumnsOf(*s.expr)) needed.insert(id);
        }
        copy->children[0] = Prune(node->children[0], needed);
        copy->output = Keep(node->output, copy->children[0]);
        return copy;
      }
      case LogicalKind::kAggregate: {
        std::set<int32_t> needed;
        for (const ExprPtr& k : node->group_keys) {
          for (int32_t id : ColumnsOf(*k)) needed.insert(id);
        }
        copy->aggregates.clear();
        copy->output.assign(node->output.begin(),
                            node->output.begin() + static_cast<long>(node->group_keys.size()));
        for (size_t i = 0; i < node->aggregates.size(); ++i) {
          const ColumnInfo& c = node->output[node->group_keys.size() + i];
          if (required.count(c.id) == 0) continue;
          copy->aggregates.push_back(node->aggregates[i]);
          copy->output.push_back(c);
          for (const ExprPtr& a : node->aggregates[i].args) {
            for (int32_t id : ColumnsOf(*a)) needed.insert(id);
          }
          if (node->aggregates[i].filter != nullptr) {
            for (int32_t id : ColumnsOf(*node->aggregates[i].filter)) needed.insert(id);
          }
        }
        copy->children[0] = Prune(node->children[0], needed);
        return copy;
      }
      case LogicalKind::kJoin: {
        std::set<int32_t> needed = required;
        for (const ExprPtr& c : node->conditions) {
          for (int32_t id : ColumnsOf(*c)) needed.insert(id);
        }
        copy->children[0] = Prune(node->children[0], needed);
        copy->children[1] = Prune(node->children[1], needed);
        copy->output = copy->children[0]->output;
        if (node->join_type == JoinType::kMark) {
          copy->output.push_back(node->output.back());
        } else if (node->join_type != JoinType::kSemi && node->join_type != JoinType::kAnti) {
          copy->output.insert(copy->output.end(), copy->children[1]->output.begin(),
                              copy->children[1]->output.end());
        }
        return copy;
      }
      case LogicalKind::kCteRef: {
        // A shared result keeps every column (its references read it by position).
        copy->children[0] = Prune(node->children[0], node->materialized ? IdsOf(*node->children[0]) : required);
        copy->output = copy->children[0]->output;
        return copy;
      }
      case LogicalKind::kUnnest: {
        // The arrays' inputs are needed; the unnested columns are always produced.
        std::vector<ColumnInfo> unnested = node->UnnestColumns();
        std::set<int32_t> needed = required;
        for (const ExprPtr& e : node->expressions) {
          for (int32_t id : ColumnsOf(*e)) needed.insert(id);
        }
        copy->children[0] = Prune(node->children[0], needed);
        copy->output = copy->children[0]->output;
        copy->output.insert(copy->output.end(), unnested.begin(), unnested.end());
        return copy;
      }
      case LogicalKind::kWindow: {
        // Every function stays; the child keeps what they and the ancestors read.
        std::set<int32_t> needed = required;
        for (const WindowFunctionSpec& f : node->window_functions) {
          for (const ExprPtr& e : WindowFunctionExprs(f)) {
            for (int32_t id : ColumnsOf(*e)) needed.insert(id);
          }
        }
        copy->children[0] = Prune(node->children[0], needed);
        copy->output = copy->children[0]->output;
        const size_t passed = node->children[0]->output.size();
        copy->output.insert(copy->output.end(), node->output.begin() + static_cast<long>(passed),
                            node->output.end());
        return copy;
      }
      default: {
        // Positional operators (union, distinct, set operations) keep every column.
        for (LogicalPtr& c : copy->children) c = Prune(c, IdsOf(*c));
        return copy;
      }
    }
  }

 private:
  /// `output` restricted to the columns `child` still produces (pass-through nodes).
  static std::vector<ColumnInfo> Keep(const std::vector<ColumnInfo>& output,
                                      const LogicalPtr& child) {
    std::set<int32_t> ids = IdsOf(*child);
    std::vector<ColumnInfo> kept;
    for (const ColumnInfo& c : output) {
      if (ids.count(c.id) > 0) kept.push_back(c);
    }
    return kept;
  }
};

}  // namespace

/// Semi and anti joins (IN / EXISTS / NOT EXISTS / NOT IN) filter their probe rows one by
/// one, so they move below the inner joins of their probe side to the one relation whose
/// columns they test: `orders ⋈ lineitem ⋈ customer WHERE o_orderkey IN (...)` filters
/// orders before the joins, the joins see fewer rows and the reordering sees the smaller
/// relation. Filters on the way down are passed as well. Only a semi join whose build side
/// is estimated smaller than that relation moves (a selective filter); one against a larger
/// build side (Q21's EXISTS over lineitem) stays above the joins that shrink its input.
class SemiJoinPushdown {
 public:
  LogicalPtr Apply(const LogicalPtr& node) {
    LogicalPtr copy = Copy(*node);
    for (LogicalPtr& c : copy->children) c = Apply(c);
    if (copy->kind != LogicalKind::kJoin ||
        (copy->join_type != JoinType::kSemi && copy->join_type != JoinType::kAnti)) {
      return copy;
    }
    std::set<int32_t> probe_columns;
    const std::set<int32_t> build_ids = IdsOf(*copy->children[1]);
    for (const ExprPtr& c : copy->conditions) {
      for (int32_t id : ColumnsOf(*c)) {
        if (build_ids.count(id) == 0) probe_columns.insert(id);
      }
    }
    if (probe_columns.empty()) return copy;  // uncorrelated EXISTS: a filter on everything
    LogicalPtr pushed = PushInto(copy->children[0], copy, probe_columns);
    return pushed != nullptr ? pushed : copy;
  }

 private:
  /// `input` with the semi join applied to the relation below it that produces every
  /// column of `needed`, or nullptr when the join stays where it is.
  static LogicalPtr PushInto(const LogicalPtr& input, const LogicalPtr& semi,
                             const std::set<int32_t>& needed) {
    const bool inner = input->kind == LogicalKind::kJoin && (input->join_type == JoinType::kInner ||
                                                             input->join_type == JoinType::kCross);
    if (!inner && input->kind != LogicalKind::kFilter) return nullptr;
    for (size_t i = 0; i < input->children.size(); ++i) {
      const LogicalPtr& child = input->children[i];
      if (!SubsetOf(needed, IdsOf(*child))) continue;
      LogicalPtr below = PushInto(child, semi, needed);
      if (below == nullptr) {
        if (child->estimated_rows >= 0 &&
            semi->children[1]->estimated_rows >= child->estimated_rows) {
          return nullptr;
        }
        LogicalPtr moved = Copy(*semi);
        moved->children[0] = child;
        moved->output = child->output;
        below = moved;
      }
      LogicalPtr copy = Copy(*input);
      copy->children[i] = below;
      return copy;
    }
    return nullptr;
  }
};

/// Build-side selection for the joins the reordering leaves alone: the hash table goes on
/// the smaller side. `a LEFT JOIN b` with the larger `b` runs as `b RIGHT JOIN a`, and
/// `a SEMI/ANTI b` (EXISTS semantics, not NOT IN's null-aware anti) with the larger `b` as
/// `b RIGHT SEMI/ANTI a`, so the build holds `a`. (A RIGHT join from the SQL keeps its
/// sides: it already builds on its preserved side.) A flip needs
/// the build side at least kFlipRatio times the probe side's estimate (estimates are rough).
class BuildSideSelection {
 public:
  LogicalPtr Apply(const LogicalPtr& node) {
    LogicalPtr copy = Copy(*node);
    for (LogicalPtr& c : copy->children) c = Apply(c);
    if (copy->kind != LogicalKind::kJoin) return copy;
    const double probe = Rows(*copy->children[0]);
    const double build = Rows(*copy->children[1]);
    if (build < kFlipRatio * probe) return copy;
    JoinType flipped;
    switch (copy->join_type) {
      case JoinType::kLeft:
        flipped = JoinType::kRight;
        break;
      case JoinType::kSemi:
        if (copy->null_aware) return copy;
        flipped = JoinType::kRightSemi;
        break;
      case JoinType::kAnti:
        if (copy->null_aware) return copy;
        flipped = JoinType::kRightAnti;
        break;
      default:
        return copy;
    }
    copy->join_type = flipped;
    std::swap(copy->children[0], copy->children[1]);
    if (flipped == JoinType::kRight) {
      std::vector<ColumnInfo> output = node->output;
      copy->output = copy->children[0]->output;
      copy->output.insert(copy->output.end(), copy->children[1]->output.begin(),
                          copy->children[1]->output.end());
      return RestoreOrder(output, copy);
    }
    return copy;  // RIGHT SEMI / ANTI output the kept side's columns, as before
  }

 private:
  static constexpr double kFlipRatio = 1.5;
  static double Rows(const LogicalNode& n) {
    return std::max<double>(1, static_cast<double>(n.estimated_rows));
  }
};

Result<LogicalPtr> Optimize(const LogicalPtr& plan) {
  LogicalPtr out = FilterPushdown().Push(plan, {});
  Estimate(*out);
  out = SemiJoinPushdown().Apply(out);
  Estimate(*out);
  out = JoinReorder().Apply(out);
  // Reordering can leave single-relation conditions on top: push them down again.
  out = FilterPushdown().Push(out, {});
  out = ColumnPruning().Prune(out, IdsOf(*out));
  Estimate(*out);
  out = BuildSideSelection().Apply(out);
  return out;
}

}  // namespace sqe::planner
