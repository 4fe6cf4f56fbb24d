// Tables and wrapped text for a terminal of a given width.
#include <catch2/catch.hpp>

#include "qsel/report/style.h"
#include "qsel/report/table.h"

using namespace qsel;

TEST_CASE("table: fit leaves out columns in the order given, then cuts the shrinking column with an ellipsis", "[report][table]") {
  Table t({"#", "name", "kernel", "quality"});
  t.add({"1", "fp8-blockwise", "trtllm-fp8-gemm", "100.1% recovered on another model"});
  t.add({"2", "awq", "marlin", "99.5% recovered"});
  CHECK(t.natural_width(1) == 1 + 1 + 2 + 13 + 2 + 15 + 2 + 33);
  t.fit(200, 1, {2}, {{3, 12}});
  CHECK(t.dropped().empty());
  t.fit(60, 1, {2}, {{3, 12}});
  CHECK(t.dropped() == std::vector<std::string>{"kernel"});
  CHECK(t.render(1) == " #  name           quality\n"
                       " 1  fp8-blockwise  100.1% recovered on another model\n"
                       " 2  awq            99.5% recovered\n");
  t.fit(40, 1, {2}, {{3, 12}});
  std::string out = t.render(1);
  CHECK(out == " #  name           quality\n"
               " 1  fp8-blockwise  100.1% recovered on …\n"
               " 2  awq            99.5% recovered\n");
  for (std::size_t at = 0, end; (end = out.find('\n', at)) != std::string::npos; at = end + 1)
    CHECK(visible_width(out.substr(at, end - at)) <= 40);
  // Past the first column's floor, the next one is cut; past every floor the table stays wider.
  t.fit(30, 1, {2}, {{3, 12}, {1, 5}});
  CHECK(t.render(1) == " #  name          quality\n"
                       " 1  fp8-blockwi…  100.1% reco…\n"
                       " 2  awq           99.5% recov…\n");
  t.fit(10, 1, {2}, {{3, 12}, {1, 5}});
  CHECK(visible_width(t.render(1).substr(0, t.render(1).find('\n'))) > 10);
}

TEST_CASE("table: cut_visible counts code points, not bytes or colour codes", "[report][table]") {
  CHECK(cut_visible("≤44 tok/s", 20) == "≤44 tok/s");
  CHECK(cut_visible("≤44 tok/s", 4) == "≤44…");
  CHECK(cut_visible("\x1b[32mnative\x1b[0m", 4) == "\x1b[32mnat…\x1b[0m");
  CHECK(visible_width(cut_visible("\x1b[32mnative\x1b[0m", 4)) == 4);
}

TEST_CASE("table: wrap breaks at spaces under a hanging indent, and keeps a long word whole", "[report][table]") {
  CHECK(wrap("one two three four", 15, "Why  ", "     ") == "Why  one two\n     three four\n");
  CHECK(wrap("x", 10, "", "") == "x\n");
  CHECK(wrap("a https://example.com/a/very/long/path b", 12, "", "  ") == "a\n  https://example.com/a/very/long/path\n  b\n");
  CHECK(wrap("", 10, "Notes ", "") == "Notes \n");
}

TEST_CASE("table: the width is COLUMNS when it is a number, held to 40-1000, else 100 off a terminal", "[report][style]") {
  CHECK(terminal_width("80", -1) == 80);
  CHECK(terminal_width("10", -1) == 40);
  CHECK(terminal_width("99999", -1) == 1000);
  CHECK(terminal_width("80x", -1) == 100);
  CHECK(terminal_width("", -1) == 100);
  CHECK(terminal_width(nullptr, -1) == 100);
  CHECK(terminal_width("-5", -1) == 100);
}

TEST_CASE("table: wrap_to narrows the widest column first, wrapping its cells at spaces, never below its longest word",
          "[report][table]") {
  Table t({"", ""});
  t.add({"format record", "native on every sm90 part (3); emulated on no sm90 part"});
  t.add({"vllm", "picks machete → native"});
  t.wrap_to(40, 2);
  std::string out = t.render(2, false);
  CHECK(out == "  format record  native on every sm90\n"
               "                 part (3); emulated on\n"
               "                 no sm90 part\n"
               "  vllm           picks machete → native\n");
  for (std::size_t at = 0, end; (end = out.find('\n', at)) != std::string::npos; at = end + 1)
    CHECK(visible_width(out.substr(at, end - at)) <= 40);
  // A table that fits is left as it is; one of long words stays wider rather than break a word.
  Table wide({"a", "b"});
  wide.add({"x", "https://example.com/a/very/long/path/that/cannot/break"});
  wide.wrap_to(30, 0);
  CHECK(wide.render() == "a  b\nx  https://example.com/a/very/long/path/that/cannot/break\n");
}

TEST_CASE("table: fit_lines hangs a too-long line under its label, its bullet or its indent, and leaves fences alone",
          "[report][table]") {
  CHECK(fit_lines("short\n", 20) == "short\n");
  CHECK(fit_lines("  --data DIR  Corpus directory to use instead of the embedded\n", 40) ==
        "  --data DIR  Corpus directory to use\n"
        "              instead of the embedded\n");
  CHECK(fit_lines("  - one two three four five six\n", 16) == "  - one two\n    three four\n    five six\n");
  CHECK(fit_lines("one two three four five six", 14) == "one two three\nfour five six");
  CHECK(fit_lines("```\none two three four five six\n```\n", 10) == "```\none two three four five six\n```\n");
  // A last word that runs past moves to a line of its own when it fits there, else stays.
  CHECK(fit_lines("see the page at https://ex.com/abc\n", 20) == "see the page at\nhttps://ex.com/abc\n");
  CHECK(fit_lines("see https://example.com/a/very/long/path\n", 20) == "see https://example.com/a/very/long/path\n");
  CHECK(fit_lines("  url: https://example.com/a/very/long/path\n", 20) == "  url: https://example.com/a/very/long/path\n");
}
