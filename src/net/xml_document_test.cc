#include "net/xml_document.h"

#include <gtest/gtest.h>

#include <string>

namespace sqe::net {
namespace {

XmlElement MustParse(std::string_view doc) {
  Result<XmlElement> r = ParseXml(doc);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : XmlElement{};
}

void ExpectCorruption(std::string_view doc, std::string_view fragment = "") {
  Result<XmlElement> r = ParseXml(doc);
  ASSERT_FALSE(r.ok()) << "parsed: " << doc;
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << r.status().ToString();
  EXPECT_NE(r.status().message().find(fragment), std::string::npos) << r.status().ToString();
}

TEST(XmlDocumentTest, ParsesPrologAttributesAndChildren) {
  XmlElement root = MustParse(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\" a='1'>"
      "<Name>bucket</Name><Contents><Key>x</Key></Contents><Contents><Key>y</Key></Contents>"
      "</ListBucketResult>\n");
  EXPECT_EQ(root.name, "ListBucketResult");
  ASSERT_EQ(root.attributes.size(), 2u);
  EXPECT_EQ(root.attributes[0].first, "xmlns");
  EXPECT_EQ(root.attributes[0].second, "http://s3.amazonaws.com/doc/2006-03-01/");
  EXPECT_EQ(root.attributes[1].first, "a");
  EXPECT_EQ(root.attributes[1].second, "1");
  EXPECT_EQ(root.ChildText("Name"), "bucket");
  EXPECT_EQ(root.ChildText("Missing"), "");
  EXPECT_EQ(root.Child("Missing"), nullptr);
  std::vector<const XmlElement*> contents = root.Children("Contents");
  ASSERT_EQ(contents.size(), 2u);
  EXPECT_EQ(contents[0]->ChildText("Key"), "x");
  EXPECT_EQ(contents[1]->ChildText("Key"), "y");
}

TEST(XmlDocumentTest, SelfClosingTagsAndWhitespaceInTags) {
  XmlElement root = MustParse("<a><b/><c x = \"1\" /><d\n></d ></a>");
  ASSERT_EQ(root.children.size(), 3u);
  EXPECT_EQ(root.children[0].name, "b");
  EXPECT_TRUE(root.children[0].children.empty());
  EXPECT_EQ(root.children[1].name, "c");
  ASSERT_EQ(root.children[1].attributes.size(), 1u);
  EXPECT_EQ(root.children[1].attributes[0].second, "1");
  EXPECT_EQ(root.children[2].name, "d");
  EXPECT_EQ(MustParse("<only/>").name, "only");
}

TEST(XmlDocumentTest, DecodesPredefinedEntitiesInTextAndAttributes) {
  XmlElement root =
      MustParse("<k v=\"&quot;q&quot; &amp; &apos;s&apos;\">a&amp;b&lt;c&gt;.txt</k>");
  EXPECT_EQ(root.text, "a&b<c>.txt");
  EXPECT_EQ(root.attributes[0].second, "\"q\" & 's'");
}

TEST(XmlDocumentTest, DecodesNumericReferencesAsUtf8) {
  EXPECT_EQ(MustParse("<t>&#65;&#x42;&#x63;</t>").text, "ABc");
  EXPECT_EQ(MustParse("<t>&#xE9;</t>").text, "\xC3\xA9");             // é
  EXPECT_EQ(MustParse("<t>&#8364;</t>").text, "\xE2\x82\xAC");        // €
  EXPECT_EQ(MustParse("<t>&#x1F600;</t>").text, "\xF0\x9F\x98\x80");  // 😀
  EXPECT_EQ(MustParse("<t>&#10;</t>").text, "\n");
}

TEST(XmlDocumentTest, RejectsBadReferences) {
  ExpectCorruption("<t>&nbsp;</t>", "unknown entity");
  ExpectCorruption("<t>&#;</t>");
  ExpectCorruption("<t>&#xZZ;</t>");
  ExpectCorruption("<t>&#0;</t>");
  ExpectCorruption("<t>&#xD800;</t>");
  ExpectCorruption("<t>&#x110000;</t>");
  ExpectCorruption("<t>a & b</t>", "entity");
}

TEST(XmlDocumentTest, CdataCommentsAndProcessingInstructions) {
  XmlElement root = MustParse(
      "<!-- before -->\n<?pi stuff?>\n<r><!-- inside -->a<![CDATA[<b>&amp;]]>c<?x y?>d</r>\n"
      "<!-- after -->\n");
  EXPECT_EQ(root.text, "a<b>&amp;cd");
  EXPECT_TRUE(root.children.empty());
}

TEST(XmlDocumentTest, KeepsTextUntrimmed) {
  XmlElement root = MustParse("<r>\n  <a> x </a>\n</r>");
  EXPECT_EQ(root.ChildText("a"), " x ");
  EXPECT_EQ(root.text, "\n  \n");
}

TEST(XmlDocumentTest, SkipsBomAndDoctype) {
  XmlElement root =
      MustParse("\xEF\xBB\xBF<?xml version=\"1.0\"?><!DOCTYPE r [<!ELEMENT r ANY>]><r/>");
  EXPECT_EQ(root.name, "r");
}

TEST(XmlDocumentTest, MismatchedEndTagNamesOffsetAndBothNames) {
  Result<XmlElement> r = ParseXml("<a><b>text</c></a>");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  const std::string& msg = r.status().message();
  EXPECT_NE(msg.find("byte 10"), std::string::npos) << msg;
  EXPECT_NE(msg.find("</c>"), std::string::npos) << msg;
  EXPECT_NE(msg.find("<b>"), std::string::npos) << msg;
}

TEST(XmlDocumentTest, TruncatedDocumentsAreCorruption) {
  const std::string doc =
      "<?xml version=\"1.0\"?><r a=\"1\"><k>v&amp;w</k><![CDATA[x]]><!-- c --><s/></r>";
  // Every strict prefix that still holds the start of the root must fail cleanly.
  for (size_t n = 0; n < doc.size(); ++n) {
    Result<XmlElement> r = ParseXml(doc.substr(0, n));
    EXPECT_FALSE(r.ok()) << "prefix of " << n << " bytes parsed";
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << n;
    }
  }
  EXPECT_TRUE(ParseXml(doc).ok());
  ExpectCorruption("<r><k>value", "not closed");
  ExpectCorruption("", "no root");
  ExpectCorruption("   \n");
}

TEST(XmlDocumentTest, DepthLimit) {
  auto nested = [](int depth) {
    std::string s;
    for (int i = 0; i < depth; ++i) s += "<e>";
    for (int i = 0; i < depth; ++i) s += "</e>";
    return s;
  };
  EXPECT_TRUE(ParseXml(nested(64)).ok());
  ExpectCorruption(nested(65), "deeper than 64");
  // A hostile unclosed stream of opens is rejected by depth, not by the stack.
  std::string bomb;
  for (int i = 0; i < 100000; ++i) bomb += "<e>";
  ExpectCorruption(bomb, "deeper than 64");
}

TEST(XmlDocumentTest, TrailingContentAfterRoot) {
  EXPECT_TRUE(ParseXml("<r/>  \n<!-- ok -->\n").ok());
  ExpectCorruption("<r/>garbage", "after the root");
  ExpectCorruption("<r/><s/>", "after the root");
}

TEST(XmlDocumentTest, MalformedMarkup) {
  ExpectCorruption("not xml at all");
  ExpectCorruption("{\"json\": true}");
  ExpectCorruption("<1a/>", "name");
  ExpectCorruption("<a b=1/>", "quoted");
  ExpectCorruption("<a b=\"1\"c=\"2\"/>", "whitespace");
  ExpectCorruption("<a b=\"1\" b=\"2\"/>", "duplicate");
  ExpectCorruption("<a b=\"<\"/>");
  ExpectCorruption("<a b/>", "=");
  ExpectCorruption("<a><!-- unterminated </a>", "comment");
  ExpectCorruption("<a><![CDATA[ x </a>", "CDATA");
  ExpectCorruption("<a><!ENTITY x 'y'></a>");
  ExpectCorruption("<a></a  x>");
}

TEST(XmlDocumentTest, EscapeRoundTrips) {
  EXPECT_EQ(XmlEscape("a&b<c>\"d\"'e'"), "a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;");
  EXPECT_EQ(XmlEscape("plain/key.txt"), "plain/key.txt");
  const std::string tricky = "x&y<z>\"q\"'s' \xC3\xA9";
  XmlElement root = MustParse("<k a=\"" + XmlEscape(tricky) + "\">" + XmlEscape(tricky) + "</k>");
  EXPECT_EQ(root.text, tricky);
  EXPECT_EQ(root.attributes[0].second, tricky);
}

}  // namespace
}  // namespace sqe::net
