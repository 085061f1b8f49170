#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::Eval;

TEST(StringFunctions, LengthCountsCodePoints) {
  EXPECT_EQ(Eval("length", {Strings({"abc", "äö", "😀x", "", std::nullopt})}), "3, 2, 2, 0, NULL");
}

TEST(StringFunctions, CaseMapping) {
  EXPECT_EQ(Eval("upper", {Strings({"abc ä ÿ 😀", "straße"})}), "ABC Ä Ÿ 😀, STRAßE");
  EXPECT_EQ(Eval("lower", {Strings({"ÄÖÜ ABC", "ΣΑ"})}), "äöü abc, σα");
}

TEST(StringFunctions, Substr) {
  EXPECT_EQ(Eval("substr", {Strings({"ä😀bc"}), Int64s({2}), Int64s({2})}), "😀b");
  EXPECT_EQ(Eval("substr", {Strings({"hello", "hello", "hello", "hello"}), Int64s({-3, 0, 6, 2})}),
            "llo, , , ello");
  EXPECT_EQ(Eval("substring", {Strings({"hello"}), Int64s({-3}), Int64s({2})}), "ll");
  EXPECT_EQ(Eval("substr", {Strings({"hello"}), Int64s({std::nullopt})}), "NULL");
}

TEST(StringFunctions, TrimFamily) {
  EXPECT_EQ(Eval("trim", {Strings({"  a b  "})}), "a b");
  EXPECT_EQ(Eval("ltrim", {Strings({"  a  "})}), "a  ");
  EXPECT_EQ(Eval("rtrim", {Strings({"  a  "})}), "  a");
  EXPECT_EQ(Eval("trim", {Strings({"ääxää"}), Strings({"ä"})}), "x");
  EXPECT_EQ(Eval("ltrim", {Strings({"xyhix"}), Strings({"xy"})}), "hix");
}

TEST(StringFunctions, ReplaceAndSplitPart) {
  EXPECT_EQ(Eval("replace", {Strings({"a.b.c"}), Strings({"."}), Strings({"ä"})}), "aäbäc");
  EXPECT_EQ(Eval("replace", {Strings({"abcabc"}), Strings({"b"})}), "acac");
  EXPECT_EQ(Eval("replace", {Strings({"ab"}), Strings({""}), Strings({"-"})}), "-a-b-");
  EXPECT_EQ(Eval("split_part", {Strings({"a,b,,c", "a,b,,c", "a,b,,c"}), Strings({",", ",", ","}),
                                Int64s({2, 3, 9})}),
            "b, , NULL");
  EXPECT_EQ(Eval("split_part", {Strings({"a"}), Strings({","}), Int64s({0})}),
            "error: Index must be greater than zero");
}

TEST(StringFunctions, ConcatPropagatesNull) {
  EXPECT_EQ(
      Eval("concat", {Strings({"a", "x"}), Strings({"ä", std::nullopt}), Strings({"😀", "y"})}),
      "aä😀, NULL");
  EXPECT_EQ(Eval("||", {Strings({"ab"}), Strings({"cd"})}), "abcd");
}

TEST(StringFunctions, Positions) {
  EXPECT_EQ(Eval("strpos", {Strings({"ä😀bc", "abc", "abc"}), Strings({"b", "x", ""})}), "3, 0, 1");
  EXPECT_EQ(Eval("starts_with", {Strings({"äbc", "abc"}), Strings({"ä", "b"})}), "true, false");
  EXPECT_EQ(Eval("ends_with", {Strings({"abc"}), Strings({"bc"})}), "true");
}

TEST(StringFunctions, StrposNthInstance) {
  auto strpos = [](std::optional<std::string> s, std::optional<std::string> sub,
                   std::optional<int64_t> n) {
    return Eval("strpos", {Strings({s}), Strings({sub}), Int64s({n})});
  };
  EXPECT_EQ(strpos("hello", "l", 1), "3");
  EXPECT_EQ(strpos("hello", "l", 2), "4");
  EXPECT_EQ(strpos("hello", "l", 3), "0");
  EXPECT_EQ(strpos("hello", "l", -1), "4");  // negative: from the end
  EXPECT_EQ(strpos("hello", "l", -2), "3");
  EXPECT_EQ(strpos("hello", "l", -3), "0");
  EXPECT_EQ(strpos("aaa", "aa", 2), "2");  // occurrences overlap
  EXPECT_EQ(strpos("aaa", "aa", -2), "1");
  EXPECT_EQ(strpos("äöäö", "ö", 2), "4");  // code points, not bytes
  EXPECT_EQ(strpos("😀a😀a", "a", -1), "4");
  EXPECT_EQ(strpos("abc", "", 5), "1");
  EXPECT_EQ(strpos("abc", "", -5), "1");
  EXPECT_EQ(strpos("", "a", 1), "0");
  EXPECT_EQ(strpos("abc", "a", std::nullopt), "NULL");
  EXPECT_EQ(strpos(std::nullopt, "a", 0), "NULL");  // NULL before the instance check
  EXPECT_EQ(strpos("abc", "a", 0), "error: 'instance' must be a positive or negative number.");
  EXPECT_EQ(strpos("abc", "a", std::numeric_limits<int64_t>::min()), "0");
}

TEST(StringFunctions, Translate) {
  auto translate = [](std::vector<std::optional<std::string>> s, std::optional<std::string> from,
                      std::optional<std::string> to) {
    const size_t n = s.size();
    return Eval("translate", {Strings(s), Strings(std::vector<std::optional<std::string>>(n, from)),
                              Strings(std::vector<std::optional<std::string>>(n, to))});
  };
  EXPECT_EQ(translate({"hello", "", "xyz"}, "el", "ip"), "hippo, , xyz");
  EXPECT_EQ(translate({"abcd"}, "abc", "z"), "zd");  // no counterpart in `to`: removed
  EXPECT_EQ(translate({"abcd"}, "", "xyz"), "abcd");
  EXPECT_EQ(translate({"aaa"}, "aa", "xy"), "xxx");    // a repeated `from` character: first wins
  EXPECT_EQ(translate({"äöü😀"}, "ö😀", "o:"), "äoü:");  // code points, not bytes
  EXPECT_EQ(translate({"abc"}, "b", "😀"), "a😀c");
  EXPECT_EQ(translate({"abc"}, "abc", "bca"), "bca");  // one pass, no chaining
  EXPECT_EQ(translate({std::nullopt, "a"}, "a", "b"), "NULL, b");
  EXPECT_EQ(translate({"a"}, std::nullopt, "b"), "NULL");
  // Varying patterns from row to row.
  EXPECT_EQ(Eval("translate", {Strings({"ab", "ab"}), Strings({"a", "b"}), Strings({"x", "y"})}),
            "xb, ay");
}

TEST(StringFunctions, PadReverseChrCodepoint) {
  EXPECT_EQ(Eval("lpad", {Strings({"ä", "hello"}), Int64s({4, 3}), Strings({"😀x", "-"})}),
            "😀x😀ä, hel");
  EXPECT_EQ(Eval("rpad", {Strings({"ab"}), Int64s({5}), Strings({"xy"})}), "abxyx");
  EXPECT_EQ(Eval("lpad", {Strings({"ab"}), Int64s({5}), Strings({""})}),
            "error: Padding string must not be empty");
  EXPECT_EQ(Eval("reverse", {Strings({"aä😀"})}), "😀äa");
  EXPECT_EQ(Eval("chr", {Int64s({228, 128512})}), "ä, 😀");
  EXPECT_EQ(Eval("codepoint", {Strings({"😀"})}), "128512");
}

TEST(StringFunctions, Like) {
  EXPECT_EQ(Eval("like", {Strings({"abc", "abc", "ab", "xabcx", std::nullopt}),
                          Strings({"a%", "a_c", "a_c", "%bc%", "a%"})}),
            "true, true, false, true, NULL");
  // `_` is one code point, not one byte.
  EXPECT_EQ(Eval("like", {Strings({"ä", "😀x", "ä"}), Strings({"_", "__", "__"})}),
            "true, true, false");
  // Regex characters are literal in LIKE.
  EXPECT_EQ(Eval("like", {Strings({"a.b", "axb", "(x)", "a+b", "a*"}),
                          Strings({"a.b", "a.b", "(%)", "a+b", "a*"})}),
            "true, false, true, true, true");
  // Backtracking across several %.
  EXPECT_EQ(Eval("like",
                 {Strings({"aXbXc", "abab", "mississippi"}), Strings({"%X%c", "%ab", "m%iss%pi"})}),
            "true, true, true");
}

TEST(StringFunctions, LikeWithEscape) {
  EXPECT_EQ(Eval("like", {Strings({"a%b", "axb", "a_b", "a\\b"}),
                          Strings({"a\\%b", "a\\%b", "a\\_b", "a\\\\b"}),
                          Strings({"\\", "\\", "\\", "\\"})}),
            "true, false, true, true");
  EXPECT_EQ(Eval("like", {Strings({"10%"}), Strings({"10#%"}), Strings({"#"})}), "true");
  EXPECT_EQ(Eval("like", {Strings({"a"}), Strings({"a#"}), Strings({"#"})}),
            "error: Escape character must be followed by '%', '_' or the escape character");
  EXPECT_EQ(Eval("like", {Strings({"a"}), Strings({"a"}), Strings({"##"})}),
            "error: Escape string must be a single character");
}

TEST(StringFunctions, Utf8ConcatWsLevenshtein) {
  EXPECT_EQ(Eval("from_utf8", {Strings({"äx"}, columnar::Binary())}), "äx");
  EXPECT_EQ(Eval("from_utf8", {Strings({std::string("a\xff") + "b"}, columnar::Binary())}),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(Eval("length",
                 {Eval("to_utf8", {Strings({"ä"})}) == "ä" ? Strings({"ok"}) : Strings({"bad"})}),
            "2");
  EXPECT_EQ(Eval("concat_ws", {Strings({",", std::nullopt}), Strings({"a", "a"}),
                               Strings({std::nullopt, "b"}), Strings({"ä", "c"})}),
            "a,ä, NULL");
  EXPECT_EQ(
      Eval("levenshtein_distance", {Strings({"kitten", "ä", ""}), Strings({"sitting", "a", "ab"})}),
      "3, 1, 2");
}

TEST(StringFunctions, ILikeAndRegexp) {
  EXPECT_EQ(Eval("ilike", {Strings({"ÄBC", "abc"}), Strings({"ä%", "A_C"})}), "true, true");
  EXPECT_EQ(Eval("regexp_like", {Strings({"abc123", "abc"}), Strings({"\\d+", "\\d+"})}),
            "true, false");
  EXPECT_EQ(Eval("regexp_replace", {Strings({"a1b22"}), Strings({"(\\d+)"}), Strings({"<$1>"})}),
            "a<1>b<22>");
  EXPECT_EQ(Eval("regexp_extract", {Strings({"x123y", "none"}), Strings({"\\d+", "\\d+"})}),
            "123, NULL");
  EXPECT_EQ(Eval("regexp_like", {Strings({"a"}), Strings({"("})}).substr(0, 34),
            "error: invalid regular expression ");
}

}  // namespace
}  // namespace sqe::exec
