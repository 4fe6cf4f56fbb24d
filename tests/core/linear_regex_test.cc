#include "qsel/core/linear_regex.h"

#include <catch2/catch.hpp>

#include <random>
#include <regex>
#include <string>
#include <vector>

using qsel::LinearRegex;

namespace {

bool search(const std::string& pattern, const std::string& text) {
  std::string why;
  auto re = LinearRegex::compile(pattern, &why);
  INFO(pattern << ": " << why);
  REQUIRE(re);
  return re->search(text);
}

std::string why_not(const std::string& pattern) {
  std::string why;
  CHECK_FALSE(LinearRegex::compile(pattern, &why));
  return why;
}

}  // namespace

TEST_CASE("linear regex: the patterns our schemas use", "[linear_regex]") {
  const std::string id = "^[a-z0-9]([a-z0-9.-]{0,78}[a-z0-9])?$";
  CHECK(search(id, "h100"));
  CHECK(search(id, "a"));
  CHECK(search(id, "q4-k-m.v2"));
  CHECK_FALSE(search(id, ""));
  CHECK_FALSE(search(id, "H100"));
  CHECK_FALSE(search(id, "-h100"));
  CHECK_FALSE(search(id, "h100-"));
  CHECK_FALSE(search(id, "h100\n"));
  CHECK(search(id, std::string(80, 'a')));
  CHECK_FALSE(search(id, std::string(81, 'a')));
  CHECK(search("^https?://", "https://example.org"));
  CHECK(search("^https?://", "http://x"));
  CHECK_FALSE(search("^https?://", "ftp://x"));
  CHECK_FALSE(search("^https?://", " https://x"));
  CHECK(search("^[A-Za-z0-9_.-]+(=[A-Za-z0-9_.:-]+)?$", "VLLM_USE_V1=1"));
  CHECK_FALSE(search("^[A-Za-z0-9_.-]+(=[A-Za-z0-9_.:-]+)?$", "A=B=C"));
}

TEST_CASE("linear regex: classes and literals are code points, not bytes", "[linear_regex]") {
  const std::string cell = "^(Y|\\.|Y?[*†‡][0-9]*)$";
  CHECK(search(cell, "Y"));
  CHECK(search(cell, "."));
  CHECK(search(cell, "Y*1"));
  CHECK(search(cell, "†"));   // std::regex over bytes rejects this one
  CHECK(search(cell, "Y‡12"));
  CHECK_FALSE(search(cell, "Y."));
  CHECK_FALSE(search(cell, "\xE2"));  // a lone lead byte is not a dagger
  CHECK(search("^.$", "é"));
  CHECK(search("^\\u00e9$", "é"));
  CHECK(search("^[^a]$", "€"));
  CHECK_FALSE(search("^.$", "\n"));
}

TEST_CASE("linear regex: syntax", "[linear_regex]") {
  CHECK(search("ab|cd", "xxcdxx"));
  CHECK(search("(?:ab)+$", "ababab"));
  CHECK(search("^a{2,3}$", "aaa"));
  CHECK_FALSE(search("^a{2,3}$", "aaaa"));
  CHECK(search("^a{2,}$", "aaaaaaa"));
  CHECK(search("^a{2}$", "aa"));
  CHECK(search("^a*?b$", "aaab"));
  CHECK(search("^[-a]+$", "a-a"));
  CHECK(search("^[a-]+$", "a-a"));
  CHECK(search("^[\\d\\s]+$", "1 2\t3"));
  CHECK(search("^\\w+\\.\\W$", "ab_1.!"));
  CHECK_FALSE(search("[]", "anything"));
  CHECK(search("", "anything"));
  CHECK(search("^$", ""));
  CHECK(search("^(a|)$", ""));
  CHECK(search("^(a*)*$", "aaaa"));  // an empty loop ends
  CHECK(search("^\\^\\$\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/\\\\$", "^$.*+?()[]{}|/\\"));
}

TEST_CASE("linear regex: what it does not support is refused with a reason", "[linear_regex]") {
  CHECK(why_not("(?=a)") == "look-around or named groups are not supported");
  CHECK(why_not("(a)\\1") == "back-references are not supported");
  CHECK(why_not("\\bword") == "word boundaries are not supported");
  CHECK(why_not("[a") == "unclosed '['");
  CHECK(why_not("(a") == "unclosed '('");
  CHECK(why_not("a)") == "unmatched ')'");
  CHECK(why_not("*a") == "a quantifier with nothing to repeat");
  CHECK(why_not("a**") == "two quantifiers in a row");
  CHECK(why_not("a{2") == "'{' that is not a repetition count");
  CHECK(why_not("a{3,2}") == "a repetition {n,m} with m below n");
  CHECK(why_not("a{1001}") == "a repetition count above 1000");
  CHECK(why_not("(a{1000}){1000}") == "a pattern too large to compile");
  CHECK(why_not("[z-a]") == "a range out of order");
  CHECK(why_not("\\") == "a pattern ending in '\\'");
  CHECK(why_not("\\q") == "an escape that is not supported");
  CHECK(why_not(std::string(100, '(')) == "groups nested too deep");
}

TEST_CASE("linear regex: a hostile text is linear", "[linear_regex]") {
  // (a*)*b backtracks exponentially in a backtracking engine.
  auto re = LinearRegex::compile("^(a*)*b$");
  REQUIRE(re);
  CHECK_FALSE(re->search(std::string(100000, 'a')));
  auto id = LinearRegex::compile("^[a-z0-9]([a-z0-9.-]{0,78}[a-z0-9])?$");
  REQUIRE(id);
  CHECK_FALSE(id->search(std::string(1 << 20, 'a')));
}

TEST_CASE("linear regex: agrees with std::regex on ASCII", "[linear_regex]") {
  const std::vector<std::string> patterns = {
      "^[a-z0-9]([a-z0-9.-]{0,78}[a-z0-9])?$", "^https?://", "^[A-Za-z0-9_]+$", "^[A-Za-z0-9_.-]+(=[A-Za-z0-9_.:-]+)?$",
      "a(b|c)*d", "^(ab|a)(bc|c)?$", "[^a-c]{2,3}", "x?y+z*$", "(a|b)(c|d){1,2}", "^\\d+(\\.\\d+)?$", "\\s\\S\\w\\W",
      "^(a|ab)(c|bcd)(d*)$", ".a.", "^$", "q{0,2}r"};
  std::mt19937 rng(42);
  const std::string alphabet = "abcdqrxyz019.-=_ :/\tA";
  for (const std::string& p : patterns) {
    auto re = LinearRegex::compile(p);
    REQUIRE(re);
    std::regex ref(p, std::regex::ECMAScript);
    for (int n = 0; n < 400; ++n) {
      std::string text(rng() % 12, ' ');
      for (char& c : text) c = alphabet[rng() % alphabet.size()];
      INFO(p << " on \"" << text << "\"");
      CHECK(re->search(text) == std::regex_search(text, ref));
    }
  }
}
