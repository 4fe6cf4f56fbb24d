#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "qsel/loader/corpus_blob.h"

#include "support/rules_mini.h"

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

// Every spelling a record id could match in `text`: each maximal run of [a-z0-9.-], and
// each prefix of it that a '.' ends (an id may be followed by a dot: "llama-3.1-8b.yaml").
static std::set<std::string> id_words(const std::string& text) {
  std::set<std::string> out;
  auto word_char = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '-'; };
  for (std::size_t i = 0; i < text.size();) {
    if (!word_char(text[i])) { ++i; continue; }
    std::size_t j = i;
    while (j < text.size() && word_char(text[j])) ++j;
    std::string w = text.substr(i, j - i);
    out.insert(w);
    for (std::size_t k = 1; k < w.size(); ++k)
      if (w[k] == '.') out.insert(w.substr(0, k));
    i = j;
  }
  return out;
}

TEST_CASE("deliberate: no record id of the corpus appears in the rule engine's sources", "[rules]") {
  // Rules are general logic over record fields: adding a part, kernel or engine is a data edit.
  Corpus c = load_corpus(source_dir() + "/data", schemas());
  std::set<std::string> vocab;
  for (const auto& [kind, s] : embedded().schemas) vocabulary(s, vocab);
  std::vector<std::string> sources;
  for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/src/rules")) sources.push_back(e.path().string());
  for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/include/qsel/rules")) sources.push_back(e.path().string());
  REQUIRE(sources.size() > 20);
  for (const auto& path : sources) {
    std::set<std::string> words = id_words(read_text(path));
    for (const auto& r : c.records) {
      if (vocab.count(r.id)) continue;
      INFO(path << " mentions record id " << r.id);
      CHECK(!words.count(r.id));
    }
  }
}

TEST_CASE("deliberate: the id scan finds an id however the code spells around it", "[rules]") {
  auto w = id_words("x = g.find(\"llama-3.1-8b\"); // see llama-3.1-8b.yaml, and H100 rtx-4090.");
  CHECK(w.count("llama-3.1-8b"));
  CHECK(w.count("rtx-4090"));
  CHECK(!w.count("llama-3.1"));  // a dot inside an id does not end it
  CHECK(!id_words("my-rtx-4090x").count("rtx-4090"));  // part of a longer word
}
