#include <catch2/catch.hpp>

#include "qsel/core/pattern.h"

#include <filesystem>
#include <sstream>

#include "qsel/core/text.h"
#include "qsel/graph/embedded_graph.h"
#include "support/fixtures.h"

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

TEST_CASE("pattern: a set answers exactly what each pattern answers alone, on every fixture log line", "[core][pattern]") {
  // Every log pattern of the embedded corpus's engines, in one set.
  std::vector<LogPattern> patterns;
  for (const Record* e : qsel::embedded_graph().of_kind(Kind::Engine)) {
    std::vector<std::string> texts;
    const auto& d = e->data;
    if (d.contains("log")) {
      for (const auto& p : d["log"].value("detect", nlohmann::json::array())) texts.push_back(p);
      for (const auto& f : d["log"].value("facts", nlohmann::json::array())) texts.push_back(f["pattern"]);
      for (const auto& n : d["log"].value("notices", nlohmann::json::array())) texts.push_back(n["pattern"]);
    }
    for (const auto& k : d.value("kernel_selection", nlohmann::json::array()))
      if (k.contains("log"))
        for (const auto& p : k["log"].value("patterns", nlohmann::json::array())) texts.push_back(p);
    for (const auto& t : texts) {
      auto p = LogPattern::compile(t);
      REQUIRE(p);  // every corpus pattern compiles under RE2
      patterns.push_back(*p);
    }
  }
  REQUIRE(patterns.size() > 50);
  LogPatternSet set;
  for (std::size_t i = 0; i < patterns.size(); ++i) REQUIRE(set.add(patterns[i]) == static_cast<int>(i));
  REQUIRE(set.compile());
  std::size_t lines = 0, matched = 0;
  std::vector<int> hits;
  for (const auto& f : std::filesystem::directory_iterator(qsel::test::source_dir() + "/tests/fixtures/logs")) {
    std::istringstream in(qsel::test::read_text(f.path()));
    for (std::string line; std::getline(in, line); ++lines) {
      REQUIRE(set.match(line, hits));
      std::vector<int> alone;
      for (std::size_t i = 0; i < patterns.size(); ++i)
        if (patterns[i].matches(line)) alone.push_back(static_cast<int>(i));
      INFO(qsel::printable(line));
      CHECK(hits == alone);
      matched += !hits.empty();
    }
  }
  CHECK(lines > 500);
  CHECK(matched > 20);
  CHECK(set.match("", hits));
  CHECK(hits.empty());
  LogPatternSet empty;  // never compiled: it cannot decide, and says so
  CHECK_FALSE(empty.match("anything", hits));
}
