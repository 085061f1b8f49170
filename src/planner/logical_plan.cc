#include "planner/logical_plan.h"

#include <algorithm>

namespace sqe::planner {

const char* JoinTypeName(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return "INNER";
    case JoinType::kLeft:
      return "LEFT";
    case JoinType::kRight:
      return "RIGHT";
    case JoinType::kFull:
      return "FULL";
    case JoinType::kCross:
      return "CROSS";
    case JoinType::kSemi:
      return "SEMI";
    case JoinType::kAnti:
      return "ANTI";
    case JoinType::kMark:
      return "MARK";
    case JoinType::kRightSemi:
      return "RIGHT SEMI";
    case JoinType::kRightAnti:
      return "RIGHT ANTI";
  }
  return "?";
}

int LogicalNode::IndexOf(int32_t id) const {
  for (size_t i = 0; i < output.size(); ++i) {
    if (output[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

std::vector<ColumnInfo> LogicalNode::UnnestColumns() const {
  const size_t passed = children.empty() ? 0 : children[0]->output.size();
  return std::vector<ColumnInfo>(
      output.begin() + static_cast<long>(std::min(passed, output.size())), output.end());
}

namespace {

std::string List(const std::vector<ExprPtr>& exprs) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i > 0) out += ", ";
    out += exprs[i]->ToString();
  }
  return out;
}

void Explain(const LogicalNode& node, int depth, std::string* out) {
  out->append(static_cast<size_t>(depth) * 2, ' ');
  if (depth > 0) out->append("- ");
  switch (node.kind) {
    case LogicalKind::kScan: {
      *out += "Scan " + node.source->display_name + " columns=[";
      for (size_t i = 0; i < node.scan_columns.size(); ++i) {
        if (i > 0) *out += ", ";
        *out += node.source->column(node.scan_columns[i]).name();
      }
      *out += "]";
      if (!node.expressions.empty()) *out += " filters=[" + List(node.expressions) + "]";
      break;
    }
    case LogicalKind::kValues:
      *out += "Values";
      break;
    case LogicalKind::kFilter:
      *out += "Filter " + List(node.expressions);
      break;
    case LogicalKind::kProject:
      *out += "Project [" + List(node.expressions) + "]";
      break;
    case LogicalKind::kAggregate: {
      *out += "Aggregate keys=[" + List(node.group_keys) + "] aggregates=[";
      for (size_t i = 0; i < node.aggregates.size(); ++i) {
        if (i > 0) *out += ", ";
        *out += node.aggregates[i].function->name + "(" + List(node.aggregates[i].args) + ")";
      }
      *out += "]";
      break;
    }
    case LogicalKind::kJoin:
      *out += std::string("Join ") + JoinTypeName(node.join_type);
      if (!node.conditions.empty()) *out += " on " + List(node.conditions);
      break;
    case LogicalKind::kSort:
    case LogicalKind::kTopN: {
      *out += node.kind == LogicalKind::kSort ? "Sort [" : "TopN [";
      for (size_t i = 0; i < node.sort_keys.size(); ++i) {
        if (i > 0) *out += ", ";
        *out += node.sort_keys[i].expr->ToString() + (node.sort_keys[i].ascending ? " ASC" : " DESC");
      }
      *out += "]";
      if (node.kind == LogicalKind::kTopN) *out += " limit=" + std::to_string(node.limit);
      break;
    }
    case LogicalKind::kLimit:
      *out += "Limit " + std::to_string(node.limit);
      if (node.offset > 0) *out += " offset " + std::to_string(node.offset);
      break;
    case LogicalKind::kUnionAll:
      *out += "UnionAll";
      break;
    case LogicalKind::kDistinct:
      *out += "Distinct";
      break;
    case LogicalKind::kSetOp:
      *out += node.set_op == SetOpKind::kIntersect ? "Intersect" : "Except";
      if (node.set_all) *out += " ALL";
      break;
    case LogicalKind::kUnnest:
      *out += "Unnest [" + List(node.expressions) + "]";
      if (node.with_ordinality) *out += " with_ordinality";
      if (node.unnest_outer) *out += " outer";
      break;
    case LogicalKind::kWindow:
      *out += "Window [";
      for (size_t i = 0; i < node.window_functions.size(); ++i) {
        if (i > 0) *out += ", ";
        *out += WindowFunctionToString(node.window_functions[i]);
      }
      *out += "]";
      break;
    case LogicalKind::kRecursiveCte:
      *out += "RecursiveCte " + node.cte_name + (node.set_all ? " UNION ALL" : " UNION");
      break;
    case LogicalKind::kWorkingTable:
      *out += "WorkingTable " + node.cte_name;
      break;
    case LogicalKind::kCteRef:
      *out += "CteRef " + node.cte_name + (node.materialized ? " materialized" : "");
      break;
  }
  if (node.estimated_rows >= 0) *out += " est_rows=" + std::to_string(node.estimated_rows);
  *out += "\n";
  for (const LogicalPtr& child : node.children) Explain(*child, depth + 1, out);
}

}  // namespace

std::string ExplainLogicalPlan(const LogicalNode& root) {
  std::string out;
  Explain(root, 0, &out);
  return out;
}

}  // namespace sqe::planner
