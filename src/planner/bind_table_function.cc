// Table functions in FROM: read_parquet(paths...).

#include "planner/binder_internal.h"

namespace sqe::planner {

Result<LogicalPtr> Binder::BindTableFunction(const ast::Relation& relation, ScopeRelation* bound) {
  std::string fn = Lower(relation.name.parts.back());
  if (fn != "read_parquet") {
    return ErrorAt(relation.pos, "Table function '" + relation.name.ToString() +
                                     "' not found (available: read_parquet)");
  }
  std::vector<std::string> paths;
  for (const ast::ExprPtr& arg : relation.args) {
    SQE_ASSIGN_OR_RETURN(exec::Value v, BindConstantValue(*arg));
    if (v.type()->id() == columnar::TypeId::kString) {
      paths.push_back(v.string_value());
    } else if (v.type()->id() == columnar::TypeId::kList && !v.is_null()) {
      for (const exec::Value& e : v.elements()) {
        if (e.is_null() || e.type()->id() != columnar::TypeId::kString) {
          return ErrorAt(arg->pos, "read_parquet takes file paths as varchar");
        }
        paths.push_back(e.string_value());
      }
    } else {
      return ErrorAt(arg->pos, "read_parquet takes a path, a glob or an ARRAY of them");
    }
  }
  if (paths.empty()) return ErrorAt(relation.pos, "read_parquet needs at least one path");
  auto source = catalog_.ReadParquet(paths);
  if (!source.ok()) return ErrorAt(relation.pos, source.status().message());
  LogicalPtr plan = ScanNode(*source);
  *bound = RelationFor(fn, plan->output);
  return plan;
}

}  // namespace sqe::planner
