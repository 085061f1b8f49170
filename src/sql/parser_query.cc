// Queries: WITH, set operations (INTERSECT binds tighter than UNION / EXCEPT), SELECT with
// its clauses, VALUES, TABLE t, ORDER BY / OFFSET / LIMIT / FETCH, and the FROM relations.
#include <algorithm>

#include "sql/parser_internal.h"

namespace sqe::sql {
namespace {

// Non-reserved words that follow a select item or a relation as clause keywords, so they
// never start an implicit alias.
constexpr std::string_view kNotImplicitAlias[] = {
    "limit", "offset", "fetch", "window", "set", "tablesample", "match_recognize", "for"};

}  // namespace

bool Parser::CanStartImplicitAlias() const {
  if (!IsIdentifier()) return false;
  const Token& t = Current();
  if (t.kind == TokenKind::kQuotedIdentifier) return true;
  return std::none_of(std::begin(kNotImplicitAlias), std::end(kNotImplicitAlias),
                      [&](std::string_view w) { return t.IsKeyword(w); });
}

Result<ast::QueryPtr> Parser::ParseQuery() {
  DepthGuard guard(&depth_);
  SQE_RETURN_NOT_OK(CheckNesting());
  auto q = std::make_shared<ast::Query>();
  q->pos = Current().position;
  if (Accept("with")) {
    ast::With with;
    with.recursive = Accept("recursive");
    do {
      ast::WithQuery wq;
      wq.pos = Current().position;
      SQE_ASSIGN_OR_RETURN(wq.name, ParseIdentifier(&wq.quoted));
      if (IsOp("(")) {
        SQE_ASSIGN_OR_RETURN(wq.column_aliases, ParseIdentifierList());
      }
      SQE_RETURN_NOT_OK(Expect("as"));
      SQE_RETURN_NOT_OK(ExpectOp("("));
      SQE_ASSIGN_OR_RETURN(wq.query, ParseQuery());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
      with.queries.push_back(std::move(wq));
    } while (AcceptOp(","));
    q->with = std::move(with);
  }
  SQE_ASSIGN_OR_RETURN(q->body, ParseQueryTerm());
  if (Is("order")) {
    Advance();
    SQE_RETURN_NOT_OK(Expect("by"));
    SQE_ASSIGN_OR_RETURN(q->order_by, ParseSortItems());
  }
  auto parse_offset = [&]() -> Status {
    SQE_ASSIGN_OR_RETURN(q->offset, ParseValueExpr());
    if (!Accept("rows")) Accept("row");
    return Status::OK();
  };
  if (Accept("offset")) SQE_RETURN_NOT_OK(parse_offset());
  if (Accept("limit")) {
    if (!Accept("all")) {
      SQE_ASSIGN_OR_RETURN(q->limit, ParseValueExpr());
    }
    // LIMIT n OFFSET m, as PostgreSQL and DuckDB write it.
    if (!q->offset && Accept("offset")) SQE_RETURN_NOT_OK(parse_offset());
  } else if (Is("fetch")) {
    const SourcePosition fetch_pos = Current().position;
    Advance();
    if (!Accept("first")) SQE_RETURN_NOT_OK(Expect("next"));
    if (!Is("row") && !Is("rows")) {
      SQE_ASSIGN_OR_RETURN(q->limit, ParseValueExpr());
    } else {
      auto one = std::make_shared<ast::Expr>();
      one->kind = ast::ExprKind::kLiteral;
      one->literal_kind = ast::LiteralKind::kInteger;
      one->text = "1";
      one->pos = fetch_pos;
      q->limit = std::move(one);
    }
    if (!Accept("rows")) SQE_RETURN_NOT_OK(Expect("row"));
    if (!Accept("only")) {
      SQE_RETURN_NOT_OK(Expect("with"));
      SQE_RETURN_NOT_OK(Expect("ties"));
      q->with_ties = true;
    }
  }
  return q;
}

Result<ast::QueryBodyPtr> Parser::ParseQueryTerm() {
  SQE_ASSIGN_OR_RETURN(ast::QueryBodyPtr left, ParseIntersectTerm());
  for (size_t links = 1; Is("union") || Is("except"); ++links) {
    SQE_RETURN_NOT_OK(CheckChain(links));
    auto body = std::make_shared<ast::QueryBody>();
    body->kind = ast::QueryBodyKind::kSetOperation;
    body->pos = left->pos;
    body->set_op = Current().IsKeyword("union") ? ast::SetOpKind::kUnion : ast::SetOpKind::kExcept;
    Advance();
    if (Accept("all")) {
      body->set_distinct = false;
    } else {
      Accept("distinct");
    }
    body->left = std::move(left);
    SQE_ASSIGN_OR_RETURN(body->right, ParseIntersectTerm());
    left = std::move(body);
  }
  return left;
}

Result<ast::QueryBodyPtr> Parser::ParseIntersectTerm() {
  SQE_ASSIGN_OR_RETURN(ast::QueryBodyPtr left, ParseQueryPrimary());
  for (size_t links = 1; Is("intersect"); ++links) {
    SQE_RETURN_NOT_OK(CheckChain(links));
    auto body = std::make_shared<ast::QueryBody>();
    body->kind = ast::QueryBodyKind::kSetOperation;
    body->pos = left->pos;
    body->set_op = ast::SetOpKind::kIntersect;
    Advance();
    if (Accept("all")) {
      body->set_distinct = false;
    } else {
      Accept("distinct");
    }
    body->left = std::move(left);
    SQE_ASSIGN_OR_RETURN(body->right, ParseQueryPrimary());
    left = std::move(body);
  }
  return left;
}

Result<ast::QueryBodyPtr> Parser::ParseQueryPrimary() {
  auto body = std::make_shared<ast::QueryBody>();
  body->pos = Current().position;
  if (Is("select")) {
    body->kind = ast::QueryBodyKind::kSelect;
    SQE_ASSIGN_OR_RETURN(body->select, ParseSelect());
    return body;
  }
  if (Accept("values")) {
    body->kind = ast::QueryBodyKind::kValues;
    do {
      SQE_ASSIGN_OR_RETURN(ast::ExprPtr row, ParseExpr());
      if (row->kind == ast::ExprKind::kRow) {
        body->rows.push_back(row->args);
      } else {
        body->rows.push_back({std::move(row)});
      }
    } while (AcceptOp(","));
    return body;
  }
  if (Accept("table")) {
    body->kind = ast::QueryBodyKind::kTable;
    SQE_ASSIGN_OR_RETURN(body->table, ParseQualifiedName());
    return body;
  }
  if (AcceptOp("(")) {
    SQE_ASSIGN_OR_RETURN(ast::QueryPtr inner, ParseQuery());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    // A parenthesized plain body is just that body; keep a kQuery only when it has clauses
    // of its own.
    if (!inner->with && inner->order_by.empty() && !inner->limit && !inner->offset) {
      return inner->body;
    }
    body->kind = ast::QueryBodyKind::kQuery;
    body->query = std::move(inner);
    return body;
  }
  return Mismatch();
}

Result<ast::SelectItem> Parser::ParseSelectItem() {
  ast::SelectItem item;
  item.pos = Current().position;
  if (IsOp("*")) {
    item.expr = std::make_shared<ast::Expr>();
    item.expr->kind = ast::ExprKind::kStar;
    item.expr->pos = item.pos;
    Advance();
    return item;
  }
  SQE_ASSIGN_OR_RETURN(item.expr, ParseExpr());
  if (item.expr->kind == ast::ExprKind::kStar) return item;
  if (Accept("as")) {
    SQE_ASSIGN_OR_RETURN(std::string alias, ParseIdentifier(&item.alias_quoted));
    item.alias = std::move(alias);
  } else if (CanStartImplicitAlias()) {
    item.alias_quoted = Current().kind == TokenKind::kQuotedIdentifier;
    item.alias = Current().text;
    Advance();
  }
  return item;
}

Result<std::shared_ptr<ast::Select>> Parser::ParseSelect() {
  auto select = std::make_shared<ast::Select>();
  select->pos = Current().position;
  SQE_RETURN_NOT_OK(Expect("select"));
  if (Accept("distinct")) {
    select->distinct = true;
  } else {
    Accept("all");
  }
  do {
    SQE_ASSIGN_OR_RETURN(ast::SelectItem item, ParseSelectItem());
    select->items.push_back(std::move(item));
  } while (AcceptOp(","));
  if (Accept("from")) {
    do {
      SQE_ASSIGN_OR_RETURN(ast::RelationPtr relation, ParseRelation());
      select->from.push_back(std::move(relation));
    } while (AcceptOp(","));
  }
  if (Accept("where")) {
    SQE_ASSIGN_OR_RETURN(select->where, ParseExpr());
  }
  if (Is("group")) {
    SQE_ASSIGN_OR_RETURN(select->group_by, ParseGroupBy());
  }
  if (Accept("having")) {
    SQE_ASSIGN_OR_RETURN(select->having, ParseExpr());
  }
  if (Accept("window")) {
    do {
      ast::NamedWindow window;
      SQE_ASSIGN_OR_RETURN(window.name, ParseIdentifier());
      SQE_RETURN_NOT_OK(Expect("as"));
      SQE_RETURN_NOT_OK(ExpectOp("("));
      SQE_ASSIGN_OR_RETURN(window.spec, ParseWindowSpecBody());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
      select->windows.push_back(std::move(window));
    } while (AcceptOp(","));
  }
  return select;
}

Result<ast::GroupBy> Parser::ParseGroupBy() {
  ast::GroupBy group_by;
  SQE_RETURN_NOT_OK(Expect("group"));
  SQE_RETURN_NOT_OK(Expect("by"));
  if (Accept("distinct")) {
    group_by.distinct = true;
  } else {
    Accept("all");
  }
  // A grouping set: `()`, `(a, b)` or `a`.
  auto parse_set = [&]() -> Result<std::vector<ast::ExprPtr>> {
    if (IsOp("(") && IsOpAt(1, ")")) {
      Advance();
      Advance();
      return std::vector<ast::ExprPtr>{};
    }
    const bool parenthesized = IsOp("(");
    SQE_ASSIGN_OR_RETURN(ast::ExprPtr e, ParseExpr());
    if (parenthesized && e->kind == ast::ExprKind::kRow) return e->args;
    return std::vector<ast::ExprPtr>{std::move(e)};
  };
  do {
    ast::GroupingElement element;
    const bool rollup = Is("rollup") && IsOpAt(1, "(");
    const bool cube = Is("cube") && IsOpAt(1, "(");
    const bool sets = Is("grouping") && IsAt(1, "sets");
    if (rollup || cube || sets) {
      element.kind = rollup ? ast::GroupingKind::kRollup
                     : cube ? ast::GroupingKind::kCube
                            : ast::GroupingKind::kGroupingSets;
      Advance();
      if (sets) Advance();
      SQE_RETURN_NOT_OK(ExpectOp("("));
      if (!IsOp(")")) {
        do {
          SQE_ASSIGN_OR_RETURN(std::vector<ast::ExprPtr> set, parse_set());
          element.sets.push_back(std::move(set));
        } while (AcceptOp(","));
      }
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    } else {
      SQE_ASSIGN_OR_RETURN(element.exprs, parse_set());
    }
    group_by.elements.push_back(std::move(element));
  } while (AcceptOp(","));
  return group_by;
}

// ---------------------------------------------------------------------------------------
// Relations

Status Parser::ParseAlias(ast::Relation* relation) {
  if (Accept("as")) {
    SQE_ASSIGN_OR_RETURN(std::string alias, ParseIdentifier(&relation->alias_quoted));
    relation->alias = std::move(alias);
  } else if (CanStartImplicitAlias()) {
    relation->alias_quoted = Current().kind == TokenKind::kQuotedIdentifier;
    relation->alias = Current().text;
    Advance();
  } else {
    return Status::OK();
  }
  if (IsOp("(")) {
    SQE_ASSIGN_OR_RETURN(relation->column_aliases, ParseIdentifierList());
  }
  return Status::OK();
}

Result<ast::RelationPtr> Parser::ParseRelation() {
  SQE_ASSIGN_OR_RETURN(ast::RelationPtr left, ParseAliasedRelation());
  for (size_t links = 1;; ++links) {
    SQE_RETURN_NOT_OK(CheckChain(links));
    auto join = std::make_shared<ast::Relation>();
    join->kind = ast::RelationKind::kJoin;
    join->pos = left->pos;
    if (Is("cross") && IsAt(1, "join")) {
      Advance();
      Advance();
      join->join_kind = ast::JoinKind::kCross;
      join->left = std::move(left);
      SQE_ASSIGN_OR_RETURN(join->right, ParseAliasedRelation());
      left = std::move(join);
      continue;
    }
    join->natural = Accept("natural");
    if (Accept("inner")) {
      join->join_kind = ast::JoinKind::kInner;
    } else if (Is("left") || Is("right") || Is("full")) {
      join->join_kind = Current().IsKeyword("left")    ? ast::JoinKind::kLeft
                        : Current().IsKeyword("right") ? ast::JoinKind::kRight
                                                       : ast::JoinKind::kFull;
      Advance();
      Accept("outer");
    } else if (!Is("join")) {
      if (join->natural) return Mismatch();
      return left;
    }
    SQE_RETURN_NOT_OK(Expect("join"));
    join->left = std::move(left);
    SQE_ASSIGN_OR_RETURN(join->right, ParseAliasedRelation());
    if (!join->natural) {
      if (Accept("on")) {
        SQE_ASSIGN_OR_RETURN(join->on, ParseExpr());
      } else if (Accept("using")) {
        SQE_ASSIGN_OR_RETURN(join->using_columns, ParseIdentifierList());
      } else {
        return Mismatch();
      }
    }
    left = std::move(join);
  }
}

Result<ast::RelationPtr> Parser::ParseAliasedRelation() {
  SQE_ASSIGN_OR_RETURN(ast::RelationPtr relation, ParseRelationPrimary());
  SQE_RETURN_NOT_OK(ParseAlias(relation.get()));
  SQE_RETURN_NOT_OK(ParseTableSample(relation.get()));
  return relation;
}

Status Parser::ParseTableSample(ast::Relation* relation) {
  if (!Accept("tablesample")) return Status::OK();
  if (Is("bernoulli") || Is("system")) {
    relation->sample_method = Current().IsKeyword("bernoulli") ? "BERNOULLI" : "SYSTEM";
    Advance();
  } else {
    return Mismatch();
  }
  SQE_RETURN_NOT_OK(ExpectOp("("));
  SQE_ASSIGN_OR_RETURN(relation->sample_percentage, ParseExpr());
  return ExpectOp(")");
}

Result<ast::RelationPtr> Parser::ParseRelationPrimary() {
  DepthGuard guard(&depth_);
  SQE_RETURN_NOT_OK(CheckNesting());
  auto r = std::make_shared<ast::Relation>();
  r->pos = Current().position;
  if (Is("lateral") && IsOpAt(1, "(")) {
    Advance();
    Advance();
    r->kind = ast::RelationKind::kSubquery;
    r->lateral = true;
    SQE_ASSIGN_OR_RETURN(r->subquery, ParseQuery());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return r;
  }
  if (Is("unnest")) {
    Advance();
    SQE_RETURN_NOT_OK(ExpectOp("("));
    r->kind = ast::RelationKind::kUnnest;
    SQE_ASSIGN_OR_RETURN(r->args, ParseExprList());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    if (Is("with") && IsAt(1, "ordinality")) {
      Advance();
      Advance();
      r->with_ordinality = true;
    }
    return r;
  }
  if (Is("table") && IsOpAt(1, "(")) {
    // TABLE(fn(args))
    Advance();
    Advance();
    r->kind = ast::RelationKind::kTableFunction;
    SQE_ASSIGN_OR_RETURN(r->name, ParseQualifiedName());
    SQE_RETURN_NOT_OK(ExpectOp("("));
    if (!IsOp(")")) {
      do {
        SQE_ASSIGN_OR_RETURN(ast::ExprPtr arg, ParseArgument());
        r->args.push_back(std::move(arg));
      } while (AcceptOp(","));
    }
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return r;
  }
  if (IsOp("(")) {
    if (StartsQuery(1)) {
      Advance();
      r->kind = ast::RelationKind::kSubquery;
      SQE_ASSIGN_OR_RETURN(r->subquery, ParseQuery());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
      return r;
    }
    Status query_error;
    if (IsOpAt(1, "(")) {
      // "((" starts a parenthesized query or a parenthesized join: try the query first.
      const size_t save = index_;
      const int32_t save_parameter = next_parameter_;
      Advance();
      auto query = ParseQuery();
      if (query.ok() && IsOp(")")) {
        Advance();
        r->kind = ast::RelationKind::kSubquery;
        r->subquery = std::move(query).value();
        return r;
      }
      query_error = query.ok() ? Mismatch() : query.status();
      index_ = save;
      next_parameter_ = save_parameter;
    }
    Advance();
    auto inner = ParseRelation();
    if (inner.ok() && IsOp(")")) {
      Advance();
      return std::move(inner).value();
    }
    if (!query_error.ok()) return query_error;
    if (!inner.ok()) return inner.status();
    return Mismatch();
  }
  SQE_ASSIGN_OR_RETURN(r->name, ParseQualifiedName());
  if (IsOp("(")) {
    // read_parquet('x'), a table function called directly.
    Advance();
    r->kind = ast::RelationKind::kTableFunction;
    if (!IsOp(")")) {
      do {
        SQE_ASSIGN_OR_RETURN(ast::ExprPtr arg, ParseArgument());
        r->args.push_back(std::move(arg));
      } while (AcceptOp(","));
    }
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return r;
  }
  r->kind = ast::RelationKind::kTable;
  if (Is("for") && (IsAt(1, "version") || IsAt(1, "timestamp")) && IsAt(2, "as") && IsAt(3, "of")) {
    r->time_travel = Peek(1).IsKeyword("version") ? ast::TimeTravelKind::kVersion
                                                  : ast::TimeTravelKind::kTimestamp;
    for (int i = 0; i < 4; ++i) Advance();
    SQE_ASSIGN_OR_RETURN(r->time_travel_expr, ParseValueExpr());
  }
  return r;
}

}  // namespace sqe::sql
