#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::Eval;
using testing::EvalJson;

TEST(StringMore, Split) {
  EXPECT_EQ(EvalJson("split", {Strings({"a,b,,c,", "", std::nullopt}), Strings({",", ",", ","})}),
            R"([["a","b","","c",""],[""],null])");
  EXPECT_EQ(EvalJson("split", {Strings({"a,b,c,d"}), Strings({","}), Int64s({2})}),
            R"([["a","b,c,d"]])");
  EXPECT_EQ(EvalJson("split", {Strings({"abc"}), Strings({""})}),
            "error: The delimiter may not be the empty string");
}

TEST(StringMore, HammingAndLuhn) {
  EXPECT_EQ(
      Eval("hamming_distance", {Strings({"karolin", "héllo"}), Strings({"kathrin", "hello"})}),
      "3, 1");
  EXPECT_EQ(Eval("hamming_distance", {Strings({"ab"}), Strings({"abc"})}),
            "error: The input strings to hamming_distance function must have the same length");
  EXPECT_EQ(Eval("luhn_check", {Strings({"79927398713", "79927398710", "", std::nullopt})}),
            "true, false, false, NULL");
}

TEST(StringMore, FromUtf8WithReplacement) {
  const columnar::Column bytes = testing::Typed(columnar::Binary(), {"a\xFF"
                                                                     "b",
                                                                     std::nullopt});
  EXPECT_EQ(Eval("from_utf8", {bytes, Strings({"?", "?"})}), "a?b, NULL");
  EXPECT_EQ(Eval("from_utf8", {bytes, Strings({"", ""})}), "ab, NULL");
  EXPECT_EQ(Eval("from_utf8", {bytes, Int64s({35, 35})}), "a#b, NULL");
  EXPECT_EQ(Eval("from_utf8", {bytes, Strings({"xy", "xy"})}),
            "error: Replacement character string must empty or a single character");
}

TEST(StringMore, Normalize) {
  EXPECT_EQ(Eval("normalize", {Strings({"e\xCC\x81"})}), "\xC3\xA9");
  EXPECT_EQ(Eval("normalize", {Strings({"\xC3\xA9", "\xEF\xBC\x91"}), Strings({"NFD", "NFKC"})}),
            "e\xCC\x81, 1");
  EXPECT_EQ(Eval("normalize", {Strings({"a"}), Strings({"NFX"})}).rfind("error: Normalization", 0),
            0u);
}

TEST(StringMore, Urls) {
  const std::string url = "https://user@www.example.com:8080/a/b.html?x=1&y=two&z#frag";
  EXPECT_EQ(Eval("url_extract_protocol", {Strings({url, "example.com/p"})}), "https, NULL");
  EXPECT_EQ(Eval("url_extract_host", {Strings({url, "http://exa mple.com/"})}),
            "www.example.com, NULL");
  EXPECT_EQ(Eval("url_extract_port", {Strings({url, "http://a.b/"})}), "8080, NULL");
  EXPECT_EQ(Eval("url_extract_path", {Strings({url, "http://a.b"})}), "/a/b.html, ");
  EXPECT_EQ(Eval("url_extract_query", {Strings({url})}), "x=1&y=two&z");
  EXPECT_EQ(Eval("url_extract_fragment", {Strings({url})}), "frag");
  EXPECT_EQ(Eval("url_extract_parameter", {Strings({url, url, url}), Strings({"y", "z", "w"})}),
            "two, , NULL");
  EXPECT_EQ(Eval("url_encode", {Strings({"a b&c=d/\xC3\xA9"})}), "a+b%26c%3Dd%2F%C3%A9");
  EXPECT_EQ(Eval("url_decode", {Strings({"a+b%26c%3Dd%2F%C3%A9"})}), "a b&c=d/\xC3\xA9");
  EXPECT_EQ(Eval("url_decode", {Strings({"abc%2"})}),
            "error: Incomplete trailing escape (%) pattern");
}

TEST(StringMore, FormatLikeJava) {
  EXPECT_EQ(Eval("format", {Strings({"%s-%d", "%05d|%-4d|", std::nullopt}),
                            Strings({"a", "x", "y"}), Int64s({5, 42, 1})}),
            "error: Invalid format string: %05d|%-4d| (d != varchar)");
  EXPECT_EQ(
      Eval("format", {Strings({"%s-%d|%,d"}), Strings({"a"}), Int64s({5}), Int64s({1234567})}),
      "a-5|1,234,567");
  EXPECT_EQ(Eval("format", {Strings({"%.2f|%8.3f|%x"}), columnar::testing::Float64s({2.675}),
                            columnar::testing::Float64s({-2.5}), Int64s({-1})}),
            "2.68|  -2.500|ffffffffffffffff");
  EXPECT_EQ(Eval("format", {Strings({"%2$s %1$s"}), Strings({"world"}), Strings({"hello"})}),
            "hello world");
  EXPECT_EQ(Eval("format", {Strings({"%s %s"}), Strings({"a"})}),
            "error: Invalid format string: %s %s (missing argument for '%s')");
}

}  // namespace
}  // namespace sqe::exec
