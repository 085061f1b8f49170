#pragma once
/// A small XML reader and escaper for the documents remote services answer with (S3
/// ListObjectsV2, multipart and error bodies; STS later). It builds an element tree
/// (names, attributes, text) and handles the XML prolog, comments, CDATA, the five
/// predefined entities and numeric character references; it does not do DTDs or
/// namespaces beyond keeping prefixes as part of names (S3's xmlns is an attribute).
/// Malformed input is Corruption naming the byte offset; nesting deeper than 64 levels
/// is Corruption too (no recursion bombs from a hostile server).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace sqe::net {

struct XmlElement {
  std::string name;
  /// Concatenated character data directly inside this element (entities decoded,
  /// CDATA included, not trimmed).
  std::string text;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlElement> children;

  /// First child named `name`, or nullptr.
  const XmlElement* Child(std::string_view name) const;
  /// Every child named `name`, in document order.
  std::vector<const XmlElement*> Children(std::string_view name) const;
  /// Text of the first child named `name`, or "" when there is none.
  std::string ChildText(std::string_view name) const;
};

/// Parses a document and returns its root element.
Result<XmlElement> ParseXml(std::string_view document);

/// Escapes &, <, >, " and ' for text and attribute values.
std::string XmlEscape(std::string_view text);

}  // namespace sqe::net
