// FROM items: tables, CTE references, subqueries, joins, table functions.

#include <algorithm>

#include "planner/binder_internal.h"
#include "planner/decorrelate.h"
#include "planner/outer_join_subqueries.h"

namespace sqe::planner {

ScopeRelation RelationFor(const std::string& alias, const std::vector<ColumnInfo>& columns) {
  ScopeRelation r;
  r.alias = alias;
  for (const ColumnInfo& c : columns) r.columns.push_back({Binder::Lower(c.name), c, false});
  return r;
}

LogicalPtr Binder::ScanNode(std::shared_ptr<const ScanSource> source, bool with_hidden) {
  LogicalPtr plan = MakeNode(LogicalKind::kScan);
  const int columns = source->schema->num_fields() +
                      (with_hidden ? static_cast<int>(source->hidden_columns.size()) : 0);
  for (int i = 0; i < columns; ++i) {
    const columnar::Field& f = source->column(i);
    plan->output.push_back(NewColumn(f.name(), f.type()));
    plan->scan_columns.push_back(i);
  }
  plan->estimated_rows = source->row_count;
  plan->source = std::move(source);
  return plan;
}

Result<LogicalPtr> Binder::BindFrom(const std::vector<ast::RelationPtr>& from, const Scope* outer,
                                    const CteScope* ctes, Scope* scope) {
  LogicalPtr plan;
  for (const ast::RelationPtr& relation : from) {
    if (plan != nullptr && relation->kind == ast::RelationKind::kUnnest) {
      // `FROM t, UNNEST(t.arr)`: the unnest reads the items to its left.
      SQE_ASSIGN_OR_RETURN(plan, BindUnnest(*relation, plan, scope, outer, false, scope));
      continue;
    }
    // LATERAL (subquery) sees the FROM items before it.
    Scope lateral;
    lateral.relations = scope->relations;
    lateral.parent = outer;
    const bool is_lateral = relation->kind == ast::RelationKind::kSubquery && relation->lateral;
    SQE_ASSIGN_OR_RETURN(LogicalPtr next,
                         BindRelation(*relation, is_lateral ? &lateral : outer, ctes, scope));
    if (plan == nullptr) {
      plan = next;
    } else if (is_lateral) {
      auto joined = JoinLateral(*this, plan, next, JoinType::kCross, {});
      if (!joined.ok()) return ErrorAt(relation->pos, joined.status().message());
      plan = *joined;
    } else {
      plan = JoinNode(plan, next, JoinType::kCross, {});
    }
  }
  return plan;
}

Result<LogicalPtr> Binder::BindInnerJoinOnWithSubqueries(const ast::Expr& on, LogicalPtr left,
                                                         LogicalPtr right,
                                                         std::vector<ExprPtr> conditions,
                                                         const Scope& joined) {
  const LogicalPtr pairs = JoinNode(left, right, JoinType::kCross, {});
  std::vector<const ast::Expr*> with_subquery;
  std::vector<ExprPtr> above;  // plain conjuncts that read a column from outside the join
  for (const ast::Expr* c : AstConjuncts(on)) {
    if (ContainsSubquery(*c)) {
      with_subquery.push_back(c);
      continue;
    }
    LogicalPtr probe = pairs;
    ExprContext ctx;
    ctx.scope = &joined;
    ctx.plan = &probe;
    ctx.clause = "JOIN ON";
    SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindPredicate(*c, ctx));
    if (probe != pairs) {  // it did add to the plan: bind it with the subqueries
      with_subquery.push_back(c);
      continue;
    }
    std::vector<ExprPtr> parts;
    SplitAnd(bound, &parts);
    for (ExprPtr& p : parts) {
      (ReadsOutside(*p, *pairs) ? above : conditions).push_back(std::move(p));
    }
  }
  const JoinType type = conditions.empty() ? JoinType::kCross : JoinType::kInner;
  LogicalPtr plan = JoinNode(std::move(left), std::move(right), type, std::move(conditions));
  for (const ast::Expr* c : with_subquery) {
    ExprContext ctx;
    ctx.scope = &joined;
    ctx.plan = &plan;
    ctx.clause = "JOIN ON";
    SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindPredicate(*c, ctx));
    SplitAnd(bound, &above);
  }
  return FilterNode(std::move(plan), std::move(above));
}

Result<LogicalPtr> Binder::BindRelation(const ast::Relation& relation, const Scope* outer,
                                        const CteScope* ctes, Scope* scope) {
  LogicalPtr plan;
  ScopeRelation bound;
  if (!relation.sample_method.empty()) {
    return ErrorAt(relation.pos, "TABLESAMPLE is not supported yet");
  }
  switch (relation.kind) {
    case ast::RelationKind::kTable: {
      // A WITH name first (single-part names only).
      if (relation.name.parts.size() == 1) {
        std::string name = NameOf(relation.name.parts[0], relation.name.quoted[0]);
        for (const CteScope* c = ctes; c != nullptr; c = c->parent) {
          auto working = c->working.find(name);
          if (working != c->working.end()) {
            // The recursive reference inside WITH RECURSIVE's own query.
            SQE_ASSIGN_OR_RETURN(plan, BindWorkingTableReference(*working->second, relation.pos));
            bound = RelationFor(name, plan->output);
            break;
          }
          auto it = c->entries.find(name);
          if (it == c->entries.end()) continue;
          const ast::WithQuery& with = *it->second;
          // Bound in the scope that defined it (it sees earlier WITH entries only).
          CteScope visible;
          visible.parent = c->parent;
          visible.recursive = c->recursive;
          // Entries declared before this one (one WITH's entries live in one vector, so
          // declaration order is address order).
          for (const auto& [n, q] : c->entries) {
            if (std::less<const ast::WithQuery*>()(q, &with)) visible.entries.emplace(n, q);
          }
          SQE_ASSIGN_OR_RETURN(QueryPlan q, c->recursive
                                                ? BindRecursiveWithQuery(with, name, &visible)
                                                : BindQueryNode(*with.query, nullptr, &visible));
          // Each reference binds the query anew; the reference node lets the references of
          // one WITH query share a result (MaterializeSharedCtes).
          auto [id, inserted] = with_ids_.emplace(&with, 0);
          if (inserted) id->second = ids_.Next();
          plan = MakeNode(LogicalKind::kCteRef);
          plan->cte_id = id->second;
          plan->cte_name = name;
          plan->output = q.plan->output;
          plan->children.push_back(q.plan);
          std::vector<ColumnInfo> columns = plan->output;
          for (size_t i = 0; i < columns.size(); ++i) {
            if (i < with.column_aliases.size()) {
              columns[i].name = with.column_aliases[i];
            } else {
              columns[i].name = q.names[i];
            }
          }
          bound = RelationFor(name, columns);
          break;
        }
        if (plan != nullptr) break;
      }
      auto resolved =
          ResolveTableName(relation.name, catalog_.current_catalog(), catalog_.current_schema());
      if (!resolved.ok()) return ErrorAt(relation.pos, resolved.status().message());
      TableName name = *resolved;
      auto system = catalog_.SystemTable(name);
      if (!system.ok()) return ErrorAt(relation.pos, system.status().message());
      if (system->has_value()) {
        if (relation.time_travel != ast::TimeTravelKind::kNone) {
          return ErrorAt(relation.pos, "FOR VERSION / FOR TIMESTAMP AS OF is not supported on '" +
                                           name.ToString() + "' (a metadata or system table)");
        }
        plan = MakeNode(LogicalKind::kValues);
        const columnar::SchemaPtr& schema = (*system)->first;
        for (const columnar::Field& f : schema->fields()) {
          plan->output.push_back(NewColumn(f.name(), f.type()));
        }
        plan->rows = (*system)->second;
      } else {
        TimeTravel travel;
        if (relation.time_travel != ast::TimeTravelKind::kNone) {
          SQE_ASSIGN_OR_RETURN(exec::Value v, BindConstantValue(*relation.time_travel_expr));
          if (v.is_null()) return ErrorAt(relation.pos, "time travel value must not be NULL");
          if (relation.time_travel == ast::TimeTravelKind::kVersion) {
            if (v.type()->is_integer()) {
              travel.snapshot_id = v.int_value();
            } else if (v.type()->id() == columnar::TypeId::kString) {
              travel.ref = v.string_value();
            } else {
              return ErrorAt(relation.pos,
                             "FOR VERSION AS OF takes a snapshot id or a branch/tag name");
            }
          } else {
            if (v.type()->id() == columnar::TypeId::kTimestamp) {
              int64_t ticks = v.int_value();
              travel.timestamp_ms =
                  v.type()->unit() == columnar::TimeUnit::kNano ? ticks / 1000000 : ticks / 1000;
            } else if (v.type()->id() == columnar::TypeId::kDate32) {
              travel.timestamp_ms = v.int_value() * 86400000;
            } else {
              return ErrorAt(relation.pos, "FOR TIMESTAMP AS OF takes a timestamp");
            }
          }
        }
        auto source = catalog_.LoadTable(name, travel);
        if (!source.ok()) return ErrorAt(relation.pos, source.status().message());
        plan = ScanNode(*source, /*with_hidden=*/true);
      }
      bound = RelationFor(name.table, plan->output);
      if (plan->kind == LogicalKind::kScan) {
        // Iceberg hidden columns ("$path") come after the table's columns.
        for (size_t i = static_cast<size_t>(plan->source->schema->num_fields());
             i < bound.columns.size(); ++i) {
          bound.columns[i].hidden = true;
        }
      }
      bound.name_parts = {name.catalog, name.schema, name.table};
      break;
    }
    case ast::RelationKind::kSubquery: {
      SQE_ASSIGN_OR_RETURN(QueryPlan q, BindQueryNode(*relation.subquery, outer, ctes));
      plan = q.plan;
      std::vector<ColumnInfo> columns = plan->output;
      for (size_t i = 0; i < columns.size(); ++i) columns[i].name = q.names[i];
      bound = RelationFor("", columns);
      break;
    }
    case ast::RelationKind::kJoin: {
      if (relation.right->kind == ast::RelationKind::kUnnest) {
        return BindUnnestJoin(relation, outer, ctes, scope);
      }
      Scope left_scope, right_scope;
      left_scope.parent = outer;
      right_scope.parent = outer;
      SQE_ASSIGN_OR_RETURN(LogicalPtr left, BindRelation(*relation.left, outer, ctes, &left_scope));
      Scope lateral;  // LATERAL (subquery) on the right sees the left side
      lateral.relations = left_scope.relations;
      lateral.parent = outer;
      const bool is_lateral =
          relation.right->kind == ast::RelationKind::kSubquery && relation.right->lateral;
      SQE_ASSIGN_OR_RETURN(
          LogicalPtr right,
          BindRelation(*relation.right, is_lateral ? &lateral : outer, ctes, &right_scope));
      Scope joined;
      joined.parent = outer;
      joined.relations = left_scope.relations;
      std::vector<ExprPtr> conditions;
      std::vector<std::string> using_columns = relation.using_columns;
      if (relation.natural) {
        for (const ScopeRelation& l : left_scope.relations) {
          for (const ScopeColumn& lc : l.columns) {
            for (const ScopeRelation& r : right_scope.relations) {
              for (const ScopeColumn& rc : r.columns) {
                if (lc.hidden || rc.hidden) continue;
                if (lc.name == rc.name) using_columns.push_back(lc.name);
              }
            }
          }
        }
      }
      std::vector<std::string> using_lower;
      for (const std::string& u : using_columns) using_lower.push_back(Lower(u));
      for (ScopeRelation r : right_scope.relations) {
        for (ScopeColumn& c : r.columns) {
          if (std::find(using_lower.begin(), using_lower.end(), c.name) != using_lower.end()) {
            c.qualified_only = true;
          }
        }
        joined.relations.push_back(std::move(r));
      }
      for (const std::string& u : using_lower) {
        const ScopeColumn* lc = nullptr;
        const ScopeColumn* rc = nullptr;
        for (const ScopeRelation& r : left_scope.relations) {
          for (const ScopeColumn& c : r.columns) {
            if (c.name == u && !c.qualified_only) lc = &c;
          }
        }
        for (const ScopeRelation& r : right_scope.relations) {
          for (const ScopeColumn& c : r.columns) {
            if (c.name == u) rc = &c;
          }
        }
        if (lc == nullptr || rc == nullptr) {
          return ErrorAt(relation.pos, "Column '" + u + "' is missing from one side of JOIN USING");
        }
        std::vector<ExprPtr> args = {
            exec::Expr::Column(lc->column.id, lc->column.type, lc->column.name),
            exec::Expr::Column(rc->column.id, rc->column.type, rc->column.name)};
        SQE_ASSIGN_OR_RETURN(ExprPtr eq, CallFunction("=", std::move(args), relation.pos));
        conditions.push_back(eq);
      }
      JoinType type = JoinType::kInner;
      switch (relation.join_kind) {
        case ast::JoinKind::kInner:
          type = JoinType::kInner;
          break;
        case ast::JoinKind::kLeft:
          type = JoinType::kLeft;
          break;
        case ast::JoinKind::kRight:
          type = JoinType::kRight;
          break;
        case ast::JoinKind::kFull:
          type = JoinType::kFull;
          break;
        case ast::JoinKind::kCross:
          type = JoinType::kCross;
          break;
      }
      plan = JoinNode(left, right, type, {});
      if (relation.on != nullptr) {
        // Subqueries in an inner join's ON are bound as in a WHERE over the joined pair
        // (they wrap `with_subqueries` in their joins); an outer join's ON is bound again
        // by BindOuterJoinOn when it holds subqueries.
        const bool inner = type == JoinType::kInner || type == JoinType::kCross;
        if (inner && !is_lateral && ContainsSubquery(*relation.on)) {
          SQE_ASSIGN_OR_RETURN(plan, BindInnerJoinOnWithSubqueries(*relation.on, left, right,
                                                                   std::move(conditions), joined));
          for (ScopeRelation& r : joined.relations) scope->relations.push_back(std::move(r));
          return plan;
        }
        LogicalPtr with_subqueries = plan;
        ExprContext ctx;
        ctx.scope = &joined;
        ctx.plan = is_lateral ? nullptr : &with_subqueries;
        ctx.clause = "JOIN ON";
        SQE_ASSIGN_OR_RETURN(ExprPtr on, BindPredicate(*relation.on, ctx));
        if (with_subqueries != plan && !inner) {
          SQE_ASSIGN_OR_RETURN(plan, BindOuterJoinOn(*this, *relation.on, left, right, type,
                                                     std::move(conditions), &joined));
          for (ScopeRelation& r : joined.relations) scope->relations.push_back(std::move(r));
          return plan;
        }
        SplitAnd(on, &conditions);
        if (with_subqueries != plan) {
          // The join becomes a cross join under a filter of its conditions, which the
          // optimizer pushes back into it.
          plan->join_type = JoinType::kCross;
          plan = FilterNode(with_subqueries, std::move(conditions));
          for (ScopeRelation& r : joined.relations) scope->relations.push_back(std::move(r));
          return plan;
        }
      }
      plan->conditions = std::move(conditions);
      if (is_lateral) {
        auto lateral_join = JoinLateral(*this, left, right, type, std::move(plan->conditions));
        if (!lateral_join.ok()) return ErrorAt(relation.pos, lateral_join.status().message());
        plan = *lateral_join;
      }
      for (ScopeRelation& r : joined.relations) scope->relations.push_back(std::move(r));
      return plan;
    }
    case ast::RelationKind::kTableFunction: {
      SQE_ASSIGN_OR_RETURN(plan, BindTableFunction(relation, &bound));
      break;
    }
    case ast::RelationKind::kUnnest:
      return BindUnnest(relation, nullptr, nullptr, outer, false, scope);
  }
  if (relation.alias.has_value()) {
    bound.alias = NameOf(*relation.alias, relation.alias_quoted);
    bound.name_parts.clear();
  }
  if (!relation.column_aliases.empty()) {
    size_t visible = 0;  // hidden columns keep their names and come last
    for (const ScopeColumn& c : bound.columns) visible += c.hidden ? 0 : 1;
    if (relation.column_aliases.size() != visible) {
      return ErrorAt(relation.pos,
                     "Column alias list has " + std::to_string(relation.column_aliases.size()) +
                         " entries but relation has " + std::to_string(visible) + " columns");
    }
    for (size_t i = 0; i < visible; ++i) {
      bound.columns[i].name = Lower(relation.column_aliases[i]);
      bound.columns[i].column.name = relation.column_aliases[i];
    }
  }
  scope->relations.push_back(std::move(bound));
  return plan;
}

}  // namespace sqe::planner
