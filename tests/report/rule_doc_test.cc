#include <catch2/catch.hpp>

#include <sstream>

#include "qsel/lint/registry.h"
#include "qsel/report/rule_doc.h"

using namespace qsel;

TEST_CASE("rule_doc: the terminal doc has the four sections, wrapped", "[lint]") {
  std::string text = render_rule_doc(*find_rule("QS004"), Style{});
  CHECK(text.rfind("QS004 kquant-group-size  (error, fixable)\n", 0) == 0);
  for (const char* s : {"\nWhat it flags\n", "\nWhy it matters\n", "\nExample\n", "\nHow to fix\n"}) CHECK(text.find(s) != std::string::npos);
  CHECK(text.find("    weight_group_size: 256\n") != std::string::npos);
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);) CHECK(l.size() <= 200);
  CHECK(text.back() == '\n');
}

TEST_CASE("rule_doc: colour only when the style asks", "[lint]") {
  Style color;
  color.color = true;
  CHECK(render_rule_doc(*find_rule("QS004"), color).find("\x1b[1mQS004\x1b[0m") != std::string::npos);
  CHECK(render_rule_doc(*find_rule("QS004"), Style{}).find('\x1b') == std::string::npos);
}

TEST_CASE("rule_doc: JSON form has the keys explain relies on", "[lint]") {
  auto j = rule_doc_json(*find_rule("contested-bpw"));
  CHECK(j["code"] == "QS005");
  CHECK(j["name"] == "contested-bpw");
  CHECK(j["severity"] == "warning");
  CHECK(j["fixable"] == false);
  for (const char* k : {"what", "why", "example", "example_output", "fix"}) CHECK(j["doc"][k].get<std::string>().size() > 10);
}

TEST_CASE("rule_doc: the markdown page starts with the code and name", "[lint]") {
  std::string md = render_rule_markdown(*find_rule("QS003"));
  CHECK(md.rfind("# QS003 dangling-reference\n\n", 0) == 0);
  CHECK(md.find("- Severity: error\n- Fixable: no\n") != std::string::npos);
  CHECK(md.find("```yaml\n# benchmarks/") != std::string::npos);
}
