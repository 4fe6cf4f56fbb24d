#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "qsel/lint/registry.h"
#include "qsel/report/rule_doc.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {

std::string doc_page(const RuleInfo& r) { return test::source_dir() + "/docs/lint/" + std::string(r.code) + ".md"; }

// Tags of every registered test case whose name contains `word`.
std::set<std::string> tags_of_tests_named(const std::string& word) {
  std::set<std::string> tags;
  for (const auto& tc : Catch::getRegistryHub().getTestCaseRegistry().getAllTests())
    if (tc.name.find(word) != std::string::npos)
      for (const auto& t : tc.tags) tags.insert(t);
  return tags;
}

}  // namespace

TEST_CASE("registry: codes are unique QSnnn, names unique kebab-case, sorted by code", "[lint][registry]") {
  std::set<std::string> codes, names;
  std::string last;
  for (const RuleInfo& r : rules()) {
    INFO(r.code);
    CHECK(std::regex_match(std::string(r.code), std::regex("QS[0-9]{3}")));
    CHECK(std::regex_match(std::string(r.name), std::regex("[a-z0-9]+(-[a-z0-9]+)*")));
    CHECK(codes.insert(std::string(r.code)).second);
    CHECK(names.insert(std::string(r.name)).second);
    CHECK(std::string(r.code) > last);
    last = r.code;
  }
  CHECK(rules().size() == 49);
}

TEST_CASE("registry: the fixed codes keep their names", "[lint][registry]") {
  const std::vector<std::pair<std::string, std::string>> fixed = {
      {"QS001", "schema"}, {"QS002", "duplicate-id"}, {"QS003", "dangling-reference"},
      {"QS004", "kquant-group-size"}, {"QS005", "contested-bpw"}, {"QS012", "file-name-mismatch"}};
  for (const auto& [code, name] : fixed) {
    REQUIRE(find_rule(code));
    CHECK(find_rule(code)->name == name);
  }
  CHECK(find_rule("kquant-group-size") == find_rule("QS004"));
  CHECK(find_rule("qs004") == find_rule("QS004"));
  CHECK(find_rule("QS099") == nullptr);
  CHECK(suggest_rules("kquant-group") == std::vector<std::string>{"kquant-group-size"});
  CHECK(find_rule("QS004")->fixable);
  CHECK(find_rule("QS005")->severity == Severity::Warning);
}

TEST_CASE("registry: every rule has a full doc and a one-line summary", "[lint][registry]") {
  for (const RuleInfo& r : rules()) {
    INFO(r.code);
    for (std::string_view s : {r.summary, r.doc.what, r.doc.why, r.doc.example, r.doc.example_output, r.doc.fix})
      CHECK(s.size() > 10);
    CHECK(r.summary.find('\n') == std::string_view::npos);
    CHECK(r.doc.example_output.find(fmt::format("[{} {}]", r.code, r.name)) != std::string_view::npos);
  }
}

TEST_CASE("registry: docs/lint/<CODE>.md is the registry's doc, byte for byte", "[lint][registry]") {
  bool update = std::getenv("QSEL_UPDATE_DOCS") != nullptr;
  for (const RuleInfo& r : rules()) {
    INFO(doc_page(r) << " is out of date: run QSEL_UPDATE_DOCS=1 ./build/tests/qsel_tests \"[registry]\"");
    if (update) std::ofstream(doc_page(r), std::ios::binary) << render_rule_markdown(r);
    std::string page = test::read_text(doc_page(r));
    CHECK(page == render_rule_markdown(r));
    for (const char* section : {"## What it flags", "## Why it matters", "## Example", "## How to fix"})
      CHECK(page.find(section) != std::string::npos);
  }
  std::string index = test::read_text(test::source_dir() + "/docs/lint/README.md");
  for (const RuleInfo& r : rules())
    CHECK(index.find(fmt::format("| [{0}]({0}.md) | {1} |", r.code, r.name)) != std::string::npos);
}

TEST_CASE("registry: every rule has a test that it fires and one that it stays clean", "[lint][registry]") {
  auto fires = tags_of_tests_named("fires"), clean = tags_of_tests_named("clean");
  for (const RuleInfo& r : rules()) {
    INFO(r.code);
    CHECK(fires.count(std::string(r.code)));
    CHECK(clean.count(std::string(r.code)));
  }
}
