#include <catch2/catch.hpp>

#include "qsel/core/pattern.h"

using namespace qsel;

TEST_CASE("pattern: literal text anywhere in the line, * for anything, {name} captured", "[core][pattern]") {
  CHECK(match_pattern("Using MarlinLinearKernel for *", "(Worker_TP0 pid=1) INFO [x.py:3] Using MarlinLinearKernel for GPTQMarlinLinearMethod"));
  CHECK(!match_pattern("Using MarlinLinearKernel for *", "Using MacheteLinearKernel for GPTQMarlinLinearMethod"));
  auto cc = match_pattern("compute capability {compute_capability}, VMM", "  Device 0: NVIDIA GeForce RTX 4070, compute capability 8.9, VMM: yes");
  REQUIRE(cc);
  CHECK(cc->at("compute_capability") == "8.9");
  auto ft = match_pattern("print_info: file type*= {quantization}", "print_info: file type   = Q4_K - Medium\r");
  REQUIRE(ft);
  CHECK(ft->at("quantization") == "Q4_K - Medium");
  CHECK(match_pattern("ggml_vulkan: Found * Vulkan devices", "ggml_vulkan: Found 1 Vulkan devices:"));
  CHECK(!match_pattern("offloaded 0/* layers to GPU", "load_tensors: offloaded 10/33 layers to GPU"));
  CHECK(match_pattern("offloaded 0/* layers to GPU", "load_tensors: offloaded 0/33 layers to GPU"));
}

TEST_CASE("pattern: well-formedness, and a long hostile line stays cheap", "[core][pattern]") {
  CHECK(pattern_problem("abc {x") == "unclosed '{'");
  CHECK(pattern_problem("a {{x}}") == "nested '{'");
  CHECK(pattern_problem("a }") == "'}' without '{'");
  CHECK(pattern_problem("*{x}*") == "a pattern needs some literal text");
  CHECK(pattern_problem("") == "empty pattern");
  CHECK(pattern_problem("Using * for {x}").empty());
  std::string line(64 * 1024, 'a');
  CHECK(!match_pattern("a*b*c*d*e", line));
}

TEST_CASE("pattern: compiled once, the same answers, a gap's last capture takes all of it", "[core][pattern]") {
  auto p = LogPattern::compile("Using {kernel} for *Method");
  REQUIRE(p);
  CHECK(p->text() == "Using {kernel} for *Method");
  auto caps = p->match("INFO Using  Marlin  for GPTQMarlinLinearMethod and Using X for YMethod");
  REQUIRE(caps);
  CHECK(caps->at("kernel") == "Marlin");  // the literals' first places, trimmed
  CHECK(p->matches("Using a for b Method"));
  CHECK(!p->matches("Using a for b"));
  // "{a}*" and "*{a}" capture the same gap; of "{a}{b}" only b is kept, as before.
  CHECK(match_pattern("x {a}* y", "x 1 2 y")->at("a") == "1 2");
  CHECK(match_pattern("x *{a} y", "x 1 2 y")->at("a") == "1 2");
  auto two = match_pattern("x {a}{b} y", "x 1 2 y");
  REQUIRE(two);
  CHECK(two->count("a") == 0);
  CHECK(two->at("b") == "1 2");
  CHECK(match_pattern("{lead} tail", "all of this tail")->at("lead") == "all of this");  // from the line's start
  CHECK(match_pattern("head {rest}", "head  everything after\r")->at("rest") == "everything after");
  // Regex syntax in a pattern is literal text, and bytes need not be UTF-8.
  CHECK(match_pattern("a.b (c)+ [d]", "x a.b (c)+ [d] y"));
  CHECK(!match_pattern("a.b", "axb"));
  CHECK(match_pattern("dev \xff{name} end", "dev \xff\xfe\x80 end")->at("name") == "\xfe\x80");
}

TEST_CASE("pattern: a pattern RE2 cannot take is refused with RE2's reason", "[core][pattern]") {
  std::string why;
  std::string huge(1 << 20, 'a');  // a program past RE2's memory budget
  CHECK_FALSE(LogPattern::compile(huge + "{x}", &why));
  CHECK(why.rfind("RE2 cannot take it: ", 0) == 0);
  CHECK(pattern_problem(huge) == why);
  CHECK_FALSE(LogPattern::compile("abc {x", &why));
  CHECK(why == "unclosed '{'");
}
