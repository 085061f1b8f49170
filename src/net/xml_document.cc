#include "net/xml_document.h"

#include <cstdint>

#include "common/hex.h"

namespace sqe::net {

namespace {

constexpr int kMaxDepth = 64;

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool IsNameStart(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || u >= 0x80;
}

bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

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

/// Recursive descent over the document; recursion is bounded by kMaxDepth, so a hostile
/// server cannot exhaust the stack.
class XmlParser {
 public:
  explicit XmlParser(std::string_view doc) : doc_(doc) {}

  Result<XmlElement> ParseDocument() {
    // A UTF-8 byte order mark is allowed before the prolog.
    if (doc_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    SQE_RETURN_NOT_OK(SkipMisc(/*allow_doctype=*/true));
    if (AtEnd()) return Error(pos_, "document has no root element");
    if (doc_[pos_] != '<') return Error(pos_, "expected '<' to open the root element");
    XmlElement root;
    SQE_RETURN_NOT_OK(ParseElement(1, &root));
    SQE_RETURN_NOT_OK(SkipMisc(/*allow_doctype=*/false));
    if (!AtEnd())
      return Error(pos_, "unexpected content after the root element </" + root.name + ">");
    return root;
  }

 private:
  bool AtEnd() const { return pos_ >= doc_.size(); }
  bool StartsWith(std::string_view s) const { return doc_.substr(pos_, s.size()) == s; }

  static Status Error(size_t offset, const std::string& what) {
    return Status::Corruption("malformed XML at byte " + std::to_string(offset) + ": " + what);
  }

  void SkipSpace() {
    while (!AtEnd() && IsXmlSpace(doc_[pos_])) ++pos_;
  }

  /// Skips from the current position past `terminator`; `what` names the construct for
  /// the truncation error.
  Status SkipPast(std::string_view terminator, const char* what) {
    const size_t start = pos_;
    const size_t end = doc_.find(terminator, pos_);
    if (end == std::string_view::npos) return Error(start, std::string("unterminated ") + what);
    pos_ = end + terminator.size();
    return Status::OK();
  }

  /// Whitespace, comments and processing instructions (the prolog's `<?xml ...?>` among
  /// them) outside the root element; before the root also a DOCTYPE, which is skipped.
  Status SkipMisc(bool allow_doctype) {
    for (;;) {
      SkipSpace();
      if (StartsWith("<?")) {
        SQE_RETURN_NOT_OK(SkipPast("?>", "processing instruction"));
      } else if (StartsWith("<!--")) {
        SQE_RETURN_NOT_OK(SkipPast("-->", "comment"));
      } else if (allow_doctype && StartsWith("<!DOCTYPE")) {
        SQE_RETURN_NOT_OK(SkipDoctype());
      } else {
        return Status::OK();
      }
    }
  }

  /// Skips `<!DOCTYPE ...>` including a bracketed internal subset; its declarations are
  /// not interpreted (entities it declares stay unknown).
  Status SkipDoctype() {
    const size_t start = pos_;
    int brackets = 0;
    char quote = 0;
    for (; pos_ < doc_.size(); ++pos_) {
      const char c = doc_[pos_];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[') {
        ++brackets;
      } else if (c == ']') {
        --brackets;
      } else if (c == '>' && brackets <= 0) {
        ++pos_;
        return Status::OK();
      }
    }
    return Error(start, "unterminated DOCTYPE");
  }

  Result<std::string> ParseName() {
    const size_t start = pos_;
    if (AtEnd()) return Error(pos_, "unexpected end of document where a name was expected");
    if (!IsNameStart(doc_[pos_])) {
      return Error(pos_, std::string("invalid name start character '") + doc_[pos_] + "'");
    }
    while (!AtEnd() && IsNameChar(doc_[pos_])) ++pos_;
    return std::string(doc_.substr(start, pos_ - start));
  }

  /// Decodes the reference at pos_ ('&') and appends it to `out`.
  Status ParseReference(std::string* out) {
    const size_t start = pos_;
    // Look for ';' only nearby: the longest legal reference is "&#x10FFFF;" (leading
    // zeros aside), and a bounded search keeps stray '&'s from making parsing quadratic.
    const size_t semi_rel = doc_.substr(start, 32).find(';');
    if (semi_rel == std::string_view::npos) return Error(start, "unterminated entity reference");
    const size_t semi = start + semi_rel;
    const std::string_view ref = doc_.substr(start + 1, semi - start - 1);
    pos_ = semi + 1;
    if (ref == "lt") {
      out->push_back('<');
    } else if (ref == "gt") {
      out->push_back('>');
    } else if (ref == "amp") {
      out->push_back('&');
    } else if (ref == "quot") {
      out->push_back('"');
    } else if (ref == "apos") {
      out->push_back('\'');
    } else if (!ref.empty() && ref[0] == '#') {
      const bool hex = ref.size() > 1 && ref[1] == 'x';
      const std::string_view digits = ref.substr(hex ? 2 : 1);
      if (digits.empty()) return Error(start, "empty character reference");
      uint32_t cp = 0;
      for (char c : digits) {
        const int v = hex ? HexDigitValue(c) : (c >= '0' && c <= '9' ? c - '0' : -1);
        if (v < 0) {
          return Error(start, "invalid character reference '&" + std::string(ref) + ";'");
        }
        cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(v);
        if (cp > 0x10FFFF) break;
      }
      if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return Error(start, "character reference '&" + std::string(ref) +
                                ";' is not a valid Unicode scalar value");
      }
      AppendUtf8(cp, out);
    } else {
      return Error(start, "unknown entity '&" + std::string(ref) + ";'");
    }
    return Status::OK();
  }

  Status ParseAttributeValue(std::string* out) {
    if (AtEnd() || (doc_[pos_] != '"' && doc_[pos_] != '\'')) {
      return Error(pos_, "expected a quoted attribute value");
    }
    const size_t start = pos_;
    const char quote = doc_[pos_++];
    for (;;) {
      if (AtEnd()) return Error(start, "unterminated attribute value");
      const char c = doc_[pos_];
      if (c == quote) {
        ++pos_;
        return Status::OK();
      }
      if (c == '<') return Error(pos_, "'<' inside an attribute value");
      if (c == '&') {
        SQE_RETURN_NOT_OK(ParseReference(out));
      } else {
        out->push_back(c);
        ++pos_;
      }
    }
  }

  /// Parses the element starting at pos_ ('<') into `element`; `depth` is 1 for the root.
  Status ParseElement(int depth, XmlElement* element) {
    const size_t open_at = pos_;
    if (depth > kMaxDepth) {
      return Error(open_at, "elements nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    ++pos_;  // '<'
    SQE_ASSIGN_OR_RETURN(element->name, ParseName());

    // Attributes, then '>' or '/>'.
    for (;;) {
      const size_t before_space = pos_;
      SkipSpace();
      if (AtEnd()) return Error(open_at, "unexpected end of document inside tag <" + element->name);
      if (StartsWith("/>")) {
        pos_ += 2;
        return Status::OK();
      }
      if (doc_[pos_] == '>') {
        ++pos_;
        break;
      }
      if (pos_ == before_space) {
        return Error(pos_, "expected whitespace, '>' or '/>' in tag <" + element->name);
      }
      const size_t attr_at = pos_;
      SQE_ASSIGN_OR_RETURN(std::string attr_name, ParseName());
      for (const auto& [existing, unused] : element->attributes) {
        if (existing == attr_name) {
          return Error(attr_at,
                       "duplicate attribute '" + attr_name + "' on <" + element->name + ">");
        }
      }
      SkipSpace();
      if (AtEnd() || doc_[pos_] != '=') {
        return Error(pos_, "expected '=' after attribute '" + attr_name + "'");
      }
      ++pos_;
      SkipSpace();
      std::string value;
      SQE_RETURN_NOT_OK(ParseAttributeValue(&value));
      element->attributes.emplace_back(std::move(attr_name), std::move(value));
    }

    // Content up to the matching end tag.
    for (;;) {
      if (AtEnd()) {
        return Error(pos_, "unexpected end of document: <" + element->name + "> opened at byte " +
                               std::to_string(open_at) + " is not closed");
      }
      const char c = doc_[pos_];
      if (c == '&') {
        SQE_RETURN_NOT_OK(ParseReference(&element->text));
        continue;
      }
      if (c != '<') {
        // Copy the run of plain character data in one go.
        const size_t end = doc_.find_first_of("<&", pos_);
        const size_t stop = end == std::string_view::npos ? doc_.size() : end;
        element->text.append(doc_.substr(pos_, stop - pos_));
        pos_ = stop;
        continue;
      }
      if (StartsWith("</")) {
        const size_t close_at = pos_;
        pos_ += 2;
        SQE_ASSIGN_OR_RETURN(std::string close_name, ParseName());
        if (close_name != element->name) {
          return Error(close_at, "end tag </" + close_name + "> does not match <" + element->name +
                                     "> opened at byte " + std::to_string(open_at));
        }
        SkipSpace();
        if (AtEnd() || doc_[pos_] != '>') {
          return Error(pos_, "expected '>' to finish end tag </" + close_name);
        }
        ++pos_;
        return Status::OK();
      }
      if (StartsWith("<!--")) {
        SQE_RETURN_NOT_OK(SkipPast("-->", "comment"));
      } else if (StartsWith("<![CDATA[")) {
        const size_t start = pos_;
        const size_t end = doc_.find("]]>", pos_ + 9);
        if (end == std::string_view::npos) return Error(start, "unterminated CDATA section");
        element->text.append(doc_.substr(pos_ + 9, end - pos_ - 9));
        pos_ = end + 3;
      } else if (StartsWith("<?")) {
        SQE_RETURN_NOT_OK(SkipPast("?>", "processing instruction"));
      } else if (StartsWith("<!")) {
        return Error(pos_, "unsupported markup declaration inside <" + element->name + ">");
      } else {
        XmlElement child;
        SQE_RETURN_NOT_OK(ParseElement(depth + 1, &child));
        element->children.push_back(std::move(child));
      }
    }
  }

  std::string_view doc_;
  size_t pos_ = 0;
};

}  // namespace

const XmlElement* XmlElement::Child(std::string_view child_name) const {
  for (const XmlElement& child : children) {
    if (child.name == child_name) return &child;
  }
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::Children(std::string_view child_name) const {
  std::vector<const XmlElement*> out;
  for (const XmlElement& child : children) {
    if (child.name == child_name) out.push_back(&child);
  }
  return out;
}

std::string XmlElement::ChildText(std::string_view child_name) const {
  const XmlElement* child = Child(child_name);
  return child == nullptr ? std::string() : child->text;
}

Result<XmlElement> ParseXml(std::string_view document) {
  return XmlParser(document).ParseDocument();
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

}  // namespace sqe::net
