#pragma once
/// The SQL parser: Trino's dialect (plus a few Spark/DuckDB forms: PARTITIONED BY, SET
/// TBLPROPERTIES, secrets, ATTACH) to the AST of sql/ast.h. Hand-written recursive descent
/// over the lexer's tokens. Errors are InvalidArgument in Trino's style, with line:column and
/// a caret: "line 1:10: mismatched input 'FORM'. Expecting: ',', 'FROM', ...".
/// Stateless and thread safe: each call parses its own text.

#include <string_view>
#include <vector>

#include "common/result.h"
#include "sql/ast.h"

namespace sqe::sql {

/// One statement, with an optional trailing ';'.
Result<ast::StatementPtr> ParseStatement(std::string_view sql);

/// A ';'-separated script; empty statements (";;") are skipped.
Result<std::vector<ast::StatementPtr>> ParseStatements(std::string_view sql);

/// One expression (tests, column defaults, CHECK constraints).
Result<ast::ExprPtr> ParseExpression(std::string_view sql);

}  // namespace sqe::sql
