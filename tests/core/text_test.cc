#include <catch2/catch.hpp>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"

using namespace qsel;

TEST_CASE("text: UTF-8 validation finds the first bad byte", "[core]") {
  CHECK(find_invalid_utf8("plain ascii") == std::string_view::npos);
  CHECK(find_invalid_utf8("caf\xc3\xa9") == std::string_view::npos);
  CHECK(find_invalid_utf8("caf\xe9!") == 3);
  CHECK(find_invalid_utf8("\xc0\x80") == 0);          // overlong
  CHECK(find_invalid_utf8("\xed\xa0\x80") == 0);      // surrogate
  CHECK(find_invalid_utf8("ok\xf0\x9f\x98") == 2);    // truncated
  CHECK(utf8_length("caf\xc3\xa9") == 4);
}

TEST_CASE("text: edit distance counts a swap of neighbours as one", "[core]") {
  CHECK(edit_distance("list", "list") == 0);
  CHECK(edit_distance("lsit", "list") == 1);
  CHECK(edit_distance("lsit", "lint") == 2);
  CHECK(edit_distance("machette", "machete") == 1);
  CHECK(edit_distance("", "abc") == 3);
}

TEST_CASE("text: nearest suggests only useful candidates, closest first", "[core]") {
  std::vector<std::string> c = {"list", "lint", "show", "recommend"};
  CHECK(nearest("lsit", c) == std::vector<std::string>{"list", "lint"});
  CHECK(nearest("recomend", c, 1) == std::vector<std::string>{"recommend"});
  CHECK(nearest("zzzzzz", c).empty());
}

TEST_CASE("text: quoting for messages truncates long values on a character boundary", "[core]") {
  CHECK(quote_value("x") == "\"x\"");
  CHECK(quote_value("a\"b\nc") == "\"a\\\"b\\nc\"");
  std::string long_value(70, 'a');
  CHECK(quote_value(long_value) == "\"" + std::string(60, 'a') + "…\"");
  CHECK(to_lower("H100 SXM") == "h100 sxm");
}

TEST_CASE("text: sha256 matches the standard test vectors", "[core]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex(std::string(1000, 'a')) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST_CASE("text: printable escapes what could drive a terminal and keeps UTF-8", "[core][text]") {
  CHECK(qsel::printable("plain tab\tand café ✓") == "plain tab\tand café ✓");
  CHECK(qsel::printable("a\x1b[31mb") == "a\\x1b[31mb");
  CHECK(qsel::printable("cr\rlf\nbell\a del\x7f") == "cr\\rlf\\nbell\\x07 del\\x7F");
  CHECK(qsel::printable("c1 \xc2\x9b" "31m") == "c1 \\xC2\\x9B31m");
  CHECK(qsel::printable("bad \xff\xfe utf8 \xe2\x82") == "bad \\xFF\\xFE utf8 \\xE2\\x82");
}

TEST_CASE("text: utf8_at decodes one character, or gives the single byte of an invalid one", "[core][text]") {
  auto at = [](std::string_view s, std::size_t i) { return qsel::utf8_at(s, i); };
  CHECK((at("a", 0).code_point == U'a' && at("a", 0).length == 1 && at("a", 0).valid));
  CHECK((at("é", 0).code_point == 0xE9 && at("é", 0).length == 2 && at("é", 0).valid));
  CHECK((at("x€", 1).code_point == 0x20AC && at("x€", 1).length == 3));
  CHECK((at("😀", 0).code_point == 0x1F600 && at("😀", 0).length == 4));
  for (std::string_view bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\x80", "\xFF"}) {
    INFO(qsel::printable(bad));
    auto c = at(bad, 0);
    CHECK((!c.valid && c.length == 1 && c.code_point == static_cast<unsigned char>(bad[0])));
  }
  CHECK(qsel::find_invalid_utf8("ok é € 😀 \xE2\x82") == 15);
}

TEST_CASE("text: require_one_of suggests the nearest allowed value, or lists them", "[core][text]") {
  auto error = [](const std::string& v, const std::vector<std::string>& allowed) {
    try {
      qsel::require_one_of(v, allowed, "regime");
    } catch (const qsel::UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error("w4a16", {"w4a16", "w8a8"}).empty());
  CHECK(error("anything", {}).empty());
  CHECK(error("W4A16", {"w4a16", "w8a8"}) == "unknown regime \"W4A16\"; did you mean \"w4a16\"?");
  CHECK(error("zzzz", {"alpha", "beta"}) == "unknown regime \"zzzz\"; use one of alpha, beta");
}

TEST_CASE("text: printable escapes bidirectional controls (U+202E, U+2066), which reorder what follows", "[core][text]") {
  CHECK(qsel::printable("a\u202Eb") == "a\\xE2\\x80\\xAEb");
  CHECK(qsel::printable("x\u2066y\u2069z") == "x\\xE2\\x81\\xA6y\\xE2\\x81\\xA9z");
  CHECK(qsel::printable("\u200F\u061C") == "\\xE2\\x80\\x8F\\xD8\\x9C");
  CHECK(qsel::printable("é € ‡ 中") == "é € ‡ 中");  // ordinary text stays
}

TEST_CASE("text: nearest gives no suggestion for a word longer than any name", "[core][text]") {
  CHECK(qsel::nearest(std::string(65, 'a'), {std::string(65, 'a') + "b"}).empty());
  CHECK(qsel::nearest("h100", {"h100-sxm", "h200", "a100"}) == std::vector<std::string>{"a100", "h200", "h100-sxm"});
}

TEST_CASE("text: a message line is capped, keeping its start and its end (issue 41: 100 KB echoed)", "[core][text]") {
  CHECK(capped_line("short") == "short");
  std::string line = "qsel: error: " + std::string(100000, 'x') + ": no such file or directory";
  std::string c = capped_line(line);
  CHECK(c.size() < kMaxMessageBytes + 40);
  CHECK(c.rfind("qsel: error: xxx", 0) == 0);
  CHECK(c.ends_with("x: no such file or directory"));
  CHECK(c.find("…[") != std::string::npos);
  std::string wide;
  for (int i = 0; i < 3000; ++i) wide += "é";  // two bytes each: never cut in half
  CHECK(find_invalid_utf8(capped_line(wide)) == std::string::npos);
}
