// The SQL lexer: every token kind, escapes, comments, positions, and errors that point at
// the offending character with line:column and a caret.
#include "sql/lexer.h"

#include <gtest/gtest.h>

namespace sqe::sql {
namespace {

std::vector<Token> Lex(std::string_view sql) {
  auto r = Tokenize(sql);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::vector<Token>{};
}

std::string Kinds(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) {
    if (!out.empty()) out += " ";
    out += std::string(TokenKindName(t.kind)) + ":" + t.text;
  }
  return out;
}

TEST(Lexer, TokenKindsAndValues) {
  auto t =
      Lex(R"(SELECT "My ""col""", 'it''s', 42, 4.2, .5, 1e3, 2.5E-2, x'0aFF', ? FROM t$snapshots)");
  EXPECT_EQ(Kinds(t),
            "identifier:SELECT quoted identifier:My \"col\" operator:, string:it's operator:, "
            "integer:42 operator:, decimal:4.2 operator:, decimal:.5 operator:, double:1e3 "
            "operator:, double:2.5E-2 operator:, binary string:\n\xff operator:, parameter:? "
            "identifier:FROM identifier:t$snapshots end of input:");
  EXPECT_TRUE(t[0].IsKeyword("select"));
  EXPECT_FALSE(t[1].IsKeyword("My \"col\""));
}

TEST(Lexer, OperatorsCommentsAndPositions) {
  auto t = Lex("a<>b != c <= d >= e || f -> g => h -- note\n/* block\n */ x.y[1]::z;");
  std::vector<std::string> ops;
  for (const Token& tok : t) {
    if (tok.kind == TokenKind::kOperator) ops.push_back(tok.text);
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"<>", "!=", "<=", ">=", "||", "->", "=>", ".", "[", "]",
                                           ":", ":", ";"}));
  const Token& x = t[15];
  ASSERT_EQ(x.text, "x");
  EXPECT_EQ(x.position.line, 3);
  EXPECT_EQ(x.position.column, 5);
  EXPECT_EQ(x.length, 1);
}

TEST(Lexer, UnicodeStringsAndColumnsCountCharacters) {
  auto t = Lex("U&'caf\\00E9 \\+01F600 \\\\' 'é' z");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].text, "caf\xc3\xa9 \xf0\x9f\x98\x80 \\");
  EXPECT_EQ(t[1].text, "\xc3\xa9");
  EXPECT_EQ(t[2].position.column, 30);  // 'é' is one column
}

TEST(Lexer, ErrorsPointAtTheProblem) {
  struct Case {
    std::string sql;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {"SELECT 'open", "line 1:8: unterminated string literal\nSELECT 'open\n       ^"},
           {"SELECT 1,\n  \"x", "line 2:3: unterminated quoted identifier\n  \"x\n  ^"},
           {"SELECT #", "line 1:8: unexpected character '#'"},
           {"SELECT 12abc", "line 1:8: a number cannot run into a name"},
           {"SELECT \"\"", "line 1:8: zero-length delimited identifier"},
           {"/* never closed", "line 1:1: unterminated /* comment"},
           {"SELECT x'abc'", "odd number of digits"},
           {"SELECT x'zz'", "non-hex digit"},
           {"SELECT U&'\\D800'", "names no character"},
           {"SELECT `a`", "backquoted identifiers are not supported"},
       }) {
    auto r = Tokenize(c.sql);
    ASSERT_FALSE(r.ok()) << c.sql;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(c.message), std::string::npos) << c.sql << "\n"
                                                                       << r.status().message();
  }
}

}  // namespace
}  // namespace sqe::sql
