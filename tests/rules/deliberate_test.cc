#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>

#include "qsel/loader/corpus_blob.h"

#include "rules/mini.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("deliberate: the rule table has the seven rules and the units beside them, each with an embedded page", "[rules]") {
  int numbered = 0;
  for (const auto& r : selection_rules()) {
    INFO(r.id);
    if (std::string(r.id) == "memory") continue;  // the memory model's page is docs/memory.md
    numbered += std::string(r.id).rfind("rule-", 0) == 0;
    std::string doc = rule_doc(r.id);
    CHECK(doc == read_text(source_dir() + "/docs/rules/" + r.id + ".md"));
    for (const char* section : {"\n## Statement\n", "\n## What qsel does\n", "\n## Example\n"}) CHECK(doc.find(section) != std::string::npos);
    CHECK(doc.find("    qsel ") != std::string::npos);
  }
  CHECK(numbered == 7);
  for (int i = 1; i <= 7; ++i) CHECK(find_selection_rule("rule-" + std::to_string(i)));
  CHECK(!find_selection_rule("rule-8"));
}

namespace {
// Field names and enum values of the schemas: the record vocabulary code may use
// even where an id happens to spell the same ("bf16" is a tflops key and a format id).
void vocabulary(const nlohmann::json& j, std::set<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k == "properties") for (const auto& [name, _] : v.items()) out.insert(name);
      if (k == "enum") for (const auto& e : v) if (e.is_string()) out.insert(e.get<std::string>());
      vocabulary(v, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) vocabulary(v, out);
  }
}
}  // namespace

TEST_CASE("deliberate: no record id of the corpus appears in the rule engine's sources", "[rules]") {
  // Rules are general logic over record fields: adding a part, kernel or engine is a data edit.
  Corpus c = load_corpus(source_dir() + "/data", schemas());
  std::set<std::string> vocab;
  for (const auto& [kind, s] : embedded().schemas) vocabulary(s, vocab);
  std::vector<std::string> sources;
  for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/src/rules")) sources.push_back(e.path().string());
  for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/include/qsel/rules")) sources.push_back(e.path().string());
  for (const auto& path : sources) {
    std::string text = read_text(path);
    for (const auto& r : c.records) {
      if (vocab.count(r.id)) continue;
      std::regex word("(^|[^a-z0-9.-])" + std::regex_replace(r.id, std::regex(R"([.])"), R"(\.)") + "($|[^a-z0-9-])");
      INFO(path << " mentions record id " << r.id);
      CHECK(!std::regex_search(text, word));
    }
  }
}
