// Printing of AST nodes: fully parenthesized expressions and SQL-like queries, so tests and
// debug logs can see the tree's structure in one line.
#include "sql/ast.h"

#include <cctype>

#include "common/hex.h"

namespace sqe::sql::ast {
namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Quote(std::string_view text, char quote) {
  std::string out(1, quote);
  for (char c : text) {
    out.push_back(c);
    if (c == quote) out.push_back(c);
  }
  out.push_back(quote);
  return out;
}

std::string Identifier(const std::string& name, bool quoted) {
  return quoted ? Quote(name, '"') : name;
}

std::string Str(const ExprPtr& e) { return e ? e->ToString() : "<null>"; }

std::string List(const std::vector<ExprPtr>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += Str(items[i]);
  }
  return out;
}

std::string Names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  return out;
}

std::string SortList(const std::vector<SortItem>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += Str(items[i].expr);
    if (!items[i].ascending) out += " DESC";
    if (items[i].nulls == NullOrdering::kFirst) out += " NULLS FIRST";
    if (items[i].nulls == NullOrdering::kLast) out += " NULLS LAST";
  }
  return out;
}

std::string Bound(const FrameBound& b) {
  switch (b.kind) {
    case FrameBoundKind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case FrameBoundKind::kPreceding:
      return Str(b.offset) + " PRECEDING";
    case FrameBoundKind::kCurrentRow:
      return "CURRENT ROW";
    case FrameBoundKind::kFollowing:
      return Str(b.offset) + " FOLLOWING";
    case FrameBoundKind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
  }
  return "";
}

std::string Window(const WindowSpec& w) {
  std::vector<std::string> parts;
  if (!w.existing_name.empty()) parts.push_back(w.existing_name);
  if (!w.partition_by.empty()) parts.push_back("PARTITION BY " + List(w.partition_by));
  if (!w.order_by.empty()) parts.push_back("ORDER BY " + SortList(w.order_by));
  if (w.frame) {
    std::string f = w.frame->type == FrameType::kRows    ? "ROWS "
                    : w.frame->type == FrameType::kRange ? "RANGE "
                                                         : "GROUPS ";
    if (w.frame->end) {
      f += "BETWEEN " + Bound(w.frame->start) + " AND " + Bound(*w.frame->end);
    } else {
      f += Bound(w.frame->start);
    }
    parts.push_back(f);
  }
  std::string out = "(";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += " ";
    out += parts[i];
  }
  return out + ")";
}

std::string BodyString(const QueryBody& body);

std::string SelectString(const Select& s) {
  std::string out = "SELECT ";
  if (s.distinct) out += "DISTINCT ";
  for (size_t i = 0; i < s.items.size(); ++i) {
    if (i > 0) out += ", ";
    out += Str(s.items[i].expr);
    if (s.items[i].alias) out += " AS " + Identifier(*s.items[i].alias, s.items[i].alias_quoted);
  }
  if (!s.from.empty()) {
    out += " FROM ";
    for (size_t i = 0; i < s.from.size(); ++i) {
      if (i > 0) out += ", ";
      out += s.from[i]->ToString();
    }
  }
  if (s.where) out += " WHERE " + Str(s.where);
  if (!s.group_by.empty()) {
    out += " GROUP BY ";
    if (s.group_by.distinct) out += "DISTINCT ";
    for (size_t i = 0; i < s.group_by.elements.size(); ++i) {
      const GroupingElement& g = s.group_by.elements[i];
      if (i > 0) out += ", ";
      if (g.kind == GroupingKind::kSimple) {
        out += g.exprs.size() == 1 ? Str(g.exprs[0]) : "(" + List(g.exprs) + ")";
        continue;
      }
      out += g.kind == GroupingKind::kRollup ? "ROLLUP ("
             : g.kind == GroupingKind::kCube ? "CUBE ("
                                             : "GROUPING SETS (";
      for (size_t j = 0; j < g.sets.size(); ++j) {
        if (j > 0) out += ", ";
        out += "(" + List(g.sets[j]) + ")";
      }
      out += ")";
    }
  }
  if (s.having) out += " HAVING " + Str(s.having);
  for (size_t i = 0; i < s.windows.size(); ++i) {
    out += (i == 0 ? " WINDOW " : ", ") + s.windows[i].name + " AS " + Window(s.windows[i].spec);
  }
  return out;
}

std::string BodyString(const QueryBody& body) {
  switch (body.kind) {
    case QueryBodyKind::kSelect:
      return SelectString(*body.select);
    case QueryBodyKind::kSetOperation: {
      const char* op = body.set_op == SetOpKind::kUnion       ? " UNION "
                       : body.set_op == SetOpKind::kIntersect ? " INTERSECT "
                                                              : " EXCEPT ";
      return "(" + BodyString(*body.left) + op + (body.set_distinct ? "" : "ALL ") +
             BodyString(*body.right) + ")";
    }
    case QueryBodyKind::kValues: {
      std::string out = "VALUES ";
      for (size_t i = 0; i < body.rows.size(); ++i) {
        if (i > 0) out += ", ";
        out += "(" + List(body.rows[i]) + ")";
      }
      return out;
    }
    case QueryBodyKind::kTable:
      return "TABLE " + body.table.ToString();
    case QueryBodyKind::kQuery:
      return "(" + body.query->ToString() + ")";
  }
  return "";
}

}  // namespace

std::string QualifiedName::ToString() const {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += ".";
    out += Identifier(parts[i], i < quoted.size() && quoted[i]);
  }
  return out;
}

std::string TypeName::ToString() const {
  std::string out = base;
  if (!numeric_params.empty() || !type_params.empty()) {
    out += "(";
    bool first = true;
    for (int64_t n : numeric_params) {
      if (!first) out += ",";
      out += std::to_string(n);
      first = false;
    }
    for (size_t i = 0; i < type_params.size(); ++i) {
      if (!first) out += base == "row" ? ", " : ",";
      if (i < field_names.size() && !field_names[i].empty()) out += field_names[i] + " ";
      out += type_params[i].ToString();
      first = false;
    }
    out += ")";
  }
  if (with_time_zone) out += " with time zone";
  return out;
}

// Each case of Expr::ToString below builds its text in a lambda with a frame of its own:
// with every case's temporaries in one frame, a level of a deep tree took about 12 KB of
// stack under ASan, and a chain of 760 terms (which the parser accepts) overflowed 8 MB.
#define SQE_OWN_FRAME __attribute__((noinline))

std::string Expr::ToString() const {
  const std::string neg = negated ? "NOT " : "";
  switch (kind) {
    case ExprKind::kIdentifier:
      return name.ToString();
    case ExprKind::kDereference:
      return [&]() SQE_OWN_FRAME -> std::string { return Str(left) + "." + text; }();
    case ExprKind::kLiteral:
      switch (literal_kind) {
        case LiteralKind::kNull:
          return "NULL";
        case LiteralKind::kString:
          return Quote(text, '\'');
        case LiteralKind::kBinary: {
          return "X'" + HexUpper(text) + "'";
        }
        default:
          return text;
      }
    case ExprKind::kTypedLiteral:
      return [&]() SQE_OWN_FRAME -> std::string {
        return Upper(type.ToString()) + " " + Quote(text, '\'');
      }();
    case ExprKind::kIntervalLiteral:
      return [&]() SQE_OWN_FRAME -> std::string {
        return std::string("INTERVAL ") + (negated ? "-" : "") + Quote(text, '\'') + " " +
               interval_from + (interval_to.empty() ? "" : " TO " + interval_to);
      }();
    case ExprKind::kParameter:
      return "?";
    case ExprKind::kStar:
      return [&]() SQE_OWN_FRAME -> std::string {
        return name.empty() ? "*" : name.ToString() + ".*";
      }();
    case ExprKind::kUnary:
      return [&]() SQE_OWN_FRAME -> std::string { return "(" + op + Str(left) + ")"; }();
    case ExprKind::kNot:
      return [&]() SQE_OWN_FRAME -> std::string { return "(NOT " + Str(left) + ")"; }();
    case ExprKind::kBinary:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Str(left) + " " + op + " " + Str(right) + ")";
      }();
    case ExprKind::kBetween:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Str(left) + " " + neg + "BETWEEN " + Str(low) + " AND " + Str(high) + ")";
      }();
    case ExprKind::kInList:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Str(left) + " " + neg + "IN (" + List(args) + "))";
      }();
    case ExprKind::kInSubquery:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Str(left) + " " + neg + "IN (" + subquery->ToString() + "))";
      }();
    case ExprKind::kExists:
      return [&]()
                 SQE_OWN_FRAME -> std::string { return "EXISTS (" + subquery->ToString() + ")"; }();
    case ExprKind::kScalarSubquery:
      return [&]() SQE_OWN_FRAME -> std::string { return "(" + subquery->ToString() + ")"; }();
    case ExprKind::kQuantified:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Str(left) + " " + op + " " + quantifier + " (" + subquery->ToString() + "))";
      }();
    case ExprKind::kLike:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Str(left) + " " + neg + (ilike ? "ILIKE " : "LIKE ") + Str(right) +
               (escape ? " ESCAPE " + Str(escape) : "") + ")";
      }();
    case ExprKind::kIsNull:
      return
          [&]() SQE_OWN_FRAME -> std::string { return "(" + Str(left) + " IS " + neg + "NULL)"; }();
    case ExprKind::kIsDistinctFrom:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Str(left) + " IS " + neg + "DISTINCT FROM " + Str(right) + ")";
      }();
    case ExprKind::kCase: {
      return [&]() SQE_OWN_FRAME -> std::string {
        std::string out = "CASE";
        if (left) out += " " + Str(left);
        for (const WhenClause& w : when_clauses) {
          out += " WHEN " + Str(w.when) + " THEN " + Str(w.then);
        }
        if (else_result) out += " ELSE " + Str(else_result);
        return out + " END";
      }();
    }
    case ExprKind::kCast:
      return [&]() SQE_OWN_FRAME -> std::string {
        return std::string(try_cast ? "TRY_CAST(" : "CAST(") + Str(left) + " AS " +
               type.ToString() + ")";
      }();
    case ExprKind::kFunctionCall: {
      return [&]() SQE_OWN_FRAME -> std::string {
        std::string out = name.ToString() + "(";
        if (count_star) out += "*";
        if (distinct) out += "DISTINCT ";
        out += List(args);
        if (!order_by.empty()) out += " ORDER BY " + SortList(order_by);
        out += ")";
        if (filter) out += " FILTER (WHERE " + Str(filter) + ")";
        if (null_treatment == NullTreatment::kIgnoreNulls) out += " IGNORE NULLS";
        if (null_treatment == NullTreatment::kRespectNulls) out += " RESPECT NULLS";
        if (window) {
          const bool reference = window->partition_by.empty() && window->order_by.empty() &&
                                 !window->frame && !window->existing_name.empty();
          out += " OVER " + (reference ? window->existing_name : Window(*window));
        }
        return out;
      }();
    }
    case ExprKind::kExtract:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "EXTRACT(" + Upper(text) + " FROM " + Str(left) + ")";
      }();
    case ExprKind::kSubscript:
      return [&]() SQE_OWN_FRAME -> std::string { return Str(left) + "[" + Str(right) + "]"; }();
    case ExprKind::kArray:
      return [&]() SQE_OWN_FRAME -> std::string { return "ARRAY[" + List(args) + "]"; }();
    case ExprKind::kRow:
      return [&]() SQE_OWN_FRAME -> std::string { return "ROW(" + List(args) + ")"; }();
    case ExprKind::kLambda:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Names(lambda_params) + ") -> " + Str(left);
      }();
    case ExprKind::kAtTimeZone:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "(" + Str(left) + " AT TIME ZONE " + Str(right) + ")";
      }();
    case ExprKind::kSpecial:
      return [&]() SQE_OWN_FRAME -> std::string {
        return Upper(text) + (args.empty() ? "" : "(" + List(args) + ")");
      }();
    case ExprKind::kPosition:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "POSITION(" + Str(args[0]) + " IN " + Str(args[1]) + ")";
      }();
    case ExprKind::kSubstring:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "SUBSTRING(" + Str(args[0]) + " FROM " + Str(args[1]) +
               (args.size() > 2 ? " FOR " + Str(args[2]) : "") + ")";
      }();
    case ExprKind::kTrim:
      return [&]() SQE_OWN_FRAME -> std::string {
        return "TRIM(" + Upper(text) + (args.size() > 1 ? " " + Str(args[1]) : "") + " FROM " +
               Str(args[0]) + ")";
      }();
    case ExprKind::kNamedArgument:
      return [&]() SQE_OWN_FRAME -> std::string { return text + " => " + Str(left); }();
  }
  return "?";
}

std::string Query::ToString() const {
  std::string out;
  if (with) {
    out += with->recursive ? "WITH RECURSIVE " : "WITH ";
    for (size_t i = 0; i < with->queries.size(); ++i) {
      const WithQuery& w = with->queries[i];
      if (i > 0) out += ", ";
      out += Identifier(w.name, w.quoted);
      if (!w.column_aliases.empty()) out += " (" + Names(w.column_aliases) + ")";
      out += " AS (" + w.query->ToString() + ")";
    }
    out += " ";
  }
  out += BodyString(*body);
  if (!order_by.empty()) out += " ORDER BY " + SortList(order_by);
  if (offset) out += " OFFSET " + Str(offset);
  if (limit) {
    out += with_ties ? " FETCH FIRST " + Str(limit) + " ROWS WITH TIES" : " LIMIT " + Str(limit);
  }
  return out;
}

std::string Relation::ToString() const {
  std::string out;
  switch (kind) {
    case RelationKind::kTable:
      out = name.ToString();
      if (time_travel == TimeTravelKind::kVersion)
        out += " FOR VERSION AS OF " + Str(time_travel_expr);
      if (time_travel == TimeTravelKind::kTimestamp) {
        out += " FOR TIMESTAMP AS OF " + Str(time_travel_expr);
      }
      break;
    case RelationKind::kSubquery:
      out = std::string(lateral ? "LATERAL (" : "(") + subquery->ToString() + ")";
      break;
    case RelationKind::kJoin: {
      const char* kinds[] = {" JOIN ", " LEFT JOIN ", " RIGHT JOIN ", " FULL JOIN ",
                             " CROSS JOIN "};
      out = "(" + left->ToString() + (natural ? " NATURAL" : "") +
            kinds[static_cast<int>(join_kind)] + right->ToString();
      if (on) out += " ON " + Str(on);
      if (!using_columns.empty()) out += " USING (" + Names(using_columns) + ")";
      out += ")";
      break;
    }
    case RelationKind::kTableFunction:
      out = name.ToString() + "(" + List(args) + ")";
      break;
    case RelationKind::kUnnest:
      out = "UNNEST(" + List(args) + ")" + (with_ordinality ? " WITH ORDINALITY" : "");
      break;
  }
  if (alias) out += " AS " + Identifier(*alias, alias_quoted);
  if (!column_aliases.empty()) out += " (" + Names(column_aliases) + ")";
  if (!sample_method.empty()) {
    out += " TABLESAMPLE " + sample_method + " (" + Str(sample_percentage) + ")";
  }
  return out;
}

const char* StatementKindName(StatementKind kind) {
  switch (kind) {
    case StatementKind::kQuery:
      return "SELECT";
    case StatementKind::kExplain:
      return "EXPLAIN";
    case StatementKind::kShowCatalogs:
      return "SHOW CATALOGS";
    case StatementKind::kShowSchemas:
      return "SHOW SCHEMAS";
    case StatementKind::kShowTables:
      return "SHOW TABLES";
    case StatementKind::kShowColumns:
      return "SHOW COLUMNS";
    case StatementKind::kShowCreateTable:
      return "SHOW CREATE TABLE";
    case StatementKind::kShowCreateView:
      return "SHOW CREATE VIEW";
    case StatementKind::kShowFunctions:
      return "SHOW FUNCTIONS";
    case StatementKind::kShowSession:
      return "SHOW SESSION";
    case StatementKind::kShowStats:
      return "SHOW STATS";
    case StatementKind::kUse:
      return "USE";
    case StatementKind::kSetSession:
      return "SET SESSION";
    case StatementKind::kResetSession:
      return "RESET SESSION";
    case StatementKind::kPrepare:
      return "PREPARE";
    case StatementKind::kExecute:
      return "EXECUTE";
    case StatementKind::kExecuteImmediate:
      return "EXECUTE IMMEDIATE";
    case StatementKind::kDeallocate:
      return "DEALLOCATE";
    case StatementKind::kDescribeInput:
      return "DESCRIBE INPUT";
    case StatementKind::kDescribeOutput:
      return "DESCRIBE OUTPUT";
    case StatementKind::kCreateSchema:
      return "CREATE SCHEMA";
    case StatementKind::kDropSchema:
      return "DROP SCHEMA";
    case StatementKind::kCreateTable:
      return "CREATE TABLE";
    case StatementKind::kCreateTableAsSelect:
      return "CREATE TABLE AS SELECT";
    case StatementKind::kDropTable:
      return "DROP TABLE";
    case StatementKind::kCreateView:
      return "CREATE VIEW";
    case StatementKind::kDropView:
      return "DROP VIEW";
    case StatementKind::kAlterTable:
      return "ALTER TABLE";
    case StatementKind::kInsert:
      return "INSERT";
    case StatementKind::kDelete:
      return "DELETE";
    case StatementKind::kUpdate:
      return "UPDATE";
    case StatementKind::kMerge:
      return "MERGE";
    case StatementKind::kCall:
      return "CALL";
    case StatementKind::kGrant:
      return "GRANT";
    case StatementKind::kRevoke:
      return "REVOKE";
    case StatementKind::kCreateRole:
      return "CREATE ROLE";
    case StatementKind::kDropRole:
      return "DROP ROLE";
    case StatementKind::kSetRole:
      return "SET ROLE";
    case StatementKind::kCreateSecret:
      return "CREATE SECRET";
    case StatementKind::kDropSecret:
      return "DROP SECRET";
    case StatementKind::kAttach:
      return "ATTACH";
    case StatementKind::kDetach:
      return "DETACH";
    case StatementKind::kStartTransaction:
      return "START TRANSACTION";
    case StatementKind::kCommit:
      return "COMMIT";
    case StatementKind::kRollback:
      return "ROLLBACK";
    case StatementKind::kComment:
      return "COMMENT";
    case StatementKind::kAnalyze:
      return "ANALYZE";
  }
  return "UNKNOWN";
}

}  // namespace sqe::sql::ast
