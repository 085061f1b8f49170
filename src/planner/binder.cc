#include "planner/binder.h"

#include <algorithm>
#include <cctype>

#include "exec/expression_evaluator.h"
#include "planner/binder_internal.h"
#include "sql/lexer.h"

namespace sqe::planner {

Binder::Binder(BinderCatalog& catalog, std::string_view sql,
               const std::vector<exec::Value>& parameters)
    : catalog_(catalog),
      sql_(sql),
      parameters_(parameters),
      registry_(exec::FunctionRegistry::Global()) {}

std::string Binder::Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Status Binder::ErrorAt(const sql::SourcePosition& pos, const std::string& message) const {
  return sql::SqlErrorAt(sql_, pos, message);
}

LogicalPtr Binder::MakeNode(LogicalKind kind) const {
  auto node = std::make_shared<LogicalNode>();
  node->kind = kind;
  return node;
}

ColumnInfo Binder::NewColumn(std::string name, columnar::TypePtr type) {
  ColumnInfo c;
  c.id = ids_.Next();
  c.name = std::move(name);
  c.type = std::move(type);
  return c;
}

exec::ExprPtr TypedKey(exec::ExprPtr key) {
  if (key->type != nullptr) return key;
  return exec::Expr::Literal(exec::Value::Null(columnar::Boolean()));
}

LogicalPtr Binder::Project(LogicalPtr child, std::vector<ExprPtr> exprs,
                           const std::vector<std::string>& names,
                           std::vector<ColumnInfo>* columns) {
  LogicalPtr node = MakeNode(LogicalKind::kProject);
  for (size_t i = 0; i < exprs.size(); ++i) {
    columnar::TypePtr type = exprs[i]->type ? exprs[i]->type : columnar::Boolean();
    node->output.push_back(NewColumn(names[i], type));
    if (exprs[i]->type == nullptr) unknown_columns_.insert(node->output.back().id);
  }
  node->expressions = std::move(exprs);
  node->children.push_back(std::move(child));
  if (columns != nullptr) *columns = node->output;
  return node;
}

LogicalPtr Binder::FilterNode(LogicalPtr child, std::vector<ExprPtr> conjuncts) {
  if (conjuncts.empty()) return child;
  LogicalPtr node = MakeNode(LogicalKind::kFilter);
  node->output = child->output;
  node->expressions = std::move(conjuncts);
  node->children.push_back(std::move(child));
  return node;
}

LogicalPtr Binder::JoinNode(LogicalPtr left, LogicalPtr right, JoinType type,
                            std::vector<ExprPtr> conditions) {
  LogicalPtr node = MakeNode(LogicalKind::kJoin);
  node->join_type = type;
  node->output = left->output;
  if (type != JoinType::kSemi && type != JoinType::kAnti && type != JoinType::kMark) {
    node->output.insert(node->output.end(), right->output.begin(), right->output.end());
  }
  node->conditions = std::move(conditions);
  node->children.push_back(std::move(left));
  node->children.push_back(std::move(right));
  return node;
}

void SplitAnd(const ExprPtr& expr, std::vector<ExprPtr>* out) {
  if (expr == nullptr) return;
  if (expr->kind == exec::ExprKind::kAnd) {
    for (const ExprPtr& a : expr->args) SplitAnd(a, out);
    return;
  }
  out->push_back(expr);
}

ExprPtr MakeAnd(std::vector<ExprPtr> conjuncts) {
  if (conjuncts.empty()) return exec::Expr::Literal(exec::Value::Boolean(true));
  if (conjuncts.size() == 1) return conjuncts[0];
  return exec::Expr::Make(exec::ExprKind::kAnd, std::move(conjuncts), columnar::Boolean());
}

bool ExprEquals(const exec::Expr& a, const exec::Expr& b) {
  if (a.kind != b.kind) return false;
  if ((a.type == nullptr) != (b.type == nullptr)) return false;
  if (a.type != nullptr && !a.type->Equals(*b.type)) return false;
  if (a.args.size() != b.args.size()) return false;
  switch (a.kind) {
    case exec::ExprKind::kColumn:
      if (a.column != b.column) return false;
      break;
    case exec::ExprKind::kLiteral:
      if (!a.value.Equals(b.value)) return false;
      break;
    case exec::ExprKind::kCall:
      if (a.function != b.function) return false;
      break;
    case exec::ExprKind::kCast:
      if (a.try_cast != b.try_cast) return false;
      break;
    default:
      break;
  }
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (!ExprEquals(*a.args[i], *b.args[i])) return false;
  }
  return true;
}

ExprPtr Binder::Fold(ExprPtr expr) {
  if (expr->kind == exec::ExprKind::kLiteral || expr->kind == exec::ExprKind::kColumn) return expr;
  if (!expr->IsConstant()) return expr;
  auto value = exec::EvaluateConstant(*expr, catalog_.eval_context());
  if (!value.ok()) return expr;  // e.g. 1/0 in a branch that may never run: fail at run time
  return exec::Expr::Literal(*value);
}

// --- types -----------------------------------------------------------------------------

Result<columnar::TypePtr> ResolveType(const sql::ast::TypeName& type) {
  const std::string& b = type.base;
  auto param = [&](size_t i, int64_t def) {
    return i < type.numeric_params.size() ? type.numeric_params[i] : def;
  };
  if (b == "boolean") return columnar::Boolean();
  if (b == "tinyint") return columnar::Int8();
  if (b == "smallint") return columnar::Int16();
  if (b == "integer" || b == "int") return columnar::Int32();
  if (b == "bigint") return columnar::Int64();
  if (b == "real" || b == "float") return columnar::Float32();
  if (b == "double" || b == "double precision") return columnar::Float64();
  if (b == "decimal" || b == "numeric") {
    int64_t p = param(0, 38);
    int64_t s = param(1, 0);
    if (p < 1 || p > 38 || s < 0 || s > p) {
      return Status::InvalidArgument("invalid decimal type " + type.ToString() +
                                     ": precision must be 1..38 and scale 0..precision");
    }
    return columnar::Decimal(static_cast<int32_t>(p), static_cast<int32_t>(s));
  }
  if (b == "varchar" || b == "char" || b == "string" || b == "text") return columnar::String();
  if (b == "varbinary" || b == "binary") return columnar::Binary();
  if (b == "date") return columnar::Date32();
  if (b == "uuid") return columnar::Uuid();
  if (b == "time")
    return columnar::Time64(param(0, 6) > 6 ? columnar::TimeUnit::kNano
                                            : columnar::TimeUnit::kMicro);
  if (b == "timestamp") {
    columnar::TimeUnit unit =
        param(0, 6) > 6 ? columnar::TimeUnit::kNano : columnar::TimeUnit::kMicro;
    return type.with_time_zone ? columnar::TimestampTz(unit) : columnar::Timestamp(unit);
  }
  if (b == "array") {
    if (type.type_params.size() != 1)
      return Status::InvalidArgument("array needs one element type");
    SQE_ASSIGN_OR_RETURN(auto element, ResolveType(type.type_params[0]));
    return columnar::List(element);
  }
  if (b == "map") {
    if (type.type_params.size() != 2)
      return Status::InvalidArgument("map needs a key and a value type");
    SQE_ASSIGN_OR_RETURN(auto key, ResolveType(type.type_params[0]));
    SQE_ASSIGN_OR_RETURN(auto value, ResolveType(type.type_params[1]));
    return columnar::Map(key, value);
  }
  if (b == "row") {
    std::vector<columnar::Field> fields;
    for (size_t i = 0; i < type.type_params.size(); ++i) {
      SQE_ASSIGN_OR_RETURN(auto t, ResolveType(type.type_params[i]));
      // A field without a name stays anonymous (row(bigint, varchar)), as in Trino.
      std::string name = i < type.field_names.size() ? type.field_names[i] : std::string();
      fields.emplace_back(name, t, true);
    }
    return columnar::Struct(std::move(fields));
  }
  return Status::InvalidArgument("Unknown type '" + type.ToString() + "'");
}

Result<TableName> ResolveTableName(const sql::ast::QualifiedName& name,
                                   const std::string& current_catalog,
                                   const std::string& current_schema) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < name.parts.size(); ++i) {
    parts.push_back(Binder::NameOf(name.parts[i], name.quoted[i]));
  }
  TableName out;
  if (parts.size() == 1) {
    if (current_schema.empty()) {
      return Status::InvalidArgument(
          "Schema must be specified when session schema is not set: "
          "write schema." +
          parts[0] + " or run USE schema");
    }
    out = {current_catalog, current_schema, parts[0]};
  } else if (parts.size() == 2) {
    out = {current_catalog, parts[0], parts[1]};
  } else if (parts.size() == 3) {
    out = {parts[0], parts[1], parts[2]};
  } else {
    return Status::InvalidArgument("Too many dots in table name '" + name.ToString() + "'");
  }
  return out;
}

// --- entry points ------------------------------------------------------------------------

namespace {

void CollectCteRefs(LogicalNode& node, std::map<int32_t, std::vector<LogicalNode*>>* refs) {
  if (node.kind == LogicalKind::kCteRef) (*refs)[node.cte_id].push_back(&node);
  for (const LogicalPtr& child : node.children) CollectCteRefs(*child, refs);
}

/// Whether computing `node` again costs about as much as reading a stored copy.
bool CheapToRecompute(const LogicalNode& node) {
  switch (node.kind) {
    case LogicalKind::kScan:
    case LogicalKind::kValues:
    case LogicalKind::kFilter:
    case LogicalKind::kProject:
    case LogicalKind::kLimit:
    case LogicalKind::kCteRef:
      break;
    default:
      return false;
  }
  for (const LogicalPtr& child : node.children) {
    if (!CheapToRecompute(*child)) return false;
  }
  return true;
}

}  // namespace

void MaterializeSharedCtes(LogicalNode& root) {
  std::map<int32_t, std::vector<LogicalNode*>> refs;
  CollectCteRefs(root, &refs);
  for (auto& [id, nodes] : refs) {
    if (nodes.size() < 2 || CheapToRecompute(*nodes[0]->children[0])) continue;
    for (LogicalNode* n : nodes) n->materialized = true;
  }
}

Result<BoundQuery> Binder::BindTopQuery(const ast::Query& query) {
  parameter_types_.assign(parameters_.size(), nullptr);
  SQE_ASSIGN_OR_RETURN(QueryPlan bound, BindQueryNode(query, nullptr, nullptr));
  MaterializeSharedCtes(*bound.plan);
  return BoundQuery{bound.plan, bound.names, parameter_types_};
}

Result<exec::Value> Binder::BindConstantValue(const ast::Expr& expr) {
  Scope empty;
  ExprContext ctx;
  ctx.scope = &empty;
  ctx.clause = "a constant";
  SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(expr, ctx));
  if (!bound->IsConstant()) return ErrorAt(expr.pos, "expression must be a constant");
  auto value = exec::EvaluateConstant(*bound, catalog_.eval_context());
  if (!value.ok()) return ErrorAt(expr.pos, value.status().message());
  return *value;
}

Result<BoundQuery> BindQuery(const sql::ast::Query& query, BinderCatalog& catalog,
                             std::string_view sql, const std::vector<exec::Value>& parameters) {
  Binder binder(catalog, sql, parameters);
  return binder.BindTopQuery(query);
}

Result<exec::Value> BindConstant(const sql::ast::Expr& expr, BinderCatalog& catalog,
                                 std::string_view sql) {
  static const std::vector<exec::Value> kNoParameters;
  Binder binder(catalog, sql, kNoParameters);
  return binder.BindConstantValue(expr);
}

}  // namespace sqe::planner
