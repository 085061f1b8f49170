#pragma once
/// Parser: the recursive-descent parser behind sql/parser.h, split over parser.cc (tokens,
/// errors, names, types), parser_expression.cc, parser_query.cc and parser_statement.cc.
/// One instance parses one text; not thread safe.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "sql/ast.h"
#include "sql/token.h"

namespace sqe::sql {

/// Counts nesting while alive; the parser refuses input nested deeper than kMaxDepth, so
/// hostile or generated SQL gets an error instead of overflowing the stack.
class DepthGuard {
 public:
  explicit DepthGuard(int* depth) : depth_(depth) { ++*depth_; }
  ~DepthGuard() { --*depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  int* depth_;
};

class Parser {
 public:
  /// Nesting levels (about three per parenthesis) a statement may use.
  static constexpr int kMaxDepth = 1000;

  Parser(std::string_view sql, std::vector<Token> tokens);

  Result<ast::StatementPtr> ParseStatementOnly();
  Result<std::vector<ast::StatementPtr>> ParseScript();
  Result<ast::ExprPtr> ParseStandaloneExpression();

  // ---- token access (parser.cc)
  const Token& Peek(size_t ahead = 0) const;
  const Token& Current() const { return Peek(0); }
  void Advance() {
    if (index_ + 1 < tokens_.size()) ++index_;
  }
  bool AtEnd() const { return Current().kind == TokenKind::kEnd; }

  /// Whether the current token is `keyword` (unquoted, any case). Records `keyword` as
  /// expected here, for the error message should nothing match; only a view is kept, so
  /// `keyword` (and `op` below) must be string literals or other static text.
  bool Is(std::string_view keyword);
  bool IsOp(std::string_view op);
  /// Peek-ahead checks that do not record expectations.
  bool IsAt(size_t ahead, std::string_view keyword) const { return Peek(ahead).IsKeyword(keyword); }
  bool IsOpAt(size_t ahead, std::string_view op) const { return Peek(ahead).IsOperator(op); }
  bool Accept(std::string_view keyword);
  bool AcceptOp(std::string_view op);
  /// Accepts the keywords in sequence only if all of them are there.
  bool AcceptSeq(std::initializer_list<std::string_view> keywords);
  Status Expect(std::string_view keyword);
  Status ExpectOp(std::string_view op);
  /// Records a non-literal expectation such as "<identifier>" or "<expression>".
  /// `what` must outlive the parser (a string literal): only a view is kept.
  void ExpectHere(std::string_view what) { Record(what, ExpectedKind::kVerbatim); }

  /// "mismatched input 'X'. Expecting: ..." at the current token.
  Status Mismatch();
  Status ErrorAt(const SourcePosition& pos, const std::string& message) const;
  /// The error for input nested deeper than kMaxDepth.
  Status TooDeep() const;
  /// TooDeep once nesting passes kMaxDepth or the stack this thread has left runs low
  /// (sanitizer builds use far more stack per level than release builds).
  Status CheckNesting() const;
  /// For left-deep chains (a + b + c ..., joins, UNIONs): each link is one more level of
  /// the tree that later passes walk recursively.
  Status CheckChain(size_t links) const {
    return depth_ + static_cast<int>(links) > kMaxDepth ? TooDeep() : Status::OK();
  }

  // ---- names and types (parser.cc)
  static bool IsReserved(const Token& t);
  /// An identifier (quoted, or an unquoted non-reserved word).
  bool IsIdentifier(size_t ahead = 0) const;
  Result<std::string> ParseIdentifier(bool* quoted = nullptr);
  Result<ast::QualifiedName> ParseQualifiedName();
  Result<std::vector<std::string>> ParseIdentifierList();  ///< ( a, b, ... )
  Result<ast::TypeName> ParseType();
  Result<std::string> ParseStringLiteral();
  Result<int64_t> ParseIntegerLiteral();

  // ---- expressions (parser_expression.cc)
  Result<ast::ExprPtr> ParseExpr();  ///< OR level (a full boolean expression)
  Result<ast::ExprPtr> ParseAnd();
  Result<ast::ExprPtr> ParseNot();
  Result<ast::ExprPtr> ParsePredicate();
  Result<ast::ExprPtr> ParseValueExpr();  ///< || level
  Result<ast::ExprPtr> ParseAdditive();
  Result<ast::ExprPtr> ParseMultiplicative();
  Result<ast::ExprPtr> ParseUnary();
  Result<ast::ExprPtr> ParseAtTimeZone();
  Result<ast::ExprPtr> ParsePostfix();
  Result<ast::ExprPtr> ParsePrimary();
  Result<ast::ExprPtr> ParseParenthesized();
  Result<ast::ExprPtr> ParseCase();
  Result<ast::ExprPtr> ParseIntervalLiteral();
  Result<ast::ExprPtr> ParseFunctionCall(ast::QualifiedName name, SourcePosition pos);
  Result<ast::ExprPtr> ParseSpecialForm(bool* matched);
  /// A call argument: expression or `name => expression`.
  Result<ast::ExprPtr> ParseArgument();
  Result<std::vector<ast::ExprPtr>> ParseExprList();  ///< e1, e2, ... (at least one)
  Result<ast::WindowSpec> ParseWindowSpecBody();      ///< inside the parentheses
  Result<ast::FrameBound> ParseFrameBound();
  Result<std::vector<ast::SortItem>> ParseSortItems();
  bool StartsQuery(size_t ahead) const;

  // ---- queries (parser_query.cc)
  Result<ast::QueryPtr> ParseQuery();
  Result<ast::QueryBodyPtr> ParseQueryTerm();  ///< UNION / EXCEPT level
  Result<ast::QueryBodyPtr> ParseIntersectTerm();
  Result<ast::QueryBodyPtr> ParseQueryPrimary();
  Result<std::shared_ptr<ast::Select>> ParseSelect();
  Result<ast::SelectItem> ParseSelectItem();
  Result<ast::GroupBy> ParseGroupBy();
  Result<ast::RelationPtr> ParseRelation();  ///< with joins
  Result<ast::RelationPtr> ParseAliasedRelation();
  Result<ast::RelationPtr> ParseRelationPrimary();
  Status ParseAlias(ast::Relation* relation);
  Status ParseTableSample(ast::Relation* relation);
  /// Whether the current token may start an implicit alias (`FROM t x`, `SELECT a b`).
  bool CanStartImplicitAlias() const;

  // ---- statements (parser_statement.cc)
  Result<ast::StatementPtr> ParseStatementBody();
  Result<ast::StatementPtr> ParseCreate();
  Result<ast::StatementPtr> ParseCreateTable(SourcePosition pos, bool or_replace);
  Result<ast::StatementPtr> ParseDrop();
  Result<ast::StatementPtr> ParseAlter();
  Result<ast::StatementPtr> ParseShow();
  Result<ast::StatementPtr> ParseExplain();
  Result<ast::StatementPtr> ParseInsert();
  Result<ast::StatementPtr> ParseDelete();
  Result<ast::StatementPtr> ParseUpdate();
  Result<ast::StatementPtr> ParseMerge();
  Result<ast::StatementPtr> ParseGrantRevoke(bool grant);
  Result<ast::StatementPtr> ParseSecret(SourcePosition pos, bool or_replace, bool create);
  Result<ast::StatementPtr> ParseAttach();
  Result<ast::StatementPtr> ParseDescribe();
  Result<ast::StatementPtr> ParseSet();
  Result<std::vector<ast::Property>> ParseProperties();  ///< ( name = expr, ... )
  Result<ast::ColumnDefinition> ParseColumnDefinition();
  Result<ast::LikeFilter> ParseLikeFilter();
  Result<std::vector<ast::Assignment>> ParseAssignments();
  Result<std::vector<ast::Property>> ParseOptionList();  ///< ( KEY value, ... )

 private:
  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t index_ = 0;
  int32_t next_parameter_ = 0;
  int depth_ = 0;
  uintptr_t stack_start_ = 0;  // frame address when parsing began
  size_t stack_budget_ = 0;    // bytes below stack_start_ the parser may use
  // The furthest token index anything was expected at, and what was.
  // What was tested at the furthest token reached, kept as views of literals and formatted
  // only when an error is reported: the parser tests several words at nearly every token.
  enum class ExpectedKind : uint8_t { kKeyword, kOperator, kVerbatim };
  struct Expected {
    std::string_view text;
    ExpectedKind kind;
  };
  void Record(std::string_view text, ExpectedKind kind) {
    if (index_ < expected_index_) return;
    if (index_ > expected_index_) {
      expected_.clear();
      expected_index_ = index_;
    }
    expected_.push_back(Expected{text, kind});
  }
  size_t expected_index_ = 0;
  std::vector<Expected> expected_;
};

}  // namespace sqe::sql
