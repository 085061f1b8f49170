#pragma once
/// The binder's private state and helpers, shared by binder.cc (entry points, types),
/// bind_relation.cc (FROM), bind_table_function.cc (table functions in FROM),
/// bind_query.cc (SELECT, set operations, ORDER BY) and bind_expression.cc (expressions
/// and subqueries).

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "planner/binder.h"

namespace sqe::planner {

namespace ast = sql::ast;

/// A column visible in a scope.
struct ScopeColumn {
  std::string name;  ///< lower-cased for matching
  ColumnInfo column;
  bool qualified_only = false;  ///< the right side of JOIN USING: only `t.col` finds it
  /// An Iceberg hidden column ("$path"): found by name, left out of `*` and NATURAL JOIN.
  bool hidden = false;
};

/// A FROM item as seen by name resolution: its qualifier and columns.
struct ScopeRelation {
  /// The alias, or the table's name; name_parts also lets `schema.table.col` match.
  std::string alias;
  std::vector<std::string> name_parts;  ///< catalog, schema, table (tables only)
  std::vector<ScopeColumn> columns;
};

struct Scope {
  std::vector<ScopeRelation> relations;
  const Scope* parent = nullptr;
  /// Outer columns referenced from this scope (filled while binding a subquery).
  mutable std::vector<int32_t> outer_references;
};

/// Aggregation of one SELECT: group keys and aggregate calls, with their output columns.
struct AggregationInfo {
  std::vector<ExprPtr> keys;            ///< bound over the FROM scope
  std::vector<ColumnInfo> key_columns;  ///< the aggregate node's outputs for the keys
  std::vector<AggregateSpec> aggregates;
  std::vector<ColumnInfo> aggregate_columns;
  /// The aggregate column of each aggregate call in the SELECT / HAVING / ORDER BY.
  std::unordered_map<const ast::Expr*, int32_t> call_column;
  const Scope* from_scope = nullptr;
  /// ROLLUP / CUBE / GROUPING SETS (bind_grouping.cc): each set as a mask of the keys it
  /// groups by (bit k: keys[k]); empty for a plain GROUP BY (one set of every key).
  std::vector<uint64_t> grouping_sets;
  /// With grouping_sets: the aggregate's set-id key column (an index into grouping_sets).
  ColumnInfo grouping_set_column;
  /// grouping(...) calls in SELECT / HAVING / ORDER BY: their value over the aggregation.
  std::unordered_map<const ast::Expr*, ExprPtr> grouping_calls;
};

/// The window calls of one SELECT (bind_window.cc): the Window node's column of each.
struct WindowBinding {
  std::unordered_map<const ast::Expr*, ColumnInfo> call_column;
};

/// A named query of WITH, bound anew at each reference.
struct CteEntry {
  const ast::WithQuery* query;
  const struct CteScope* defined_in;
};

/// While WITH RECURSIVE binds one of its queries: what that query's own name refers to
/// (bind_recursive_cte.cc). In the anchor any reference is an error; in the recursive step
/// it is the working table, referenced exactly once and not from a subquery expression.
struct WorkingTableBinding {
  /// Set while a reference is an error (the anchor; a query not of the UNION form).
  std::string error;
  int32_t cte_id = -1;
  std::string name;
  std::vector<ColumnInfo> columns;  ///< names and types (each reference gets fresh ids)
  size_t probe_depth = 0;           ///< probes_.size() when the step's binding began
  int references = 0;
  sql::SourcePosition first_reference;
};

struct CteScope {
  std::map<std::string, const ast::WithQuery*> entries;
  const CteScope* parent = nullptr;
  /// WITH RECURSIVE: its queries may reference themselves.
  bool recursive = false;
  /// The recursive query being bound, by name (shadows entries and outer scopes).
  std::map<std::string, WorkingTableBinding*> working;
};

/// A subquery being decorrelated: conjuncts of its WHERE that reference outer columns are
/// taken out of the subquery and handed to the caller (as join conditions).
struct Decorrelation {
  /// Output: the correlated conjuncts (over outer and subquery columns).
  std::vector<ExprPtr> correlated;
  /// Scalar aggregates: each correlated conjunct must be inner = outer; the inner sides
  /// become extra GROUP BY keys, output first (inner_key_columns), and outer_keys holds
  /// the matching outer sides.
  bool group_by_correlation = false;
  std::vector<ExprPtr> outer_keys;
  std::vector<ColumnInfo> inner_key_columns;
  /// EXISTS / IN: the subquery's inner columns the correlated conjuncts use are passed
  /// through the subquery's projection (after its select items).
  bool pass_through_correlated_columns = false;
};

/// What expression binding may use and change.
struct ExprContext {
  const Scope* scope = nullptr;
  /// The plan the expression is evaluated over; subqueries wrap it in joins. nullptr:
  /// subqueries are not allowed here.
  LogicalPtr* plan = nullptr;
  /// Set when binding after GROUP BY / aggregation.
  const AggregationInfo* aggregation = nullptr;
  /// "WHERE", "GROUP BY", ... for error messages about misplaced aggregates.
  const char* clause = "";
  /// Set where window calls may appear (SELECT, ORDER BY): their columns.
  const WindowBinding* windows = nullptr;
};

/// Tracks whether a subquery being bound references columns of its outer scopes.
struct CorrelationProbe {
  const Scope* outer = nullptr;  ///< the scope the subquery was bound in
  bool correlated = false;
};

class Binder {
 public:
  Binder(BinderCatalog& catalog, std::string_view sql, const std::vector<exec::Value>& parameters);

  Result<BoundQuery> BindTopQuery(const ast::Query& query);
  Result<exec::Value> BindConstantValue(const ast::Expr& expr);

  // --- queries (bind_query.cc) ---
  /// A bound query body: the first names.size() columns of plan->output are the
  /// result; more may follow (hidden ORDER BY keys) until the caller projects them away.
  struct QueryPlan {
    LogicalPtr plan;
    std::vector<std::string> names;
    std::vector<SortSpec> order;  ///< ORDER BY over plan's columns, not yet applied
  };
  Result<QueryPlan> BindQueryNode(const ast::Query& query, const Scope* outer,
                                  const CteScope* ctes);
  Result<QueryPlan> BindQueryBody(const ast::QueryBody& body, const Scope* outer,
                                  const CteScope* ctes, const std::vector<ast::SortItem>* order_by);
  /// A SELECT; with `order_by` it also sorts (by select aliases, ordinals or input columns).
  /// `extra_keys` are added to GROUP BY and prepended to the output (decorrelation).
  Result<QueryPlan> BindSelect(const ast::Select& select, const Scope* outer, const CteScope* ctes,
                               const std::vector<ast::SortItem>* order_by,
                               Decorrelation* decorrelation = nullptr);
  /// WHERE: conjuncts that are [NOT] EXISTS / [NOT] IN (subquery) become semi / anti
  /// joins of *plan; the rest is returned bound (correlated ones separately when
  /// `decorrelation` is set). With `filter_plain_first`, the uncorrelated conjuncts that
  /// hold no subquery filter *plan before any subquery is bound (and are not returned), so
  /// a subquery decorrelated over *plan's values sees only the rows the WHERE keeps.
  Result<std::vector<ExprPtr>> BindWhere(const ast::Expr& where, const Scope* scope,
                                         LogicalPtr* plan, Decorrelation* decorrelation,
                                         bool filter_plain_first = false);
  /// [NOT] EXISTS / [NOT] IN (subquery) as a semi / anti / mark join of *plan. For a mark
  /// join, returns the boolean mark column; otherwise nullptr.
  Result<ExprPtr> BindSubqueryJoin(const ast::Expr& expr, bool negated, bool as_mark,
                                   const Scope* scope, LogicalPtr* plan);
  /// A scalar subquery: folded to a literal when uncorrelated; otherwise decorrelated into
  /// a grouped left join of *plan and a reference to its value column.
  Result<ExprPtr> BindScalarSubquery(const ast::Expr& expr, ExprContext& ctx);
  /// x <op> ALL / ANY / SOME (subquery): = ANY and <> ALL as IN / NOT IN; the others from
  /// the subquery's count(*), count(y), min(y) and max(y), with SQL's NULL semantics.
  Result<ExprPtr> BindQuantified(const ast::Expr& expr, ExprContext& ctx);

  // --- GROUP BY and grouping sets (bind_grouping.cc) ---
  /// GROUP BY's keys appended to info->keys (deduplicated; ordinals and select aliases
  /// resolved, names in key_names) and, for ROLLUP / CUBE / GROUPING SETS, info->grouping_sets.
  Status BindGroupBy(const ast::Select& select, ExprContext& pre, AggregationInfo* info,
                     std::vector<std::string>* key_names);
  /// One GROUP BY expression: the index of its key in info->keys (added when new).
  Result<size_t> BindGroupKey(const ast::Select& select, const ast::ExprPtr& e, ExprContext& pre,
                              AggregationInfo* info, std::vector<std::string>* key_names);
  /// The aggregate node for info->grouping_sets over `input`: the input expanded once per
  /// set, absent keys NULL, grouped by the keys and the set id. Fills info->key_columns and
  /// info->grouping_set_column; info->aggregate_columns are its aggregate outputs.
  Result<LogicalPtr> PlanGroupingSets(LogicalPtr input, AggregationInfo* info,
                                      const std::vector<std::string>& key_names);
  /// The grouping(...) calls among `calls`, bound (arguments over `pre`) into
  /// info->grouping_calls; after the aggregate node exists.
  Status BindGroupingCalls(const std::vector<const ast::Expr*>& calls, ExprContext& pre,
                           AggregationInfo* info);
  /// Fails when `plan` (a SELECT over grouping sets) reads a FROM column above the
  /// aggregate (a correlated subquery in SELECT / HAVING / ORDER BY): only the group keys
  /// of a plain GROUP BY are mapped into such subqueries (MapGroupKeys).
  Status CheckGroupingSetsReferences(const LogicalNode& plan, const AggregationInfo& info,
                                     const sql::SourcePosition& pos) const;

  // --- window functions (bind_window.cc) ---
  /// The window calls of the SELECT list and `order_by`, bound with `ctx` (over the FROM
  /// or the aggregation), as one Window node on top of *plan; their columns in *out.
  Status BindWindows(const ast::Select& select, const std::vector<ast::SortItem>* order_by,
                     ExprContext& ctx, LogicalPtr* plan, WindowBinding* out);
  struct BoundWindowCall {
    WindowFunctionSpec spec;
    columnar::TypePtr type;
  };
  Result<BoundWindowCall> BindWindowCall(const ast::Expr& call,
                                         const std::vector<ast::NamedWindow>& named,
                                         ExprContext& ctx);
  /// `spec` with the named window it refers to (`OVER w`, `OVER (w ORDER BY ..)`) merged in.
  Result<ast::WindowSpec> ResolveWindowSpec(const ast::WindowSpec& spec,
                                            const std::vector<ast::NamedWindow>& named,
                                            const sql::SourcePosition& at, int depth);
  /// The column of a bound window call, or the error for a window call where none may be.
  Result<ExprPtr> WindowColumn(const ast::Expr& call, const ExprContext& ctx);

  // --- WITH RECURSIVE (bind_recursive_cte.cc) ---
  /// A query of a WITH RECURSIVE named `name`, seeing the WITH entries `visible`: a
  /// kRecursiveCte over its anchor and step when it references itself, else bound as a
  /// plain WITH query.
  Result<QueryPlan> BindRecursiveWithQuery(const ast::WithQuery& with, const std::string& name,
                                           const CteScope* visible);
  /// The working-table leaf for a reference to `binding` at `pos` (errors for misplaced
  /// references).
  Result<LogicalPtr> BindWorkingTableReference(WorkingTableBinding& binding,
                                               const sql::SourcePosition& pos);

  // --- relations (bind_relation.cc) ---
  Result<LogicalPtr> BindRelation(const ast::Relation& relation, const Scope* outer,
                                  const CteScope* ctes, Scope* scope);
  /// A scan of every column of `source` (the optimizer prunes them later).
  /// A scan of every column of `source` (with its hidden columns when `with_hidden`).
  LogicalPtr ScanNode(std::shared_ptr<const ScanSource> source, bool with_hidden = false);
  Result<LogicalPtr> BindFrom(const std::vector<ast::RelationPtr>& from, const Scope* outer,
                              const CteScope* ctes, Scope* scope);
  /// UNNEST(...) in FROM (bind_unnest.cc) over `input`, whose columns `input_scope`
  /// resolves (input nullptr: a standalone UNNEST over one empty row); `outer_join` keeps
  /// input rows without elements. Adds the unnest's relation to `scope`.
  Result<LogicalPtr> BindUnnest(const ast::Relation& relation, LogicalPtr input,
                                const Scope* input_scope, const Scope* outer, bool outer_join,
                                Scope* scope);
  /// `left [CROSS | INNER | LEFT] JOIN UNNEST(...)`: the unnest reads the left side's columns.
  Result<LogicalPtr> BindUnnestJoin(const ast::Relation& join, const Scope* outer,
                                    const CteScope* ctes, Scope* scope);
  /// A table function in FROM (bind_table_function.cc): its scan and its scope relation.
  Result<LogicalPtr> BindTableFunction(const ast::Relation& relation, ScopeRelation* bound);
  /// An inner join whose ON holds subqueries: the ON's plain conjuncts (no subquery, no
  /// outer column) join `left` and `right` with `conditions` (USING equalities) first; the
  /// others are bound as in a WHERE over that join, so a subquery decorrelated over the
  /// join's values sees only the matching pairs, not the sides' cross product.
  Result<LogicalPtr> BindInnerJoinOnWithSubqueries(const ast::Expr& on, LogicalPtr left,
                                                   LogicalPtr right,
                                                   std::vector<ExprPtr> conditions,
                                                   const Scope& joined);
  /// read_parquet(path | glob | ARRAY[...], ...) and iceberg_scan(path, name => value...)
  /// as scan sources.
  Result<std::shared_ptr<const ScanSource>> ReadParquetSource(const ast::Relation& relation);
  Result<std::shared_ptr<const ScanSource>> IcebergScanSource(const ast::Relation& relation);

  // --- expressions (bind_expression.cc) ---
  Result<ExprPtr> BindExpr(const ast::Expr& expr, ExprContext& ctx);
  /// Binds and coerces to boolean (WHERE, HAVING, ON).
  Result<ExprPtr> BindPredicate(const ast::Expr& expr, ExprContext& ctx);
  /// `expr`, typed as ARRAY[] or ARRAY[NULL, ...] (exec::UnknownElementArray), as a value
  /// of the array type `type`: NULL stays NULL, and an array keeps its count of NULLs.
  Result<ExprPtr> EmptyArrayOf(ExprPtr expr, const columnar::TypePtr& type);
  /// Casts `expr` to `type` (a no-op when equal; folds constants).
  Result<ExprPtr> CastTo(ExprPtr expr, const columnar::TypePtr& type,
                         const sql::SourcePosition& at);
  /// f(args) with overload resolution and argument casts.
  Result<ExprPtr> CallFunction(const std::string& name, std::vector<ExprPtr> args,
                               const sql::SourcePosition& at);
  /// The timestamp with time zone `call` (AT TIME ZONE, with_timezone, from_unixtime with
  /// a zone) typed in the zone `zone` names; InvalidArgument when the zone is unknown or
  /// not a constant (a column's type carries one zone).
  Result<ExprPtr> TypeZonedResult(ExprPtr call, const ExprPtr& zone, const sql::SourcePosition& at);
  /// The zone CAST(value AS timestamp with time zone) gives its result: the value's own
  /// (a zoned timestamp, a constant text naming one), else the session's.
  Result<columnar::TypePtr> CastTargetZone(const ExprPtr& value, const columnar::TypePtr& type,
                                           const sql::SourcePosition& at);
  /// Folds a constant expression to a literal when it evaluates without error.
  ExprPtr Fold(ExprPtr expr);
  /// Whether the AST subtree holds an aggregate call (outside subqueries).
  bool ContainsAggregate(const ast::Expr& expr) const;
  /// The aggregate calls (and grouping(...) calls) of `expr` outside subqueries, in order.
  void CollectAggregates(const ast::Expr& expr, std::vector<const ast::Expr*>* out) const;
  /// CollectAggregates of an optional child (nothing when null).
  void CollectAggregates(const ast::ExprPtr& expr, std::vector<const ast::Expr*>* out) const;

  /// A column by (possibly qualified) name, searched in `scope` then its parents.
  Result<ExprPtr> ResolveColumn(const ast::QualifiedName& name, const sql::SourcePosition& pos,
                                const Scope* scope);
  Result<ExprPtr> BindLiteral(const ast::Expr& expr);
  Result<ExprPtr> BindFunctionCall(const ast::Expr& expr, ExprContext& ctx);
  /// A call of a higher-order function (transform, filter, reduce, ...) with lambda
  /// arguments: each lambda's body bound with its parameters typed by
  /// exec::LambdaParameterTypes.
  Result<ExprPtr> BindLambdaCall(const std::string& name, const ast::Expr& expr, ExprContext& ctx);
  /// The parameters of the lambdas whose bodies are being bound, innermost last: (lowercase
  /// name, its exec::ExprKind::kLambdaParam expression).
  std::vector<std::pair<std::string, ExprPtr>> lambda_params_;
  /// The innermost lambda parameter called `name` (any case), or nullptr.
  ExprPtr LambdaParam(const std::string& name) const;
  /// > 0 while binding the argument of try(...): constant casts that fail are left to run
  /// (and become NULL) instead of failing the statement.
  int try_depth_ = 0;
  /// date / time / timestamp +- an interval expression (a date_add call), or the reverse.
  Result<ExprPtr> BindIntervalArithmetic(const ast::Expr& expr, ExprContext& ctx);
  /// An interval expression as Trino's two interval types have it: a bigint count of months
  /// (year to month) or of milliseconds (day to second).
  struct BoundInterval {
    bool year_month = false;
    ExprPtr amount;
  };
  Result<BoundInterval> BindInterval(const ast::Expr& expr, ExprContext& ctx);
  /// to_milliseconds(interval day to second expression): its bigint milliseconds.
  Result<ExprPtr> BindToMilliseconds(const ast::Expr& call, ExprContext& ctx);

  // --- ROW values (bind_row.cc) ---
  /// ROW(a, b, ...) and (a, b, ...): a row literal when every field is constant, else a
  /// row_constructor call; the fields are anonymous.
  Result<ExprPtr> BindRowConstructor(const ast::Expr& expr, ExprContext& ctx);
  /// base.text (kDereference): a field of a row by name.
  Result<ExprPtr> BindDereference(const ast::Expr& expr, ExprContext& ctx);
  /// A dotted name that is no column (`not_found`): its longest prefix that is a column
  /// (or lambda parameter), then the remaining parts as row fields (t.col.x, col.x.y).
  Result<ExprPtr> BindFieldPath(const ast::Expr& expr, ExprContext& ctx, Status not_found);
  /// Whether `expr` is a dotted name that is no column of `scope` (so maybe a row field
  /// path, which after GROUP BY binds its row part against the keys: r.x over GROUP BY r).
  bool IsRowFieldPath(const ast::Expr& expr, const Scope* scope);
  /// (a, b) [NOT] IN (SELECT x, y ...): when `left` is a row of `columns` values, projects
  /// *sub_plan's first `columns` columns into one row column (the other columns, such as a
  /// correlated subquery's correlation values, pass through), so the IN compares rows (NOT
  /// IN and IN as a value pair by pair: a row with a NULL field compares unknown).
  bool PackRowInSubquery(const ast::Expr& left, size_t columns, LogicalPtr* sub_plan);
  /// `r.*` in a select list where r is no relation but a row value: appends one item per
  /// field (named after it, `_colN` when anonymous) and sets *expanded; leaves everything
  /// as it was when r does not bind to a row.
  Status ExpandRowStar(const ast::Expr& star, ExprContext& ctx, std::vector<ExprPtr>* exprs,
                       std::vector<std::string>* names, bool* expanded);
  /// row[index] with Trino's rules: the index an integer literal from 1 to the field count.
  Result<ExprPtr> BindRowSubscript(ExprPtr row, const ast::Expr& index);
  /// Field `name` (case-insensitive) of `row`; `what` names the access in errors.
  Result<ExprPtr> RowFieldByName(ExprPtr row, const std::string& name, const std::string& what,
                                 const sql::SourcePosition& at);
  /// Field `field` (0-based) of `row`, folded when `row` is constant.
  Result<ExprPtr> RowFieldAt(ExprPtr row, int field, const sql::SourcePosition& at);

  // --- shared helpers ---
  Status ErrorAt(const sql::SourcePosition& pos, const std::string& message) const;
  LogicalPtr MakeNode(LogicalKind kind) const;
  ColumnInfo NewColumn(std::string name, columnar::TypePtr type);
  /// A projection of `child` computing `exprs` named `names` (fresh column ids).
  LogicalPtr Project(LogicalPtr child, std::vector<ExprPtr> exprs,
                     const std::vector<std::string>& names, std::vector<ColumnInfo>* columns);
  LogicalPtr FilterNode(LogicalPtr child, std::vector<ExprPtr> conjuncts);
  LogicalPtr JoinNode(LogicalPtr left, LogicalPtr right, JoinType type,
                      std::vector<ExprPtr> conditions);
  static std::string Lower(std::string_view s);
  static std::string NameOf(const std::string& part, bool quoted) {
    return quoted ? part : Lower(part);
  }

  BinderCatalog& catalog_;
  std::string_view sql_;
  const std::vector<exec::Value>& parameters_;
  /// Per `?` without a value (Describe binds with untyped NULLs): the type the query first
  /// coerced it to, or nullptr (BoundQuery::parameter_types).
  std::vector<columnar::TypePtr> parameter_types_;
  IdAllocator ids_;
  const exec::FunctionRegistry& registry_;
  std::vector<CorrelationProbe*> probes_;
  /// The WITH names visible where binding is now (subqueries in expressions see them).
  const CteScope* current_ctes_ = nullptr;
  /// The kCteRef cte_id of each WITH query referenced so far.
  std::map<const ast::WithQuery*, int32_t> with_ids_;
  /// Columns that hold only untyped NULLs (`SELECT NULL AS x`, an all-NULL VALUES column):
  /// Trino's type unknown. Stored as boolean; a reference to one binds as an untyped NULL,
  /// so it takes the type its use asks for (`x + 1`, `coalesce(x, 'a')`).
  std::unordered_set<int32_t> unknown_columns_;
};

/// A FROM item named `alias` with `columns` (names lower-cased for matching).
ScopeRelation RelationFor(const std::string& alias, const std::vector<ColumnInfo>& columns);

/// An INTERVAL literal as one unit ("year", "month", "day", "hour", "minute", "second" or
/// "millisecond") and a signed amount of it.
struct IntervalAmount {
  std::string unit;
  int64_t amount = 0;
};

/// Parses an INTERVAL literal; the error message has no position (the caller adds it).
Result<IntervalAmount> ParseIntervalLiteral(const ast::Expr& literal);

/// Whether `expr` is an interval expression: an INTERVAL literal, or unary minus, + and - of
/// interval expressions, or an interval expression multiplied or divided by a number
/// (bind_interval.cc).
bool IsIntervalExpr(const ast::Expr& expr);

/// A grouping, partitioning or sort key with a type: an untyped NULL (GROUP BY NULL, a column
/// of NULLs) becomes a boolean NULL; any other key is returned as it is.
exec::ExprPtr TypedKey(exec::ExprPtr key);

/// Whether `expr` (an unbound expression) holds a subquery anywhere in it.
bool ContainsSubquery(const ast::Expr& expr);
/// ContainsSubquery of an optional child (false when null).
bool ContainsSubquery(const ast::ExprPtr& expr);
/// The conjuncts of an unbound AND tree, left to right.
std::vector<const ast::Expr*> AstConjuncts(const ast::Expr& expr);

/// Whether `expr` is a grouping(...) call (bound by BindGroupingCalls, not as a function).
bool IsGroupingCall(const ast::Expr& expr);

/// Marks the kCteRef nodes of WITH queries `root` references more than once (and that are
/// not cheap to recompute) as materialized: computed once, read by every reference.
void MaterializeSharedCtes(LogicalNode& root);

/// The conjuncts of an AND tree.
void SplitAnd(const ExprPtr& expr, std::vector<ExprPtr>* out);
/// AND of `conjuncts` (TRUE literal when empty).
ExprPtr MakeAnd(std::vector<ExprPtr> conjuncts);
/// Structural equality of bound expressions (same kind, type, columns, values, functions).
bool ExprEquals(const exec::Expr& a, const exec::Expr& b);

}  // namespace sqe::planner
