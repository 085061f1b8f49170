// Statements: dispatch on the first keyword, then one function per family (CREATE, DROP,
// ALTER, SHOW, DML, GRANT, secrets, ATTACH, session and transaction control).
#include <cctype>

#include "sql/parser_internal.h"

namespace sqe::sql {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

template <typename T, typename... Args>
std::shared_ptr<T> MakeStatement(const SourcePosition& pos, Args&&... args) {
  auto s = std::make_shared<T>(std::forward<Args>(args)...);
  s->pos = pos;
  return s;
}

}  // namespace

Result<ast::StatementPtr> Parser::ParseStatementBody() {
  DepthGuard guard(&depth_);
  SQE_RETURN_NOT_OK(CheckNesting());
  const size_t start = index_;
  const SourcePosition pos = Current().position;
  ast::StatementPtr statement;
  if (Is("select") || Is("with") || Is("values") || Is("table") || IsOp("(")) {
    auto s = MakeStatement<ast::QueryStatement>(pos);
    SQE_ASSIGN_OR_RETURN(s->query, ParseQuery());
    statement = std::move(s);
  } else if (Is("explain")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseExplain());
  } else if (Is("show")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseShow());
  } else if (Is("describe") || Is("desc")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseDescribe());
  } else if (Accept("use")) {
    auto s = MakeStatement<ast::UseStatement>(pos);
    SQE_ASSIGN_OR_RETURN(std::string first, ParseIdentifier());
    if (AcceptOp(".")) {
      s->catalog = std::move(first);
      SQE_ASSIGN_OR_RETURN(s->schema, ParseIdentifier());
    } else {
      s->schema = std::move(first);
    }
    statement = std::move(s);
  } else if (Is("set")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseSet());
  } else if (Accept("reset")) {
    SQE_RETURN_NOT_OK(Expect("session"));
    auto s = MakeStatement<ast::ResetSessionStatement>(pos);
    SQE_ASSIGN_OR_RETURN(s->name, ParseQualifiedName());
    statement = std::move(s);
  } else if (Accept("prepare")) {
    auto s = MakeStatement<ast::PrepareStatement>(pos);
    SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
    SQE_RETURN_NOT_OK(Expect("from"));
    SQE_ASSIGN_OR_RETURN(s->statement, ParseStatementBody());
    statement = std::move(s);
  } else if (Accept("execute")) {
    std::vector<ast::ExprPtr>* parameters = nullptr;
    if (Accept("immediate")) {
      auto s = MakeStatement<ast::ExecuteImmediateStatement>(pos);
      s->sql_pos = Current().position;
      SQE_ASSIGN_OR_RETURN(s->sql, ParseStringLiteral());
      parameters = &s->parameters;
      statement = std::move(s);
    } else {
      auto s = MakeStatement<ast::ExecuteStatement>(pos);
      SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
      parameters = &s->parameters;
      statement = std::move(s);
    }
    if (Accept("using")) {
      SQE_ASSIGN_OR_RETURN(*parameters, ParseExprList());
    }
  } else if (Accept("deallocate")) {
    Accept("prepare");
    auto s = MakeStatement<ast::PreparedNameStatement>(pos, ast::StatementKind::kDeallocate);
    SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
    statement = std::move(s);
  } else if (Is("create")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseCreate());
  } else if (Is("drop")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseDrop());
  } else if (Is("alter")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseAlter());
  } else if (Is("insert")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseInsert());
  } else if (Is("delete")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseDelete());
  } else if (Is("update")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseUpdate());
  } else if (Is("merge")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseMerge());
  } else if (Accept("call")) {
    auto s = MakeStatement<ast::CallStatement>(pos);
    SQE_ASSIGN_OR_RETURN(s->procedure, ParseQualifiedName());
    SQE_RETURN_NOT_OK(ExpectOp("("));
    if (!IsOp(")")) {
      do {
        SQE_ASSIGN_OR_RETURN(ast::ExprPtr arg, ParseArgument());
        s->args.push_back(std::move(arg));
      } while (AcceptOp(","));
    }
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    statement = std::move(s);
  } else if (Is("grant") || Is("revoke")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseGrantRevoke(Current().IsKeyword("grant")));
  } else if (Is("attach") || Is("detach")) {
    SQE_ASSIGN_OR_RETURN(statement, ParseAttach());
  } else if (Is("start") || Is("begin")) {
    const bool start_keyword = Current().IsKeyword("start");
    Advance();
    if (start_keyword) {
      SQE_RETURN_NOT_OK(Expect("transaction"));
    } else if (!Accept("transaction")) {
      Accept("work");
    }
    auto s = MakeStatement<ast::TransactionStatement>(pos, ast::StatementKind::kStartTransaction);
    if (Is("isolation") || Is("read")) {
      do {
        if (Accept("isolation")) {
          SQE_RETURN_NOT_OK(Expect("level"));
          if (Accept("serializable")) {
            s->isolation_level = "SERIALIZABLE";
          } else if (Accept("repeatable")) {
            SQE_RETURN_NOT_OK(Expect("read"));
            s->isolation_level = "REPEATABLE READ";
          } else {
            SQE_RETURN_NOT_OK(Expect("read"));
            if (Accept("committed")) {
              s->isolation_level = "READ COMMITTED";
            } else {
              SQE_RETURN_NOT_OK(Expect("uncommitted"));
              s->isolation_level = "READ UNCOMMITTED";
            }
          }
        } else {
          SQE_RETURN_NOT_OK(Expect("read"));
          if (Accept("only")) {
            s->read_only = true;
          } else {
            SQE_RETURN_NOT_OK(Expect("write"));
            s->read_only = false;
          }
        }
      } while (AcceptOp(","));
    }
    statement = std::move(s);
  } else if (Is("commit") || Is("rollback")) {
    const auto kind =
        Current().IsKeyword("commit") ? ast::StatementKind::kCommit : ast::StatementKind::kRollback;
    Advance();
    Accept("work");
    statement = MakeStatement<ast::TransactionStatement>(pos, kind);
  } else if (Accept("comment")) {
    SQE_RETURN_NOT_OK(Expect("on"));
    auto s = MakeStatement<ast::CommentStatement>(pos);
    if (Is("table") || Is("view") || Is("column") || Is("schema")) {
      s->object_kind = Upper(Current().text);
      Advance();
    } else {
      return Mismatch();
    }
    SQE_ASSIGN_OR_RETURN(s->name, ParseQualifiedName());
    SQE_RETURN_NOT_OK(Expect("is"));
    if (!Accept("null")) {
      SQE_ASSIGN_OR_RETURN(std::string text, ParseStringLiteral());
      s->comment = std::move(text);
    }
    statement = std::move(s);
  } else if (Accept("analyze")) {
    auto s = MakeStatement<ast::AnalyzeStatement>(pos);
    SQE_ASSIGN_OR_RETURN(s->table, ParseQualifiedName());
    if (Accept("with")) {
      SQE_ASSIGN_OR_RETURN(s->properties, ParseProperties());
    }
    statement = std::move(s);
  } else {
    return Mismatch();
  }
  statement->pos = pos;
  if (index_ > start) {
    const Token& last = tokens_[index_ - 1];
    const size_t begin = static_cast<size_t>(tokens_[start].position.offset);
    const size_t end = static_cast<size_t>(last.position.offset + last.length);
    statement->text = std::string(sql_.substr(begin, end - begin));
  }
  return statement;
}

// ---------------------------------------------------------------------------------------
// Shared pieces

Result<std::vector<ast::Property>> Parser::ParseProperties() {
  SQE_RETURN_NOT_OK(ExpectOp("("));
  std::vector<ast::Property> properties;
  do {
    ast::Property p;
    p.pos = Current().position;
    SQE_ASSIGN_OR_RETURN(p.name, ParseIdentifier(&p.quoted));
    SQE_RETURN_NOT_OK(ExpectOp("="));
    SQE_ASSIGN_OR_RETURN(p.value, ParseExpr());
    properties.push_back(std::move(p));
  } while (AcceptOp(","));
  SQE_RETURN_NOT_OK(ExpectOp(")"));
  return properties;
}

Result<std::vector<ast::Property>> Parser::ParseOptionList() {
  SQE_RETURN_NOT_OK(ExpectOp("("));
  std::vector<ast::Property> options;
  do {
    ast::Property p;
    p.pos = Current().position;
    ExpectHere("<option name>");
    if (Current().kind != TokenKind::kIdentifier &&
        Current().kind != TokenKind::kQuotedIdentifier) {
      return Mismatch();
    }
    p.quoted = Current().kind == TokenKind::kQuotedIdentifier;
    p.name = p.quoted ? Current().text : Lower(Current().text);
    Advance();
    if (IsOp(",") || IsOp(")")) {
      // A bare flag such as READ_ONLY means true.
      p.value = std::make_shared<ast::Expr>();
      p.value->kind = ast::ExprKind::kLiteral;
      p.value->literal_kind = ast::LiteralKind::kBoolean;
      p.value->text = "true";
      p.value->pos = p.pos;
    } else {
      AcceptOp("=");
      SQE_ASSIGN_OR_RETURN(p.value, ParseExpr());
    }
    options.push_back(std::move(p));
  } while (AcceptOp(","));
  SQE_RETURN_NOT_OK(ExpectOp(")"));
  return options;
}

Result<ast::ColumnDefinition> Parser::ParseColumnDefinition() {
  ast::ColumnDefinition column;
  column.pos = Current().position;
  SQE_ASSIGN_OR_RETURN(column.name, ParseIdentifier(&column.quoted));
  SQE_ASSIGN_OR_RETURN(column.type, ParseType());
  while (true) {
    if (Is("not") && IsAt(1, "null")) {
      Advance();
      Advance();
      column.not_null = true;
    } else if (Accept("comment")) {
      SQE_ASSIGN_OR_RETURN(std::string text, ParseStringLiteral());
      column.comment = std::move(text);
    } else if (Accept("with")) {
      SQE_ASSIGN_OR_RETURN(column.properties, ParseProperties());
    } else {
      return column;
    }
  }
}

Result<ast::LikeFilter> Parser::ParseLikeFilter() {
  ast::LikeFilter like;
  if (Accept("like")) {
    SQE_ASSIGN_OR_RETURN(std::string pattern, ParseStringLiteral());
    like.pattern = std::move(pattern);
    if (Accept("escape")) {
      SQE_ASSIGN_OR_RETURN(std::string escape, ParseStringLiteral());
      like.escape = std::move(escape);
    }
  }
  return like;
}

Result<std::vector<ast::Assignment>> Parser::ParseAssignments() {
  std::vector<ast::Assignment> out;
  do {
    ast::Assignment a;
    a.pos = Current().position;
    SQE_ASSIGN_OR_RETURN(a.column, ParseQualifiedName());
    SQE_RETURN_NOT_OK(ExpectOp("="));
    SQE_ASSIGN_OR_RETURN(a.value, ParseExpr());
    out.push_back(std::move(a));
  } while (AcceptOp(","));
  return out;
}

// ---------------------------------------------------------------------------------------
// EXPLAIN, SHOW, DESCRIBE, SET

Result<ast::StatementPtr> Parser::ParseExplain() {
  auto s = MakeStatement<ast::ExplainStatement>(Current().position);
  SQE_RETURN_NOT_OK(Expect("explain"));
  s->analyze = Accept("analyze");
  s->verbose = Accept("verbose");
  // (TYPE x, FORMAT y): told apart from a parenthesized query by its first word.
  if (IsOp("(") && (IsAt(1, "type") || IsAt(1, "format")) && !IsOpAt(2, ",")) {
    Advance();
    do {
      ast::ExplainOption option;
      if (Is("type") || Is("format")) {
        option.name = Upper(Current().text);
        Advance();
      } else {
        return Mismatch();
      }
      ExpectHere("<identifier>");
      if (Current().kind != TokenKind::kIdentifier) return Mismatch();
      option.value = Upper(Current().text);
      Advance();
      s->options.push_back(std::move(option));
    } while (AcceptOp(","));
    SQE_RETURN_NOT_OK(ExpectOp(")"));
  }
  SQE_ASSIGN_OR_RETURN(s->statement, ParseStatementBody());
  return ast::StatementPtr(std::move(s));
}

Result<ast::StatementPtr> Parser::ParseShow() {
  const SourcePosition pos = Current().position;
  SQE_RETURN_NOT_OK(Expect("show"));
  auto make = [&](ast::StatementKind kind) { return MakeStatement<ast::ShowStatement>(pos, kind); };
  if (Accept("catalogs")) {
    auto s = make(ast::StatementKind::kShowCatalogs);
    SQE_ASSIGN_OR_RETURN(s->like, ParseLikeFilter());
    return ast::StatementPtr(std::move(s));
  }
  if (Is("schemas") || Is("tables")) {
    auto s = make(Current().IsKeyword("schemas") ? ast::StatementKind::kShowSchemas
                                                 : ast::StatementKind::kShowTables);
    Advance();
    if (Accept("from") || Accept("in")) {
      SQE_ASSIGN_OR_RETURN(s->target, ParseQualifiedName());
    }
    SQE_ASSIGN_OR_RETURN(s->like, ParseLikeFilter());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("columns")) {
    auto s = make(ast::StatementKind::kShowColumns);
    if (!Accept("from")) SQE_RETURN_NOT_OK(Expect("in"));
    SQE_ASSIGN_OR_RETURN(s->target, ParseQualifiedName());
    SQE_ASSIGN_OR_RETURN(s->like, ParseLikeFilter());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("create")) {
    ast::StatementKind kind;
    if (Accept("table")) {
      kind = ast::StatementKind::kShowCreateTable;
    } else if (Accept("view")) {
      kind = ast::StatementKind::kShowCreateView;
    } else {
      return Mismatch();
    }
    auto s = make(kind);
    SQE_ASSIGN_OR_RETURN(s->target, ParseQualifiedName());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("functions")) {
    auto s = make(ast::StatementKind::kShowFunctions);
    if (Accept("from") || Accept("in")) {
      SQE_ASSIGN_OR_RETURN(s->target, ParseQualifiedName());
    }
    SQE_ASSIGN_OR_RETURN(s->like, ParseLikeFilter());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("session")) {
    auto s = make(ast::StatementKind::kShowSession);
    SQE_ASSIGN_OR_RETURN(s->like, ParseLikeFilter());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("stats")) {
    auto s = make(ast::StatementKind::kShowStats);
    SQE_RETURN_NOT_OK(Expect("for"));
    if (AcceptOp("(")) {
      SQE_ASSIGN_OR_RETURN(s->query, ParseQuery());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    } else {
      SQE_ASSIGN_OR_RETURN(s->target, ParseQualifiedName());
    }
    return ast::StatementPtr(std::move(s));
  }
  return Mismatch();
}

Result<ast::StatementPtr> Parser::ParseDescribe() {
  const SourcePosition pos = Current().position;
  Advance();  // DESCRIBE or DESC
  if ((Is("input") || Is("output")) && IsIdentifier(1)) {
    auto s = MakeStatement<ast::PreparedNameStatement>(
        pos, Current().IsKeyword("input") ? ast::StatementKind::kDescribeInput
                                          : ast::StatementKind::kDescribeOutput);
    Advance();
    SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
    return ast::StatementPtr(std::move(s));
  }
  auto s = MakeStatement<ast::ShowStatement>(pos, ast::StatementKind::kShowColumns);
  SQE_ASSIGN_OR_RETURN(s->target, ParseQualifiedName());
  return ast::StatementPtr(std::move(s));
}

Result<ast::StatementPtr> Parser::ParseSet() {
  const SourcePosition pos = Current().position;
  SQE_RETURN_NOT_OK(Expect("set"));
  if (Accept("session")) {
    auto s = MakeStatement<ast::SetSessionStatement>(pos);
    SQE_ASSIGN_OR_RETURN(s->name, ParseQualifiedName());
    SQE_RETURN_NOT_OK(ExpectOp("="));
    SQE_ASSIGN_OR_RETURN(s->value, ParseExpr());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("role")) {
    auto s = MakeStatement<ast::RoleStatement>(pos, ast::StatementKind::kSetRole);
    if (Accept("all")) {
      s->is_all = true;
      s->name = "ALL";
    } else if (Accept("none")) {
      s->is_none = true;
      s->name = "NONE";
    } else {
      SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
    }
    if (Accept("in")) {
      SQE_ASSIGN_OR_RETURN(std::string catalog, ParseIdentifier());
      s->catalog = std::move(catalog);
    }
    return ast::StatementPtr(std::move(s));
  }
  return Mismatch();
}

// ---------------------------------------------------------------------------------------
// CREATE, DROP, ALTER

Result<ast::StatementPtr> Parser::ParseCreate() {
  const SourcePosition pos = Current().position;
  SQE_RETURN_NOT_OK(Expect("create"));
  const bool or_replace = AcceptSeq({"or", "replace"});
  if (Accept("schema")) {
    auto s = MakeStatement<ast::CreateSchemaStatement>(pos);
    s->if_not_exists = AcceptSeq({"if", "not", "exists"});
    SQE_ASSIGN_OR_RETURN(s->name, ParseQualifiedName());
    if (Accept("with")) {
      SQE_ASSIGN_OR_RETURN(s->properties, ParseProperties());
    }
    return ast::StatementPtr(std::move(s));
  }
  if (Is("table")) return ParseCreateTable(pos, or_replace);
  if (Accept("view")) {
    auto s = MakeStatement<ast::CreateViewStatement>(pos);
    s->or_replace = or_replace;
    SQE_ASSIGN_OR_RETURN(s->name, ParseQualifiedName());
    while (true) {
      if (Accept("comment")) {
        SQE_ASSIGN_OR_RETURN(std::string text, ParseStringLiteral());
        s->comment = std::move(text);
      } else if (Accept("security")) {
        if (Is("definer") || Is("invoker")) {
          s->security = Upper(Current().text);
          Advance();
        } else {
          return Mismatch();
        }
      } else {
        break;
      }
    }
    SQE_RETURN_NOT_OK(Expect("as"));
    SQE_ASSIGN_OR_RETURN(s->query, ParseQuery());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("role")) {
    auto s = MakeStatement<ast::RoleStatement>(pos, ast::StatementKind::kCreateRole);
    SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
    if (Accept("in")) {
      SQE_ASSIGN_OR_RETURN(std::string catalog, ParseIdentifier());
      s->catalog = std::move(catalog);
    }
    return ast::StatementPtr(std::move(s));
  }
  if (Is("persistent") || Is("temporary") || Is("secret")) {
    return ParseSecret(pos, or_replace, /*create=*/true);
  }
  return Mismatch();
}

Result<ast::StatementPtr> Parser::ParseCreateTable(SourcePosition pos, bool or_replace) {
  SQE_RETURN_NOT_OK(Expect("table"));
  const bool if_not_exists = AcceptSeq({"if", "not", "exists"});
  SQE_ASSIGN_OR_RETURN(ast::QualifiedName name, ParseQualifiedName());

  std::vector<std::string> column_aliases;
  std::vector<ast::ColumnDefinition> columns;
  std::vector<ast::LikeClause> likes;
  bool has_elements = false;
  if (IsOp("(")) {
    // `(a, b)` before AS names the CTAS columns; column definitions always carry a type.
    size_t i = 1;
    bool alias_list = false;
    while (IsIdentifier(i)) {
      if (IsOpAt(i + 1, ",")) {
        i += 2;
        continue;
      }
      alias_list = IsOpAt(i + 1, ")");
      break;
    }
    if (alias_list) {
      SQE_ASSIGN_OR_RETURN(column_aliases, ParseIdentifierList());
    } else {
      has_elements = true;
      Advance();
      do {
        if (Accept("like")) {
          ast::LikeClause like;
          SQE_ASSIGN_OR_RETURN(like.table, ParseQualifiedName());
          if (Accept("including")) {
            SQE_RETURN_NOT_OK(Expect("properties"));
            like.including_properties = true;
          } else if (Accept("excluding")) {
            SQE_RETURN_NOT_OK(Expect("properties"));
            like.including_properties = false;
          }
          likes.push_back(std::move(like));
        } else {
          SQE_ASSIGN_OR_RETURN(ast::ColumnDefinition column, ParseColumnDefinition());
          columns.push_back(std::move(column));
        }
      } while (AcceptOp(","));
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    }
  }

  std::optional<std::string> comment;
  std::vector<ast::Property> properties;
  std::vector<ast::ExprPtr> partitioned_by;
  while (true) {
    if (Accept("comment")) {
      SQE_ASSIGN_OR_RETURN(std::string text, ParseStringLiteral());
      comment = std::move(text);
    } else if (Is("with") && IsOpAt(1, "(")) {
      Advance();
      SQE_ASSIGN_OR_RETURN(properties, ParseProperties());
    } else if (Accept("partitioned")) {
      SQE_RETURN_NOT_OK(Expect("by"));
      SQE_RETURN_NOT_OK(ExpectOp("("));
      SQE_ASSIGN_OR_RETURN(partitioned_by, ParseExprList());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    } else {
      break;
    }
  }

  if (!has_elements && Accept("as")) {
    auto s = MakeStatement<ast::CreateTableAsSelectStatement>(pos);
    s->name = std::move(name);
    s->if_not_exists = if_not_exists;
    s->or_replace = or_replace;
    s->column_aliases = std::move(column_aliases);
    s->comment = std::move(comment);
    s->properties = std::move(properties);
    s->partitioned_by = std::move(partitioned_by);
    SQE_ASSIGN_OR_RETURN(s->query, ParseQuery());
    if (Accept("with")) {
      if (Accept("no")) s->with_data = false;
      SQE_RETURN_NOT_OK(Expect("data"));
    }
    return ast::StatementPtr(std::move(s));
  }
  if (!has_elements) {
    // Neither a column list nor AS query: point at what came instead.
    ExpectHere("'('");
    ExpectHere("'AS'");
    return Mismatch();
  }
  auto s = MakeStatement<ast::CreateTableStatement>(pos);
  s->name = std::move(name);
  s->if_not_exists = if_not_exists;
  s->or_replace = or_replace;
  s->columns = std::move(columns);
  s->likes = std::move(likes);
  s->comment = std::move(comment);
  s->properties = std::move(properties);
  s->partitioned_by = std::move(partitioned_by);
  return ast::StatementPtr(std::move(s));
}

Result<ast::StatementPtr> Parser::ParseDrop() {
  const SourcePosition pos = Current().position;
  SQE_RETURN_NOT_OK(Expect("drop"));
  if (Accept("schema")) {
    auto s = MakeStatement<ast::DropSchemaStatement>(pos);
    s->if_exists = AcceptSeq({"if", "exists"});
    SQE_ASSIGN_OR_RETURN(s->name, ParseQualifiedName());
    if (Accept("cascade")) {
      s->cascade = true;
    } else {
      Accept("restrict");
    }
    return ast::StatementPtr(std::move(s));
  }
  if (Is("table") || Is("view")) {
    auto s = MakeStatement<ast::DropObjectStatement>(pos, Current().IsKeyword("table")
                                                              ? ast::StatementKind::kDropTable
                                                              : ast::StatementKind::kDropView);
    Advance();
    s->if_exists = AcceptSeq({"if", "exists"});
    SQE_ASSIGN_OR_RETURN(s->name, ParseQualifiedName());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("role")) {
    auto s = MakeStatement<ast::RoleStatement>(pos, ast::StatementKind::kDropRole);
    s->if_exists = AcceptSeq({"if", "exists"});
    SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
    if (Accept("in")) {
      SQE_ASSIGN_OR_RETURN(std::string catalog, ParseIdentifier());
      s->catalog = std::move(catalog);
    }
    return ast::StatementPtr(std::move(s));
  }
  if (Is("persistent") || Is("temporary") || Is("secret")) {
    return ParseSecret(pos, /*or_replace=*/false, /*create=*/false);
  }
  return Mismatch();
}

Result<ast::StatementPtr> Parser::ParseSecret(SourcePosition pos, bool or_replace, bool create) {
  auto s = MakeStatement<ast::SecretStatement>(
      pos, create ? ast::StatementKind::kCreateSecret : ast::StatementKind::kDropSecret);
  s->or_replace = or_replace;
  if (Accept("persistent")) {
    s->persistence = ast::SecretPersistence::kPersistent;
  } else if (Accept("temporary")) {
    s->persistence = ast::SecretPersistence::kTemporary;
  }
  SQE_RETURN_NOT_OK(Expect("secret"));
  if (create) {
    s->if_not_exists = AcceptSeq({"if", "not", "exists"});
    if (!IsOp("(")) {
      SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
    }
    SQE_ASSIGN_OR_RETURN(s->options, ParseOptionList());
  } else {
    s->if_exists = AcceptSeq({"if", "exists"});
    SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
  }
  return ast::StatementPtr(std::move(s));
}

Result<ast::StatementPtr> Parser::ParseAlter() {
  const SourcePosition pos = Current().position;
  SQE_RETURN_NOT_OK(Expect("alter"));
  SQE_RETURN_NOT_OK(Expect("table"));
  auto s = MakeStatement<ast::AlterTableStatement>(pos);
  s->if_exists = AcceptSeq({"if", "exists"});
  SQE_ASSIGN_OR_RETURN(s->name, ParseQualifiedName());
  if (Accept("rename")) {
    if (Accept("column")) {
      s->action = ast::AlterTableAction::kRenameColumn;
      s->column_if_exists = AcceptSeq({"if", "exists"});
      SQE_ASSIGN_OR_RETURN(s->column_name, ParseQualifiedName());
      SQE_RETURN_NOT_OK(Expect("to"));
      SQE_ASSIGN_OR_RETURN(s->new_column_name, ParseIdentifier());
    } else {
      SQE_RETURN_NOT_OK(Expect("to"));
      s->action = ast::AlterTableAction::kRenameTable;
      SQE_ASSIGN_OR_RETURN(s->new_name, ParseQualifiedName());
    }
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("add")) {
    SQE_RETURN_NOT_OK(Expect("column"));
    s->action = ast::AlterTableAction::kAddColumn;
    s->column_if_not_exists = AcceptSeq({"if", "not", "exists"});
    SQE_ASSIGN_OR_RETURN(s->column, ParseColumnDefinition());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("drop")) {
    SQE_RETURN_NOT_OK(Expect("column"));
    s->action = ast::AlterTableAction::kDropColumn;
    s->column_if_exists = AcceptSeq({"if", "exists"});
    SQE_ASSIGN_OR_RETURN(s->column_name, ParseQualifiedName());
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("alter")) {
    SQE_RETURN_NOT_OK(Expect("column"));
    SQE_ASSIGN_OR_RETURN(s->column_name, ParseQualifiedName());
    if (Accept("set")) {
      SQE_RETURN_NOT_OK(Expect("data"));
      SQE_RETURN_NOT_OK(Expect("type"));
      s->action = ast::AlterTableAction::kSetColumnType;
      SQE_ASSIGN_OR_RETURN(s->type, ParseType());
    } else {
      SQE_RETURN_NOT_OK(Expect("drop"));
      SQE_RETURN_NOT_OK(Expect("not"));
      SQE_RETURN_NOT_OK(Expect("null"));
      s->action = ast::AlterTableAction::kDropNotNull;
    }
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("set")) {
    if (Accept("tblproperties")) {
      s->action = ast::AlterTableAction::kSetTblProperties;
      SQE_RETURN_NOT_OK(ExpectOp("("));
      do {
        ast::Property p;
        p.pos = Current().position;
        SQE_ASSIGN_OR_RETURN(p.name, ParseStringLiteral());
        p.quoted = true;
        SQE_RETURN_NOT_OK(ExpectOp("="));
        SQE_ASSIGN_OR_RETURN(p.value, ParseExpr());
        s->properties.push_back(std::move(p));
      } while (AcceptOp(","));
      SQE_RETURN_NOT_OK(ExpectOp(")"));
      return ast::StatementPtr(std::move(s));
    }
    SQE_RETURN_NOT_OK(Expect("properties"));
    s->action = ast::AlterTableAction::kSetProperties;
    do {
      ast::Property p;
      p.pos = Current().position;
      SQE_ASSIGN_OR_RETURN(p.name, ParseIdentifier(&p.quoted));
      SQE_RETURN_NOT_OK(ExpectOp("="));
      SQE_ASSIGN_OR_RETURN(p.value, ParseExpr());
      s->properties.push_back(std::move(p));
    } while (AcceptOp(","));
    return ast::StatementPtr(std::move(s));
  }
  if (Accept("execute")) {
    s->action = ast::AlterTableAction::kExecute;
    SQE_ASSIGN_OR_RETURN(s->procedure, ParseIdentifier());
    if (AcceptOp("(")) {
      if (!IsOp(")")) {
        do {
          SQE_ASSIGN_OR_RETURN(ast::ExprPtr arg, ParseArgument());
          s->args.push_back(std::move(arg));
        } while (AcceptOp(","));
      }
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    }
    if (Accept("where")) {
      SQE_ASSIGN_OR_RETURN(s->where, ParseExpr());
    }
    return ast::StatementPtr(std::move(s));
  }
  return Mismatch();
}

// ---------------------------------------------------------------------------------------
// DML

Result<ast::StatementPtr> Parser::ParseInsert() {
  auto s = MakeStatement<ast::InsertStatement>(Current().position);
  SQE_RETURN_NOT_OK(Expect("insert"));
  SQE_RETURN_NOT_OK(Expect("into"));
  SQE_ASSIGN_OR_RETURN(s->table, ParseQualifiedName());
  if (IsOp("(") && !StartsQuery(1) && !IsOpAt(1, "(")) {
    SQE_ASSIGN_OR_RETURN(s->columns, ParseIdentifierList());
  }
  SQE_ASSIGN_OR_RETURN(s->query, ParseQuery());
  return ast::StatementPtr(std::move(s));
}

Result<ast::StatementPtr> Parser::ParseDelete() {
  auto s = MakeStatement<ast::DeleteStatement>(Current().position);
  SQE_RETURN_NOT_OK(Expect("delete"));
  SQE_RETURN_NOT_OK(Expect("from"));
  SQE_ASSIGN_OR_RETURN(s->table, ParseQualifiedName());
  if (Accept("as")) {
    SQE_ASSIGN_OR_RETURN(std::string alias, ParseIdentifier());
    s->alias = std::move(alias);
  } else if (CanStartImplicitAlias()) {
    s->alias = Current().text;
    Advance();
  }
  if (Accept("where")) {
    SQE_ASSIGN_OR_RETURN(s->where, ParseExpr());
  }
  return ast::StatementPtr(std::move(s));
}

Result<ast::StatementPtr> Parser::ParseUpdate() {
  auto s = MakeStatement<ast::UpdateStatement>(Current().position);
  SQE_RETURN_NOT_OK(Expect("update"));
  SQE_ASSIGN_OR_RETURN(s->table, ParseQualifiedName());
  if (Accept("as")) {
    SQE_ASSIGN_OR_RETURN(std::string alias, ParseIdentifier());
    s->alias = std::move(alias);
  } else if (CanStartImplicitAlias()) {
    s->alias = Current().text;
    Advance();
  }
  SQE_RETURN_NOT_OK(Expect("set"));
  SQE_ASSIGN_OR_RETURN(s->assignments, ParseAssignments());
  if (Accept("where")) {
    SQE_ASSIGN_OR_RETURN(s->where, ParseExpr());
  }
  return ast::StatementPtr(std::move(s));
}

Result<ast::StatementPtr> Parser::ParseMerge() {
  auto s = MakeStatement<ast::MergeStatement>(Current().position);
  SQE_RETURN_NOT_OK(Expect("merge"));
  SQE_RETURN_NOT_OK(Expect("into"));
  SQE_ASSIGN_OR_RETURN(s->target, ParseQualifiedName());
  if (Accept("as")) {
    SQE_ASSIGN_OR_RETURN(std::string alias, ParseIdentifier());
    s->target_alias = std::move(alias);
  } else if (CanStartImplicitAlias()) {
    s->target_alias = Current().text;
    Advance();
  }
  SQE_RETURN_NOT_OK(Expect("using"));
  SQE_ASSIGN_OR_RETURN(s->source, ParseAliasedRelation());
  SQE_RETURN_NOT_OK(Expect("on"));
  SQE_ASSIGN_OR_RETURN(s->on, ParseExpr());
  do {
    ast::MergeClause clause;
    clause.pos = Current().position;
    SQE_RETURN_NOT_OK(Expect("when"));
    clause.matched = !Accept("not");
    SQE_RETURN_NOT_OK(Expect("matched"));
    if (Accept("and")) {
      SQE_ASSIGN_OR_RETURN(clause.condition, ParseExpr());
    }
    SQE_RETURN_NOT_OK(Expect("then"));
    if (clause.matched) {
      if (Accept("delete")) {
        clause.action = ast::MergeAction::kDelete;
      } else {
        SQE_RETURN_NOT_OK(Expect("update"));
        SQE_RETURN_NOT_OK(Expect("set"));
        clause.action = ast::MergeAction::kUpdate;
        SQE_ASSIGN_OR_RETURN(clause.assignments, ParseAssignments());
      }
    } else {
      SQE_RETURN_NOT_OK(Expect("insert"));
      clause.action = ast::MergeAction::kInsert;
      if (IsOp("(")) {
        SQE_ASSIGN_OR_RETURN(clause.insert_columns, ParseIdentifierList());
      }
      SQE_RETURN_NOT_OK(Expect("values"));
      SQE_RETURN_NOT_OK(ExpectOp("("));
      SQE_ASSIGN_OR_RETURN(clause.insert_values, ParseExprList());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    }
    s->clauses.push_back(std::move(clause));
  } while (Is("when"));
  return ast::StatementPtr(std::move(s));
}

// ---------------------------------------------------------------------------------------
// GRANT / REVOKE, ATTACH / DETACH

Result<ast::StatementPtr> Parser::ParseGrantRevoke(bool grant) {
  auto s = MakeStatement<ast::GrantStatement>(
      Current().position, grant ? ast::StatementKind::kGrant : ast::StatementKind::kRevoke);
  Advance();  // GRANT / REVOKE
  if (!grant && AcceptSeq({"grant", "option", "for"})) s->grant_option = true;
  if (Accept("all")) {
    SQE_RETURN_NOT_OK(Expect("privileges"));
    s->all_privileges = true;
  } else {
    do {
      ExpectHere("<privilege>");
      if (Current().kind != TokenKind::kIdentifier) return Mismatch();
      s->privileges.push_back(Upper(Current().text));
      Advance();
    } while (AcceptOp(","));
  }
  SQE_RETURN_NOT_OK(Expect("on"));
  if (Is("table") || Is("schema")) {
    s->object_kind = Upper(Current().text);
    Advance();
  }
  SQE_ASSIGN_OR_RETURN(s->object, ParseQualifiedName());
  if (grant) {
    SQE_RETURN_NOT_OK(Expect("to"));
  } else {
    SQE_RETURN_NOT_OK(Expect("from"));
  }
  if ((Is("user") || Is("role")) && IsIdentifier(1)) {
    s->principal.kind =
        Current().IsKeyword("user") ? ast::PrincipalKind::kUser : ast::PrincipalKind::kRole;
    Advance();
  }
  SQE_ASSIGN_OR_RETURN(s->principal.name, ParseIdentifier());
  if (grant && AcceptSeq({"with", "grant", "option"})) s->grant_option = true;
  return ast::StatementPtr(std::move(s));
}

Result<ast::StatementPtr> Parser::ParseAttach() {
  const bool attach = Current().IsKeyword("attach");
  auto s = MakeStatement<ast::AttachStatement>(
      Current().position, attach ? ast::StatementKind::kAttach : ast::StatementKind::kDetach);
  Advance();
  Accept("database");
  if (attach) {
    s->if_not_exists = AcceptSeq({"if", "not", "exists"});
    SQE_ASSIGN_OR_RETURN(s->path, ParseStringLiteral());
    if (Accept("as")) {
      SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
    }
    if (IsOp("(")) {
      SQE_ASSIGN_OR_RETURN(s->options, ParseOptionList());
    }
  } else {
    s->if_exists = AcceptSeq({"if", "exists"});
    SQE_ASSIGN_OR_RETURN(s->name, ParseIdentifier());
  }
  return ast::StatementPtr(std::move(s));
}

}  // namespace sqe::sql
