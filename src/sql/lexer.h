#pragma once
/// Lexer: SQL text (Trino's dialect) to tokens. Whitespace and comments (-- to end of line,
/// /* ... */) are skipped. Errors are InvalidArgument with line:column and a caret excerpt
/// of the offending line (SqlErrorAt), e.g. an unterminated string or an unknown character.

#include <string_view>
#include <vector>

#include "common/result.h"
#include "sql/token.h"

namespace sqe::sql {

/// Every token of `sql`, ending with one kEnd token.
Result<std::vector<Token>> Tokenize(std::string_view sql);

/// "line 3:14: <message>" followed by the source line and a caret under the column: the
/// form every SQL error (lexer, parser, binder) takes.
Status SqlErrorAt(std::string_view sql, const SourcePosition& at, const std::string& message);

}  // namespace sqe::sql
