// The parser's entry points and its shared machinery: token access, the expected-token
// bookkeeping behind "mismatched input ... Expecting: ..." errors, names and types.
#include "sql/parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <unordered_set>

#if defined(__linux__)
#include <pthread.h>
#endif

#include "sql/lexer.h"
#include "sql/parser_internal.h"

namespace sqe::sql {
namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Trino's reserved words: these are never plain identifiers unless quoted.
const std::unordered_set<std::string>& ReservedWords() {
  static const auto* words =
      new std::unordered_set<std::string>{"ALTER",        "AND",
                                          "AS",           "BETWEEN",
                                          "BY",           "CASE",
                                          "CAST",         "CONSTRAINT",
                                          "CREATE",       "CROSS",
                                          "CUBE",         "CURRENT_CATALOG",
                                          "CURRENT_DATE", "CURRENT_PATH",
                                          "CURRENT_ROLE", "CURRENT_SCHEMA",
                                          "CURRENT_TIME", "CURRENT_TIMESTAMP",
                                          "CURRENT_USER", "DEALLOCATE",
                                          "DELETE",       "DESCRIBE",
                                          "DISTINCT",     "DROP",
                                          "ELSE",         "END",
                                          "ESCAPE",       "EXCEPT",
                                          "EXECUTE",      "EXISTS",
                                          "EXTRACT",      "FALSE",
                                          "FOR",          "FROM",
                                          "FULL",         "GROUP",
                                          "GROUPING",     "HAVING",
                                          "IN",           "INNER",
                                          "INSERT",       "INTERSECT",
                                          "INTO",         "IS",
                                          "JOIN",         "LEFT",
                                          "LIKE",         "LISTAGG",
                                          "LOCALTIME",    "LOCALTIMESTAMP",
                                          "NATURAL",      "NORMALIZE",
                                          "NOT",          "NULL",
                                          "ON",           "OR",
                                          "ORDER",        "OUTER",
                                          "PREPARE",      "RECURSIVE",
                                          "RIGHT",        "ROLLUP",
                                          "SELECT",       "SKIP",
                                          "TABLE",        "THEN",
                                          "TRIM",         "TRUE",
                                          "UESCAPE",      "UNION",
                                          "UNNEST",       "USING",
                                          "VALUES",       "WHEN",
                                          "WHERE",        "WITH"};
  return *words;
}

// Bytes of stack below `here` the parser may use: what this thread has left, less a margin
// for the frames between two nesting checks and for building an error; 1 MB when unknown.
size_t StackBudget(uintptr_t here) {
  constexpr size_t kMargin = 256 * 1024;
  size_t budget = 1024 * 1024;
#if defined(__linux__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* low = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0) {
      const auto bottom = reinterpret_cast<uintptr_t>(low);
      if (here > bottom) {
        const size_t left = here - bottom;
        budget = left > 2 * kMargin ? left - kMargin : left / 2;
      }
    }
    pthread_attr_destroy(&attr);
  }
#endif
  return budget;
}

}  // namespace

Parser::Parser(std::string_view sql, std::vector<Token> tokens)
    : sql_(sql), tokens_(std::move(tokens)) {
  stack_start_ = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  stack_budget_ = StackBudget(stack_start_);
}

Status Parser::CheckNesting() const {
  if (depth_ > kMaxDepth) return TooDeep();
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (here < stack_start_ && stack_start_ - here > stack_budget_) return TooDeep();
  return Status::OK();
}

// ---------------------------------------------------------------------------------------
// Tokens and errors

const Token& Parser::Peek(size_t ahead) const {
  size_t i = std::min(index_ + ahead, tokens_.size() - 1);
  return tokens_[i];
}

bool Parser::Is(std::string_view keyword) {
  Record(keyword, ExpectedKind::kKeyword);
  return Current().IsKeyword(keyword);
}

bool Parser::IsOp(std::string_view op) {
  Record(op, ExpectedKind::kOperator);
  return Current().IsOperator(op);
}

bool Parser::Accept(std::string_view keyword) {
  if (!Is(keyword)) return false;
  Advance();
  return true;
}

bool Parser::AcceptOp(std::string_view op) {
  if (!IsOp(op)) return false;
  Advance();
  return true;
}

bool Parser::AcceptSeq(std::initializer_list<std::string_view> keywords) {
  size_t i = 0;
  for (std::string_view k : keywords) {
    if (i == 0 ? !Is(k) : !IsAt(i, k)) return false;
    ++i;
  }
  for (size_t j = 0; j < i; ++j) Advance();
  return true;
}

Status Parser::Expect(std::string_view keyword) {
  if (Accept(keyword)) return Status::OK();
  return Mismatch();
}

Status Parser::ExpectOp(std::string_view op) {
  if (AcceptOp(op)) return Status::OK();
  return Mismatch();
}

Status Parser::ErrorAt(const SourcePosition& pos, const std::string& message) const {
  return SqlErrorAt(sql_, pos, message);
}

Status Parser::TooDeep() const {
  return ErrorAt(Current().position,
                 "statement is nested too deeply to parse (at most " +
                     std::to_string(kMaxDepth / 3) +
                     " levels of parentheses, subqueries or chained operators, fewer on small "
                     "thread stacks)");
}

Status Parser::Mismatch() {
  const Token& t = Current();
  std::string shown;
  if (t.kind == TokenKind::kEnd) {
    shown = "<EOF>";
  } else {
    shown = std::string(
        sql_.substr(static_cast<size_t>(t.position.offset), static_cast<size_t>(t.length)));
  }
  std::string message = "mismatched input '" + shown + "'";
  if (expected_index_ == index_ && !expected_.empty()) {
    // Keywords and symbols first (sorted, as Trino lists them), then placeholders.
    std::set<std::string> literal, placeholders;
    for (const Expected& e : expected_) {
      switch (e.kind) {
        case ExpectedKind::kKeyword:
          literal.insert("'" + Upper(e.text) + "'");
          break;
        case ExpectedKind::kOperator:
          literal.insert("'" + std::string(e.text) + "'");
          break;
        case ExpectedKind::kVerbatim:
          (e.text[0] == '<' ? placeholders : literal).insert(std::string(e.text));
          break;
      }
    }
    message += ". Expecting: ";
    bool first = true;
    for (const auto* list : {&literal, &placeholders}) {
      for (const std::string& e : *list) {
        if (!first) message += ", ";
        message += e;
        first = false;
      }
    }
  }
  return ErrorAt(t.position, message);
}

// ---------------------------------------------------------------------------------------
// Names, literals and types

bool Parser::IsReserved(const Token& t) {
  return t.kind == TokenKind::kIdentifier && ReservedWords().count(Upper(t.text)) > 0;
}

bool Parser::IsIdentifier(size_t ahead) const {
  const Token& t = Peek(ahead);
  if (t.kind == TokenKind::kQuotedIdentifier) return true;
  return t.kind == TokenKind::kIdentifier && !IsReserved(t);
}

Result<std::string> Parser::ParseIdentifier(bool* quoted) {
  ExpectHere("<identifier>");
  if (!IsIdentifier()) return Mismatch();
  if (quoted) *quoted = Current().kind == TokenKind::kQuotedIdentifier;
  std::string text = Current().text;
  Advance();
  return text;
}

Result<ast::QualifiedName> Parser::ParseQualifiedName() {
  ast::QualifiedName name;
  do {
    bool quoted = false;
    SQE_ASSIGN_OR_RETURN(std::string part, ParseIdentifier(&quoted));
    name.Append(std::move(part), quoted);
  } while (AcceptOp("."));
  return name;
}

Result<std::vector<std::string>> Parser::ParseIdentifierList() {
  SQE_RETURN_NOT_OK(ExpectOp("("));
  std::vector<std::string> out;
  do {
    SQE_ASSIGN_OR_RETURN(std::string id, ParseIdentifier());
    out.push_back(std::move(id));
  } while (AcceptOp(","));
  SQE_RETURN_NOT_OK(ExpectOp(")"));
  return out;
}

Result<std::string> Parser::ParseStringLiteral() {
  ExpectHere("<string>");
  if (Current().kind != TokenKind::kString) return Mismatch();
  std::string text = Current().text;
  Advance();
  return text;
}

Result<int64_t> Parser::ParseIntegerLiteral() {
  ExpectHere("<integer>");
  if (Current().kind != TokenKind::kInteger) return Mismatch();
  const std::string& text = Current().text;
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    return ErrorAt(Current().position, "integer " + text + " is out of range");
  }
  Advance();
  return value;
}

Result<ast::TypeName> Parser::ParseType() {
  DepthGuard guard(&depth_);
  SQE_RETURN_NOT_OK(CheckNesting());
  ast::TypeName type;
  ExpectHere("<type>");
  if (Current().kind != TokenKind::kIdentifier && Current().kind != TokenKind::kQuotedIdentifier) {
    return Mismatch();
  }
  type.base = Lower(Current().text);
  Advance();
  if (type.base == "double") {
    Accept("precision");
    return type;
  }
  if (type.base == "interval") {
    // interval day to second, interval year to month
    ExpectHere("<interval field>");
    if (Current().kind == TokenKind::kIdentifier) {
      type.base += " " + Lower(Current().text);
      Advance();
      SQE_RETURN_NOT_OK(Expect("to"));
      ExpectHere("<interval field>");
      if (Current().kind != TokenKind::kIdentifier) return Mismatch();
      type.base += " to " + Lower(Current().text);
      Advance();
    }
    return type;
  }
  const bool angle = (type.base == "array" || type.base == "map") && IsOp("<");
  if (angle) {
    // Hive/Spark spelling: array<int>, map<string, int>
    Advance();
    do {
      SQE_ASSIGN_OR_RETURN(ast::TypeName param, ParseType());
      type.type_params.push_back(std::move(param));
    } while (AcceptOp(","));
    SQE_RETURN_NOT_OK(ExpectOp(">"));
    return type;
  }
  if (AcceptOp("(")) {
    do {
      if (Current().kind == TokenKind::kInteger) {
        SQE_ASSIGN_OR_RETURN(int64_t n, ParseIntegerLiteral());
        type.numeric_params.push_back(n);
      } else if (type.base == "row") {
        // A field: `name type` or just `type`.
        std::string field;
        if (IsIdentifier() && !IsOpAt(1, ",") && !IsOpAt(1, ")") && !IsOpAt(1, "(") &&
            !IsOpAt(1, "<")) {
          field = Current().text;
          Advance();
        }
        SQE_ASSIGN_OR_RETURN(ast::TypeName param, ParseType());
        type.field_names.push_back(std::move(field));
        type.type_params.push_back(std::move(param));
      } else {
        SQE_ASSIGN_OR_RETURN(ast::TypeName param, ParseType());
        type.type_params.push_back(std::move(param));
      }
    } while (AcceptOp(","));
    SQE_RETURN_NOT_OK(ExpectOp(")"));
  }
  if (type.base == "timestamp" || type.base == "time") {
    if (AcceptSeq({"with", "time", "zone"})) {
      type.with_time_zone = true;
    } else {
      AcceptSeq({"without", "time", "zone"});
    }
  }
  return type;
}

// ---------------------------------------------------------------------------------------
// Entry points

Result<ast::StatementPtr> Parser::ParseStatementOnly() {
  SQE_ASSIGN_OR_RETURN(ast::StatementPtr statement, ParseStatementBody());
  AcceptOp(";");
  ExpectHere("<EOF>");
  if (!AtEnd()) return Mismatch();
  return statement;
}

Result<std::vector<ast::StatementPtr>> Parser::ParseScript() {
  std::vector<ast::StatementPtr> out;
  while (true) {
    while (AcceptOp(";")) {
    }
    if (AtEnd()) break;
    next_parameter_ = 0;  // each statement numbers its own ? parameters
    SQE_ASSIGN_OR_RETURN(ast::StatementPtr statement, ParseStatementBody());
    out.push_back(std::move(statement));
    if (AcceptOp(";")) continue;
    ExpectHere("<EOF>");
    if (!AtEnd()) return Mismatch();
  }
  return out;
}

Result<ast::ExprPtr> Parser::ParseStandaloneExpression() {
  SQE_ASSIGN_OR_RETURN(ast::ExprPtr expr, ParseExpr());
  ExpectHere("<EOF>");
  if (!AtEnd()) return Mismatch();
  return expr;
}

Result<ast::StatementPtr> ParseStatement(std::string_view sql) {
  SQE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  Parser parser(sql, std::move(tokens));
  return parser.ParseStatementOnly();
}

Result<std::vector<ast::StatementPtr>> ParseStatements(std::string_view sql) {
  SQE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  Parser parser(sql, std::move(tokens));
  return parser.ParseScript();
}

Result<ast::ExprPtr> ParseExpression(std::string_view sql) {
  SQE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  Parser parser(sql, std::move(tokens));
  return parser.ParseStandaloneExpression();
}

}  // namespace sqe::sql
