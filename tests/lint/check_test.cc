#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

#include "lint/lint_support.h"
#include "qsel/lint/check.h"
#include "qsel/lint/registry.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("check: every check has a part, corpus parts declare what they read", "[lint][check]") {
  for (const Check& c : checks()) {
    INFO(c.info->code);
    CHECK((c.run || c.each));
    if (!c.run) CHECK(c.reads.empty());  // only a corpus part reads pruned records
    for (const KeptField& k : c.reads) CHECK((std::string(k.pointer).empty() || k.pointer[0] == '/'));
  }
  const auto& all = corpus_reads();
  for (const KeptField& g : graph_reads())
    CHECK(std::any_of(all.begin(), all.end(), [&](const KeptField& k) { return k.kind == g.kind && std::string(k.pointer) == g.pointer; }));
}

TEST_CASE("check: a record part sees no graph", "[lint][check]") {
  RuleInfo info{"QS999", "test-rule", Severity::Error, false, "a test", {}};
  Findings out;
  CheckContext ctx(info, out);
  CHECK_THROWS_AS(ctx.graph(), std::logic_error);
}

TEST_CASE("check: run_checks is the record parts on every record plus the corpus parts", "[lint][check]") {
  TempDir d;
  d.write("gotchas/g1.yaml", replaced(minimal_record("gotcha", "g1", "evidence_grade: anecdotal\n"), "severity: minor", "severity: blocker"));
  d.write("benchmarks/b1.yaml", replaced(minimal_record("benchmark", "b1"), "format_id: f", "format_id: nope"));
  Corpus corpus = load_corpus(d.path(), schemas());
  Graph g(std::move(corpus));
  Findings all = run_checks(g, 1);
  Findings parts;
  for (const Record& r : g.records())
    for (Finding& f : check_record(r)) parts.push_back(std::move(f));
  for (Finding& f : run_corpus_checks(g, 1)) parts.push_back(std::move(f));
  sort_findings(all);
  sort_findings(parts);
  REQUIRE(all.size() == parts.size());
  std::vector<std::string> codes;
  for (std::size_t i = 0; i < all.size(); ++i) {
    CHECK(finding_text(all[i]) == finding_text(parts[i]));
    codes.push_back(all[i].code);
  }
  CHECK(std::count(codes.begin(), codes.end(), "QS029") == 1);  // a record part
  CHECK(std::count(codes.begin(), codes.end(), "QS003") >= 1);  // a corpus part
}
