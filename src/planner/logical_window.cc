#include "planner/logical_window.h"

namespace sqe::planner {

namespace {

std::string Amount(const WindowBoundSpec& bound) {
  return bound.range_value != nullptr ? bound.range_value->ToString()
                                      : std::to_string(bound.offset);
}

}  // namespace

std::string WindowFunctionToString(const WindowFunctionSpec& spec) {
  std::string out = spec.name + "(";
  for (size_t i = 0; i < spec.args.size(); ++i) {
    if (i > 0) out += ", ";
    out += spec.args[i]->ToString();
  }
  // count(*) is the aggregate count without arguments.
  if (spec.kind == exec::WindowFunctionKind::kAggregate && spec.args.empty()) out += "*";
  out += ")";
  if (spec.ignore_nulls) out += " IGNORE NULLS";
  out += " OVER (";
  if (!spec.partition_by.empty()) {
    out += "PARTITION BY ";
    for (size_t i = 0; i < spec.partition_by.size(); ++i) {
      if (i > 0) out += ", ";
      out += spec.partition_by[i]->ToString();
    }
    out += " ";
  }
  if (!spec.order_by.empty()) {
    out += "ORDER BY ";
    for (size_t i = 0; i < spec.order_by.size(); ++i) {
      if (i > 0) out += ", ";
      out += spec.order_by[i].expr->ToString() + (spec.order_by[i].ascending ? " ASC" : " DESC");
    }
    out += " ";
  }
  out += exec::WindowFrameText(spec.unit, spec.start.type, Amount(spec.start), spec.end.type,
                               Amount(spec.end)) +
         ")";
  return out;
}

std::vector<exec::ExprPtr> WindowFunctionExprs(const WindowFunctionSpec& spec) {
  std::vector<exec::ExprPtr> exprs = spec.args;
  exprs.insert(exprs.end(), spec.partition_by.begin(), spec.partition_by.end());
  for (const SortSpec& s : spec.order_by) exprs.push_back(s.expr);
  for (const WindowBoundSpec* b : {&spec.start, &spec.end}) {
    if (b->range_value != nullptr) exprs.push_back(b->range_value);
  }
  if (spec.range_key != nullptr) exprs.push_back(spec.range_key);
  return exprs;
}

}  // namespace sqe::planner
