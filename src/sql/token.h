#pragma once
/// Token: one lexical unit of SQL text with where it starts (1-based line and column, and
/// the byte offset) so every later error can point at it.

#include <cstdint>
#include <string>
#include <string_view>

namespace sqe::sql {

enum class TokenKind : uint8_t {
  kEnd,
  kIdentifier,        ///< unquoted word (keywords too: the parser decides)
  kQuotedIdentifier,  ///< "..." with "" unescaped
  kString,            ///< '...' with '' unescaped (U&'...' escapes decoded)
  kBinaryString,      ///< X'0A0B' (text holds the raw bytes)
  kInteger,           ///< 42
  kDecimal,           ///< 4.2, .5, 42.
  kDouble,            ///< 4.2e1, 1E-3
  kParameter,         ///< ?
  kOperator,          ///< = <> != < <= > >= + - * / % || -> => . , ( ) [ ] ; :
};

struct SourcePosition {
  int32_t line = 1;
  int32_t column = 1;
  int64_t offset = 0;
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  /// The value: identifiers as written (quoted ones unescaped), strings unescaped,
  /// numbers and operators as written.
  std::string text;
  SourcePosition position;
  /// Bytes of the source the token spans.
  int64_t length = 0;

  bool IsOperator(std::string_view op) const { return kind == TokenKind::kOperator && text == op; }
  /// Case-insensitive keyword match of an unquoted identifier.
  bool IsKeyword(std::string_view keyword) const;
};

const char* TokenKindName(TokenKind kind);

}  // namespace sqe::sql
