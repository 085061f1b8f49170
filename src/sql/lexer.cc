#include "sql/lexer.h"

#include <cctype>
#include <optional>
#include <string>

#include "common/hex.h"

namespace sqe::sql {
namespace {

bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IsIdentPart(unsigned char c) {
  return std::isalnum(c) || c == '_' || c == '@' || c == '$' || c >= 0x80;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class Scanner {
 public:
  explicit Scanner(std::string_view sql) : sql_(sql) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> out;
    while (true) {
      SQE_RETURN_NOT_OK(SkipSpaceAndComments());
      Token t;
      t.position = Here();
      if (pos_ >= sql_.size()) {
        t.kind = TokenKind::kEnd;
        out.push_back(std::move(t));
        return out;
      }
      SQE_RETURN_NOT_OK(Next(&t));
      t.length = static_cast<int64_t>(pos_) - t.position.offset;
      out.push_back(std::move(t));
    }
  }

 private:
  SourcePosition Here() const { return SourcePosition{line_, column_, static_cast<int64_t>(pos_)}; }
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < sql_.size() ? sql_[pos_ + ahead] : '\0';
  }
  void Advance(size_t n = 1) {
    for (size_t i = 0; i < n && pos_ < sql_.size(); ++i) {
      if (sql_[pos_] == '\n') {
        ++line_;
        column_ = 1;
      } else if ((static_cast<unsigned char>(sql_[pos_]) & 0xC0) != 0x80) {
        ++column_;  // columns count characters, not UTF-8 continuation bytes
      }
      ++pos_;
    }
  }
  Status Error(const SourcePosition& at, const std::string& message) const {
    return SqlErrorAt(sql_, at, message);
  }

  Status SkipSpaceAndComments() {
    while (pos_ < sql_.size()) {
      char c = Peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        Advance();
      } else if (c == '-' && Peek(1) == '-') {
        while (pos_ < sql_.size() && Peek() != '\n') Advance();
      } else if (c == '/' && Peek(1) == '*') {
        SourcePosition start = Here();
        Advance(2);
        while (pos_ < sql_.size() && !(Peek() == '*' && Peek(1) == '/')) Advance();
        if (pos_ >= sql_.size()) return Error(start, "unterminated /* comment");
        Advance(2);
      } else {
        break;
      }
    }
    return Status::OK();
  }

  // A quoted run ending at `quote`, where a doubled quote stands for one.
  Status Quoted(char quote, const SourcePosition& start, const char* what, std::string* out) {
    Advance();  // the opening quote
    while (true) {
      if (pos_ >= sql_.size()) return Error(start, std::string("unterminated ") + what);
      char c = Peek();
      if (c == quote) {
        if (Peek(1) == quote) {
          out->push_back(quote);
          Advance(2);
          continue;
        }
        Advance();
        return Status::OK();
      }
      out->push_back(c);
      Advance();
    }
  }

  Status Next(Token* t) {
    const SourcePosition start = Here();
    const char c = Peek();
    const auto uc = static_cast<unsigned char>(c);
    // U&'...' unicode strings and X'..' binary literals before identifiers.
    if ((c == 'U' || c == 'u') && Peek(1) == '&' && Peek(2) == '\'') {
      Advance(2);
      std::string raw;
      SQE_RETURN_NOT_OK(Quoted('\'', start, "string literal", &raw));
      t->kind = TokenKind::kString;
      return DecodeUnicodeEscapes(raw, start, &t->text);
    }
    if ((c == 'X' || c == 'x') && Peek(1) == '\'') {
      Advance();
      std::string hex;
      SQE_RETURN_NOT_OK(Quoted('\'', start, "binary literal", &hex));
      std::string digits;
      for (char h : hex) {
        if (h != ' ') digits.push_back(h);
      }
      if (digits.size() % 2 != 0) return Error(start, "binary literal has an odd number of digits");
      std::optional<std::string> bytes = HexDecode(digits);
      if (!bytes) return Error(start, "binary literal holds a non-hex digit");
      t->text += *bytes;
      t->kind = TokenKind::kBinaryString;
      return Status::OK();
    }
    if (IsIdentStart(uc)) {
      while (pos_ < sql_.size() && IsIdentPart(static_cast<unsigned char>(Peek()))) {
        t->text.push_back(Peek());
        Advance();
      }
      t->kind = TokenKind::kIdentifier;
      return Status::OK();
    }
    if (c == '"') {
      t->kind = TokenKind::kQuotedIdentifier;
      SQE_RETURN_NOT_OK(Quoted('"', start, "quoted identifier", &t->text));
      if (t->text.empty()) return Error(start, "zero-length delimited identifier");
      return Status::OK();
    }
    if (c == '`') return Error(start, "backquoted identifiers are not supported; use \"name\"");
    if (c == '\'') {
      t->kind = TokenKind::kString;
      return Quoted('\'', start, "string literal", &t->text);
    }
    if (std::isdigit(uc) || (c == '.' && std::isdigit(static_cast<unsigned char>(Peek(1))))) {
      return Number(t, start);
    }
    if (c == '?') {
      t->kind = TokenKind::kParameter;
      t->text = "?";
      Advance();
      return Status::OK();
    }
    static constexpr std::string_view kTwo[] = {"<>", "!=", "<=", ">=", "||", "->", "=>"};
    for (std::string_view op : kTwo) {
      if (sql_.substr(pos_, 2) == op) {
        t->kind = TokenKind::kOperator;
        t->text = std::string(op);
        Advance(2);
        return Status::OK();
      }
    }
    static constexpr std::string_view kOne = "=<>+-*/%.,()[];:";
    if (kOne.find(c) != std::string_view::npos) {
      t->kind = TokenKind::kOperator;
      t->text = std::string(1, c);
      Advance();
      return Status::OK();
    }
    std::string shown = uc >= 0x20 && uc < 0x7f ? std::string("'") + c + "'"
                                                : "byte 0x" + HexLower(std::string_view(&c, 1));
    return Error(start, "unexpected character " + shown);
  }

  Status Number(Token* t, const SourcePosition& start) {
    bool dot = false, exponent = false;
    while (pos_ < sql_.size()) {
      char c = Peek();
      if (std::isdigit(static_cast<unsigned char>(c))) {
        t->text.push_back(c);
      } else if (c == '.' && !dot && !exponent) {
        dot = true;
        t->text.push_back(c);
      } else if ((c == 'e' || c == 'E') && !exponent &&
                 (std::isdigit(static_cast<unsigned char>(Peek(1))) ||
                  ((Peek(1) == '+' || Peek(1) == '-') &&
                   std::isdigit(static_cast<unsigned char>(Peek(2)))))) {
        exponent = true;
        t->text.push_back(c);
        Advance();
        t->text.push_back(Peek());
      } else {
        break;
      }
      Advance();
    }
    if (IsIdentStart(static_cast<unsigned char>(Peek()))) {
      return Error(start, "a number cannot run into a name ('" + t->text + Peek() +
                              "...'); separate them with a space");
    }
    t->kind = exponent ? TokenKind::kDouble : dot ? TokenKind::kDecimal : TokenKind::kInteger;
    return Status::OK();
  }

  // U&'...': \XXXX and \+XXXXXX escapes (Trino's default escape character '\').
  Status DecodeUnicodeEscapes(const std::string& raw, const SourcePosition& start,
                              std::string* out) const {
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '\\') {
        out->push_back(raw[i]);
        continue;
      }
      if (i + 1 < raw.size() && raw[i + 1] == '\\') {
        out->push_back('\\');
        ++i;
        continue;
      }
      size_t digits = (i + 1 < raw.size() && raw[i + 1] == '+') ? 6 : 4;
      size_t first = i + 1 + (digits == 6 ? 1 : 0);
      if (first + digits > raw.size()) {
        return Error(start, "incomplete unicode escape in U&'' string");
      }
      uint32_t cp = 0;
      for (size_t k = 0; k < digits; ++k) {
        int v = HexDigitValue(raw[first + k]);
        if (v < 0) return Error(start, "invalid unicode escape in U&'' string");
        cp = cp * 16 + static_cast<uint32_t>(v);
      }
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return Error(start, "unicode escape names no character in U&'' string");
      }
      AppendUtf8(cp, out);
      i = first + digits - 1;
    }
    return Status::OK();
  }

  std::string_view sql_;
  size_t pos_ = 0;
  int32_t line_ = 1;
  int32_t column_ = 1;
};

}  // namespace

bool Token::IsKeyword(std::string_view keyword) const {
  if (kind != TokenKind::kIdentifier || text.size() != keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) !=
        std::toupper(static_cast<unsigned char>(keyword[i]))) {
      return false;
    }
  }
  return true;
}

const char* TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kIdentifier:
      return "identifier";
    case TokenKind::kQuotedIdentifier:
      return "quoted identifier";
    case TokenKind::kString:
      return "string";
    case TokenKind::kBinaryString:
      return "binary string";
    case TokenKind::kInteger:
      return "integer";
    case TokenKind::kDecimal:
      return "decimal";
    case TokenKind::kDouble:
      return "double";
    case TokenKind::kParameter:
      return "parameter";
    case TokenKind::kOperator:
      return "operator";
  }
  return "token";
}

Result<std::vector<Token>> Tokenize(std::string_view sql) { return Scanner(sql).Run(); }

Status SqlErrorAt(std::string_view sql, const SourcePosition& at, const std::string& message) {
  // The source line holding `at`, and a caret under its column (columns count characters).
  size_t begin =
      static_cast<size_t>(std::min<int64_t>(at.offset, static_cast<int64_t>(sql.size())));
  while (begin > 0 && sql[begin - 1] != '\n') --begin;
  size_t end = sql.find('\n', begin);
  std::string_view line = sql.substr(begin, end == std::string_view::npos ? sql.npos : end - begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  constexpr size_t kMaxShown = 200;
  std::string shown(line.substr(0, kMaxShown));
  std::string caret(static_cast<size_t>(std::max(0, at.column - 1)), ' ');
  for (size_t i = 0; i < caret.size() && i < shown.size(); ++i) {
    if (shown[i] == '\t') caret[i] = '\t';  // keep the caret aligned under tabs
  }
  return Status::InvalidArgument("line " + std::to_string(at.line) + ":" +
                                 std::to_string(at.column) + ": " + message + "\n" + shown + "\n" +
                                 caret + "^");
}

}  // namespace sqe::sql
