#pragma once
/// The SQL abstract syntax tree: what the parser (sql/parser.h) produces and the binder
/// consumes. Nodes hold names exactly as written (unquoted identifiers are not lower-cased
/// here: the binder does that, using the `quoted` flags) and the position of their first
/// token, so later errors can point into the SQL text. Expressions are one tagged struct
/// (`Expr`, switched on `kind`), statements one derived struct per kind (switch on
/// `Statement::kind`, then static_cast). Nodes are plain data: not thread safe to mutate,
/// safe to read from many threads once built.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/token.h"

namespace sqe::sql::ast {

/// A dotted name (`catalog.schema.table`, `t.col`, `system.rollback_to_snapshot`). Each
/// part is kept as written; `quoted[i]` says whether part i was a "quoted" identifier.
struct QualifiedName {
  std::vector<std::string> parts;
  std::vector<bool> quoted;

  bool empty() const { return parts.empty(); }
  void Append(std::string part, bool is_quoted) {
    parts.push_back(std::move(part));
    quoted.push_back(is_quoted);
  }
  /// Parts joined by '.', quoted parts in double quotes.
  std::string ToString() const;
};

/// A type as written in CAST, column definitions and typed literals. `base` is lower-case
/// and may be several words ("double", "decimal", "varchar", "timestamp", "array", "map",
/// "row", "interval day to second").
struct TypeName {
  std::string base;
  std::vector<int64_t> numeric_params;   ///< decimal(10, 2), varchar(20), timestamp(6)
  std::vector<TypeName> type_params;     ///< array(T), map(K, V), row(...) field types
  std::vector<std::string> field_names;  ///< row field names ("" when a field has none)
  bool with_time_zone = false;           ///< timestamp / time ... WITH TIME ZONE

  /// Trino's spelling: "decimal(10,2)", "array(varchar)", "row(a bigint, b double)",
  /// "timestamp(3) with time zone".
  std::string ToString() const;
};

struct Expr;
struct Query;
struct Relation;
/// Expressions are shared so rewrites in the binder can reuse subtrees.
using ExprPtr = std::shared_ptr<Expr>;
using QueryPtr = std::shared_ptr<Query>;
using RelationPtr = std::shared_ptr<Relation>;

enum class NullOrdering : uint8_t { kDefault, kFirst, kLast };

/// One ORDER BY item (queries, window specs, ordered aggregates).
struct SortItem {
  ExprPtr expr;
  bool ascending = true;
  NullOrdering nulls = NullOrdering::kDefault;
};

enum class FrameType : uint8_t { kRows, kRange, kGroups };
enum class FrameBoundKind : uint8_t {
  kUnboundedPreceding,
  kPreceding,  ///< `offset` PRECEDING
  kCurrentRow,
  kFollowing,  ///< `offset` FOLLOWING
  kUnboundedFollowing,
};

struct FrameBound {
  FrameBoundKind kind = FrameBoundKind::kCurrentRow;
  ExprPtr offset;  ///< for kPreceding / kFollowing
};

/// ROWS|RANGE|GROUPS [BETWEEN start AND end] (a single bound means `end` is absent, which
/// SQL defines as CURRENT ROW).
struct WindowFrame {
  FrameType type = FrameType::kRange;
  FrameBound start;
  std::optional<FrameBound> end;
};

/// A window: `OVER w` (only `existing_name`), `OVER (w ORDER BY ...)` or an inline spec.
struct WindowSpec {
  std::string existing_name;  ///< a WINDOW-clause name this spec refers to or extends
  std::vector<ExprPtr> partition_by;
  std::vector<SortItem> order_by;
  std::optional<WindowFrame> frame;
};

enum class ExprKind : uint8_t {
  kIdentifier,       ///< name (a, t.a, s.t.a)
  kDereference,      ///< left.text, where left is not a plain name: f(x).field, a[1].f
  kLiteral,          ///< literal_kind + text
  kTypedLiteral,     ///< type + text: DATE '2020-01-01', DECIMAL '1.5', JSON '[]'
  kIntervalLiteral,  ///< negated (sign -), text, interval_from [TO interval_to]
  kParameter,        ///< ?, parameter_index counts from 0 in order of appearance
  kStar,             ///< * or name.* (name is the qualifier, empty for a bare *)
  kUnary,            ///< op ("-" or "+") left
  kNot,              ///< NOT left
  kBinary,           ///< left op right: arithmetic, comparison, "||", "AND", "OR"
  kBetween,          ///< left [NOT] BETWEEN low AND high
  kInList,           ///< left [NOT] IN (args...)
  kInSubquery,       ///< left [NOT] IN (subquery)
  kExists,           ///< EXISTS (subquery)
  kScalarSubquery,   ///< (subquery)
  kQuantified,       ///< left op quantifier (subquery), quantifier ANY|SOME|ALL
  kLike,             ///< left [NOT] LIKE|ILIKE right [ESCAPE escape]
  kIsNull,           ///< left IS [NOT] NULL
  kIsDistinctFrom,   ///< left IS [NOT] DISTINCT FROM right
  kCase,             ///< CASE [left] WHEN..THEN.. [ELSE else_result] END
  kCast,             ///< CAST|TRY_CAST(left AS type)
  kFunctionCall,     ///< name(args) with distinct, count_star, filter, order_by, window
  kExtract,          ///< EXTRACT(text FROM left), text is the field as written
  kSubscript,        ///< left[right]
  kArray,            ///< ARRAY[args]
  kRow,              ///< ROW(args) or (a, b, ...)
  kLambda,           ///< (lambda_params) -> left
  kAtTimeZone,       ///< left AT TIME ZONE right (right is a kSpecial "local" for LOCAL)
  kSpecial,          ///< current_date, current_timestamp[(p)], localtimestamp, current_user...
  kPosition,         ///< POSITION(args[0] IN args[1])
  kSubstring,        ///< SUBSTRING(args[0] FROM args[1] [FOR args[2]])
  kTrim,             ///< TRIM([text] [args[1]] FROM args[0]); text "both"|"leading"|"trailing"
  kNamedArgument,    ///< text => left (CALL and table function arguments)
};

enum class LiteralKind : uint8_t {
  kNull,
  kBoolean,  ///< text "true" / "false" (lower-case)
  kInteger,
  kDecimal,
  kDouble,
  kString,
  kBinary,  ///< X'..': text holds the raw bytes
};

enum class NullTreatment : uint8_t { kDefault, kIgnoreNulls, kRespectNulls };

/// CASE's WHEN condition (or value, in a simple CASE) and its THEN result.
struct WhenClause {
  ExprPtr when;
  ExprPtr then;
};

/// One expression node. Which fields are meaningful depends on `kind` (see ExprKind).
struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  SourcePosition pos;

  QualifiedName name;  ///< kIdentifier, kFunctionCall, kStar (qualifier)
  /// kLiteral/kTypedLiteral/kIntervalLiteral value as written (strings unescaped);
  /// kDereference field; kExtract field; kTrim specification; kSpecial name (lower-case);
  /// kNamedArgument name.
  std::string text;
  /// Operator: kUnary/kBinary ("+", "=", "<>", "||", "AND", ...), kQuantified's comparison.
  std::string op;
  /// kBinary: where the operator token is (Trino reports operator errors there; for AND / OR
  /// the right operand's start); `pos` stays the start of the left operand.
  SourcePosition op_pos;
  LiteralKind literal_kind = LiteralKind::kNull;
  TypeName type;  ///< kCast, kTypedLiteral

  /// NOT in kBetween, kInList, kInSubquery, kLike, kIsNull, kIsDistinctFrom; the '-' sign
  /// of a kIntervalLiteral.
  bool negated = false;

  ExprPtr left;    ///< main operand (see ExprKind), CASE operand, lambda body
  ExprPtr right;   ///< second operand
  ExprPtr low;     ///< BETWEEN
  ExprPtr high;    ///< BETWEEN
  ExprPtr escape;  ///< LIKE ... ESCAPE
  /// kInList items, kFunctionCall/kArray/kRow elements, kPosition/kSubstring/kTrim operands,
  /// kSpecial precision (current_timestamp(3)).
  std::vector<ExprPtr> args;
  QueryPtr subquery;  ///< kInSubquery, kExists, kScalarSubquery, kQuantified

  // kCase
  std::vector<WhenClause> when_clauses;
  ExprPtr else_result;
  // kCast
  bool try_cast = false;
  // kIntervalLiteral: upper-case field names, e.g. "DAY", "YEAR" TO "MONTH"
  std::string interval_from;
  std::string interval_to;
  // kParameter
  int32_t parameter_index = 0;
  // kQuantified: "ANY", "SOME" or "ALL"
  std::string quantifier;
  // kLike
  bool ilike = false;
  // kFunctionCall
  bool distinct = false;
  bool count_star = false;         ///< count(*): args is empty
  ExprPtr filter;                  ///< FILTER (WHERE filter)
  std::vector<SortItem> order_by;  ///< ORDER BY inside the call: array_agg(x ORDER BY y)
  NullTreatment null_treatment = NullTreatment::kDefault;
  std::shared_ptr<WindowSpec> window;  ///< OVER ...; nullptr when not a window call
  // kLambda
  std::vector<std::string> lambda_params;

  /// Fully parenthesized SQL-like text that shows the tree's structure, e.g.
  /// "(1 + (2 * 3))", for tests and debug logs.
  std::string ToString() const;
};

// ---------------------------------------------------------------------------------------
// Queries

/// One WITH entry: name [(column_aliases)] AS (query).
struct WithQuery {
  SourcePosition pos;
  std::string name;
  bool quoted = false;
  std::vector<std::string> column_aliases;
  QueryPtr query;
};

struct With {
  bool recursive = false;
  std::vector<WithQuery> queries;
};

struct SelectItem {
  SourcePosition pos;
  /// The expression; a kStar expression for `*` and `t.*`.
  ExprPtr expr;
  std::optional<std::string> alias;
  bool alias_quoted = false;
};

enum class GroupingKind : uint8_t { kSimple, kRollup, kCube, kGroupingSets };

/// One GROUP BY element. kSimple: `exprs` (`a`, `(a, b)`, or `()` = empty). kRollup, kCube
/// and kGroupingSets: `sets`, each a parenthesized list or a single expression.
struct GroupingElement {
  GroupingKind kind = GroupingKind::kSimple;
  std::vector<ExprPtr> exprs;
  std::vector<std::vector<ExprPtr>> sets;
};

struct GroupBy {
  bool distinct = false;  ///< GROUP BY DISTINCT (dedupe grouping sets)
  std::vector<GroupingElement> elements;
  bool empty() const { return elements.empty(); }
};

/// WINDOW name AS (spec).
struct NamedWindow {
  std::string name;
  WindowSpec spec;
};

struct Select {
  SourcePosition pos;
  bool distinct = false;
  std::vector<SelectItem> items;
  /// FROM items; several items are an implicit cross join.
  std::vector<RelationPtr> from;
  ExprPtr where;
  GroupBy group_by;
  ExprPtr having;
  std::vector<NamedWindow> windows;
};

enum class QueryBodyKind : uint8_t { kSelect, kSetOperation, kValues, kTable, kQuery };
enum class SetOpKind : uint8_t { kUnion, kIntersect, kExcept };

struct QueryBody;
using QueryBodyPtr = std::shared_ptr<QueryBody>;

/// The part of a query between WITH and ORDER BY.
struct QueryBody {
  QueryBodyKind kind = QueryBodyKind::kSelect;
  SourcePosition pos;
  std::shared_ptr<Select> select;  ///< kSelect
  // kSetOperation
  SetOpKind set_op = SetOpKind::kUnion;
  bool set_distinct = true;  ///< false for UNION ALL etc.
  QueryBodyPtr left;
  QueryBodyPtr right;
  /// kValues: one vector per row. `VALUES (1, 'a'), (2, 'b')` has rows {1,'a'}, {2,'b'};
  /// `VALUES 1, 2` has rows {1}, {2}.
  std::vector<std::vector<ExprPtr>> rows;
  QualifiedName table;  ///< kTable: TABLE t
  QueryPtr query;       ///< kQuery: a parenthesized query with its own ORDER BY / LIMIT
};

/// A full query: WITH, body, ORDER BY, OFFSET, LIMIT / FETCH FIRST.
struct Query {
  SourcePosition pos;
  std::optional<With> with;
  QueryBodyPtr body;
  std::vector<SortItem> order_by;
  ExprPtr offset;
  ExprPtr limit;           ///< nullptr = no limit (also for LIMIT ALL)
  bool with_ties = false;  ///< FETCH FIRST n ROWS WITH TIES

  std::string ToString() const;
};

// ---------------------------------------------------------------------------------------
// Relations (FROM items)

enum class RelationKind : uint8_t { kTable, kSubquery, kJoin, kTableFunction, kUnnest };
enum class JoinKind : uint8_t { kInner, kLeft, kRight, kFull, kCross };
enum class TimeTravelKind : uint8_t { kNone, kVersion, kTimestamp };

struct Relation {
  RelationKind kind = RelationKind::kTable;
  SourcePosition pos;

  /// kTable: the table; kTableFunction: the function.
  QualifiedName name;
  TimeTravelKind time_travel = TimeTravelKind::kNone;
  ExprPtr time_travel_expr;  ///< FOR VERSION AS OF expr / FOR TIMESTAMP AS OF expr

  QueryPtr subquery;     ///< kSubquery
  bool lateral = false;  ///< kSubquery: LATERAL (query)

  // kJoin
  JoinKind join_kind = JoinKind::kInner;
  RelationPtr left;
  RelationPtr right;
  ExprPtr on;                              ///< ON condition
  std::vector<std::string> using_columns;  ///< USING (a, b)
  bool natural = false;

  /// kTableFunction arguments (kNamedArgument for `name => value`); kUnnest expressions.
  std::vector<ExprPtr> args;
  bool with_ordinality = false;  ///< kUnnest

  std::optional<std::string> alias;
  bool alias_quoted = false;
  std::vector<std::string> column_aliases;

  /// TABLESAMPLE BERNOULLI|SYSTEM (percentage), after the alias; empty method = none.
  std::string sample_method;
  ExprPtr sample_percentage;

  std::string ToString() const;
};

// ---------------------------------------------------------------------------------------
// Statements

enum class StatementKind : uint8_t {
  kQuery,
  kExplain,
  kShowCatalogs,
  kShowSchemas,
  kShowTables,
  kShowColumns,
  kShowCreateTable,
  kShowCreateView,
  kShowFunctions,
  kShowSession,
  kShowStats,
  kUse,
  kSetSession,
  kResetSession,
  kPrepare,
  kExecute,
  kExecuteImmediate,
  kDeallocate,
  kDescribeInput,
  kDescribeOutput,
  kCreateSchema,
  kDropSchema,
  kCreateTable,
  kCreateTableAsSelect,
  kDropTable,
  kCreateView,
  kDropView,
  kAlterTable,
  kInsert,
  kDelete,
  kUpdate,
  kMerge,
  kCall,
  kGrant,
  kRevoke,
  kCreateRole,
  kDropRole,
  kSetRole,
  kCreateSecret,
  kDropSecret,
  kAttach,
  kDetach,
  kStartTransaction,
  kCommit,
  kRollback,
  kComment,
  kAnalyze,
};

/// Trino's name of a statement kind: "SELECT", "CREATE TABLE", "SHOW TABLES", ...
const char* StatementKindName(StatementKind kind);

/// The base of every statement; the derived struct is chosen by `kind`.
struct Statement {
  explicit Statement(StatementKind k) : kind(k) {}
  virtual ~Statement() = default;
  StatementKind kind;
  SourcePosition pos;
  /// The statement's own SQL text (without the trailing ';'), for PREPARE and logs.
  std::string text;
};
using StatementPtr = std::shared_ptr<Statement>;

/// `name = value` in WITH (...) property lists, SET PROPERTIES, secret/attach options and
/// Spark's TBLPROPERTIES ('k' = 'v') (then `name` is the string's text).
struct Property {
  SourcePosition pos;
  std::string name;
  bool quoted = false;
  ExprPtr value;
};

struct QueryStatement : Statement {
  QueryStatement() : Statement(StatementKind::kQuery) {}
  QueryPtr query;
};

struct ExplainOption {
  std::string name;   ///< "TYPE" or "FORMAT" (upper-case)
  std::string value;  ///< "DISTRIBUTED", "LOGICAL", "IO", "VALIDATE", "TEXT", "JSON", ...
};

struct ExplainStatement : Statement {
  ExplainStatement() : Statement(StatementKind::kExplain) {}
  bool analyze = false;
  bool verbose = false;
  std::vector<ExplainOption> options;
  StatementPtr statement;
};

/// LIKE 'pattern' [ESCAPE 'c'] of the SHOW statements.
struct LikeFilter {
  std::optional<std::string> pattern;
  std::optional<std::string> escape;
};

/// SHOW CATALOGS / SHOW FUNCTIONS / SHOW SESSION, each with an optional LIKE.
struct ShowStatement : Statement {
  explicit ShowStatement(StatementKind k) : Statement(k) {}
  /// SHOW SCHEMAS FROM catalog, SHOW TABLES FROM schema, SHOW COLUMNS FROM table,
  /// SHOW CREATE TABLE|VIEW name, SHOW STATS FOR table (empty when absent).
  QualifiedName target;
  LikeFilter like;
  QueryPtr query;  ///< SHOW STATS FOR (query)
};

struct UseStatement : Statement {
  UseStatement() : Statement(StatementKind::kUse) {}
  /// USE catalog.schema (catalog set) or USE schema.
  std::optional<std::string> catalog;
  std::string schema;
};

struct SetSessionStatement : Statement {
  SetSessionStatement() : Statement(StatementKind::kSetSession) {}
  QualifiedName name;  ///< property or catalog.property
  ExprPtr value;
};

struct ResetSessionStatement : Statement {
  ResetSessionStatement() : Statement(StatementKind::kResetSession) {}
  QualifiedName name;
};

struct PrepareStatement : Statement {
  PrepareStatement() : Statement(StatementKind::kPrepare) {}
  std::string name;
  StatementPtr statement;
};

struct ExecuteStatement : Statement {
  ExecuteStatement() : Statement(StatementKind::kExecute) {}
  std::string name;
  std::vector<ExprPtr> parameters;
};

struct ExecuteImmediateStatement : Statement {
  ExecuteImmediateStatement() : Statement(StatementKind::kExecuteImmediate) {}
  std::string sql;
  SourcePosition sql_pos;  ///< where the string literal starts
  std::vector<ExprPtr> parameters;
};

/// DEALLOCATE PREPARE name, DESCRIBE INPUT name, DESCRIBE OUTPUT name.
struct PreparedNameStatement : Statement {
  explicit PreparedNameStatement(StatementKind k) : Statement(k) {}
  std::string name;
};

struct CreateSchemaStatement : Statement {
  CreateSchemaStatement() : Statement(StatementKind::kCreateSchema) {}
  QualifiedName name;
  bool if_not_exists = false;
  std::vector<Property> properties;
};

struct DropSchemaStatement : Statement {
  DropSchemaStatement() : Statement(StatementKind::kDropSchema) {}
  QualifiedName name;
  bool if_exists = false;
  bool cascade = false;
};

struct ColumnDefinition {
  SourcePosition pos;
  std::string name;
  bool quoted = false;
  TypeName type;
  bool not_null = false;
  std::optional<std::string> comment;
  std::vector<Property> properties;
};

/// CREATE TABLE t (..., LIKE other [INCLUDING|EXCLUDING PROPERTIES]).
struct LikeClause {
  QualifiedName table;
  std::optional<bool> including_properties;
};

struct CreateTableStatement : Statement {
  CreateTableStatement() : Statement(StatementKind::kCreateTable) {}
  QualifiedName name;
  bool if_not_exists = false;
  bool or_replace = false;
  std::vector<ColumnDefinition> columns;
  std::vector<LikeClause> likes;
  std::optional<std::string> comment;
  std::vector<Property> properties;
  /// Spark/Hive PARTITIONED BY (day(ts), bucket(16, id), region).
  std::vector<ExprPtr> partitioned_by;
};

struct CreateTableAsSelectStatement : Statement {
  CreateTableAsSelectStatement() : Statement(StatementKind::kCreateTableAsSelect) {}
  QualifiedName name;
  bool if_not_exists = false;
  bool or_replace = false;
  std::vector<std::string> column_aliases;
  std::optional<std::string> comment;
  std::vector<Property> properties;
  std::vector<ExprPtr> partitioned_by;
  QueryPtr query;
  bool with_data = true;  ///< false for WITH NO DATA
};

/// DROP TABLE / DROP VIEW.
struct DropObjectStatement : Statement {
  explicit DropObjectStatement(StatementKind k) : Statement(k) {}
  QualifiedName name;
  bool if_exists = false;
};

struct CreateViewStatement : Statement {
  CreateViewStatement() : Statement(StatementKind::kCreateView) {}
  QualifiedName name;
  bool or_replace = false;
  std::optional<std::string> comment;
  std::optional<std::string> security;  ///< "DEFINER" / "INVOKER"
  QueryPtr query;
};

enum class AlterTableAction : uint8_t {
  kRenameTable,       ///< RENAME TO new_name
  kAddColumn,         ///< ADD COLUMN [IF NOT EXISTS] column
  kDropColumn,        ///< DROP COLUMN [IF EXISTS] column_name
  kRenameColumn,      ///< RENAME COLUMN [IF EXISTS] column_name TO new_column_name
  kSetColumnType,     ///< ALTER COLUMN column_name SET DATA TYPE type
  kDropNotNull,       ///< ALTER COLUMN column_name DROP NOT NULL
  kSetProperties,     ///< SET PROPERTIES x = v, ...
  kSetTblProperties,  ///< SET TBLPROPERTIES ('k' = 'v', ...) (Spark)
  kExecute,           ///< EXECUTE procedure [(args)] [WHERE where]
};

struct AlterTableStatement : Statement {
  AlterTableStatement() : Statement(StatementKind::kAlterTable) {}
  QualifiedName name;
  bool if_exists = false;  ///< ALTER TABLE IF EXISTS
  AlterTableAction action = AlterTableAction::kRenameTable;
  QualifiedName new_name;
  ColumnDefinition column;
  QualifiedName column_name;  ///< may be nested: a.b
  std::string new_column_name;
  bool column_if_exists = false;      ///< DROP/RENAME COLUMN IF EXISTS
  bool column_if_not_exists = false;  ///< ADD COLUMN IF NOT EXISTS
  TypeName type;
  std::vector<Property> properties;
  std::string procedure;
  std::vector<ExprPtr> args;  ///< EXECUTE arguments (kNamedArgument allowed)
  ExprPtr where;
};

struct InsertStatement : Statement {
  InsertStatement() : Statement(StatementKind::kInsert) {}
  QualifiedName table;
  std::vector<std::string> columns;  ///< empty = all, in table order
  QueryPtr query;                    ///< SELECT ... or VALUES ...
};

struct DeleteStatement : Statement {
  DeleteStatement() : Statement(StatementKind::kDelete) {}
  QualifiedName table;
  std::optional<std::string> alias;
  ExprPtr where;
};

struct Assignment {
  SourcePosition pos;
  QualifiedName column;
  ExprPtr value;
};

struct UpdateStatement : Statement {
  UpdateStatement() : Statement(StatementKind::kUpdate) {}
  QualifiedName table;
  std::optional<std::string> alias;
  std::vector<Assignment> assignments;
  ExprPtr where;
};

enum class MergeAction : uint8_t { kUpdate, kDelete, kInsert };

/// WHEN [NOT] MATCHED [AND condition] THEN UPDATE SET ... | DELETE | INSERT [(cols)] VALUES.
struct MergeClause {
  SourcePosition pos;
  bool matched = true;
  ExprPtr condition;
  MergeAction action = MergeAction::kUpdate;
  std::vector<Assignment> assignments;      ///< kUpdate
  std::vector<std::string> insert_columns;  ///< kInsert, empty = all
  std::vector<ExprPtr> insert_values;       ///< kInsert
};

struct MergeStatement : Statement {
  MergeStatement() : Statement(StatementKind::kMerge) {}
  QualifiedName target;
  std::optional<std::string> target_alias;
  RelationPtr source;  ///< carries its own alias
  ExprPtr on;
  std::vector<MergeClause> clauses;
};

struct CallStatement : Statement {
  CallStatement() : Statement(StatementKind::kCall) {}
  QualifiedName procedure;
  std::vector<ExprPtr> args;  ///< positional, or kNamedArgument for `name => value`
};

enum class PrincipalKind : uint8_t { kUnspecified, kUser, kRole };

struct Principal {
  PrincipalKind kind = PrincipalKind::kUnspecified;
  std::string name;
};

/// GRANT privileges ON [TABLE|SCHEMA] name TO principal [WITH GRANT OPTION], and REVOKE
/// [GRANT OPTION FOR] privileges ON ... FROM principal.
struct GrantStatement : Statement {
  explicit GrantStatement(StatementKind k) : Statement(k) {}
  std::vector<std::string> privileges;  ///< upper-case: SELECT, INSERT, ...; empty when all
  bool all_privileges = false;
  std::string object_kind;  ///< "TABLE", "SCHEMA" or "" when not written
  QualifiedName object;
  Principal principal;
  bool grant_option = false;  ///< WITH GRANT OPTION / REVOKE GRANT OPTION FOR
};

/// CREATE ROLE name, DROP ROLE [IF EXISTS] name, SET ROLE ALL|NONE|name [IN catalog].
struct RoleStatement : Statement {
  explicit RoleStatement(StatementKind k) : Statement(k) {}
  std::string name;  ///< for SET ROLE: the role, or "ALL" / "NONE" (with is_all / is_none)
  bool is_all = false;
  bool is_none = false;
  bool if_exists = false;
  std::optional<std::string> catalog;
};

enum class SecretPersistence : uint8_t { kDefault, kPersistent, kTemporary };

/// DuckDB's secrets: CREATE [OR REPLACE] [PERSISTENT|TEMPORARY] SECRET [IF NOT EXISTS] name
/// (TYPE s3, KEY_ID 'x', ...), and DROP [PERSISTENT|TEMPORARY] SECRET [IF EXISTS] name.
struct SecretStatement : Statement {
  explicit SecretStatement(StatementKind k) : Statement(k) {}
  std::string name;
  bool or_replace = false;
  bool if_not_exists = false;
  bool if_exists = false;
  SecretPersistence persistence = SecretPersistence::kDefault;
  /// Options in order, names lower-cased (TYPE -> "type", KEY_ID -> "key_id").
  std::vector<Property> options;
};

/// ATTACH [DATABASE] [IF NOT EXISTS] 'path' [AS name] [(TYPE iceberg, ...)] and
/// DETACH [DATABASE] [IF EXISTS] name.
struct AttachStatement : Statement {
  explicit AttachStatement(StatementKind k) : Statement(k) {}
  std::string path;
  std::string name;
  bool if_not_exists = false;
  bool if_exists = false;
  std::vector<Property> options;  ///< option names lower-case
};

/// START TRANSACTION [modes], COMMIT [WORK], ROLLBACK [WORK].
struct TransactionStatement : Statement {
  explicit TransactionStatement(StatementKind k) : Statement(k) {}
  std::optional<std::string> isolation_level;  ///< "READ COMMITTED", "SERIALIZABLE", ...
  std::optional<bool> read_only;
};

struct CommentStatement : Statement {
  CommentStatement() : Statement(StatementKind::kComment) {}
  std::string object_kind;  ///< "TABLE", "VIEW", "COLUMN" or "SCHEMA"
  QualifiedName name;
  std::optional<std::string> comment;  ///< nullopt for IS NULL
};

struct AnalyzeStatement : Statement {
  AnalyzeStatement() : Statement(StatementKind::kAnalyze) {}
  QualifiedName table;
  std::vector<Property> properties;
};

}  // namespace sqe::sql::ast
