#include <catch2/catch.hpp>

#include "qsel/graph/graph.h"
#include "qsel/rules/rests_on.h"
#include "support/fixtures.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string reviewed(std::string text) { return replace_once(text, "status: draft", "status: reviewed"); }

Graph corpus(const TempDir& d) {
  Corpus c = load_corpus(d.path().string(), schemas());
  if (!c.problems.empty()) throw std::logic_error(located(c.problems[0]));
  return Graph(std::move(c));
}

}  // namespace

TEST_CASE("rests_on: counts each record once, the drafts and the unverified rows", "[rules][rests_on]") {
  TempDir d;
  d.write("formats/f.yaml", reviewed(minimal_record("format", "f")));
  d.write("engines/e.yaml", minimal_record("engine", "e"));
  d.write("benchmarks/b.yaml", replace_once(minimal_record("benchmark", "b"), "grade: paper", "grade: unverified"));
  Graph g = corpus(d);
  RestsOn on = rests_on_records(g, {"f", "e", "e", "b", "no-such-record"});
  CHECK(on.records == std::vector<std::string>{"f", "e", "b"});
  CHECK(on.draft == std::vector<std::string>{"e", "b"});
  CHECK(on.unverified == std::vector<std::string>{"b"});
  CHECK(on.statement ==
        "rests on 3 records, 2 of them drafts (e, b); 1 unverified measurement (b): no source a reader can open holds the figure");
}

TEST_CASE("rests_on: says so when every record, or none, is a draft, and cuts long lists", "[rules][rests_on]") {
  TempDir d;
  std::vector<std::string> ids;
  for (int i = 0; i < 7; ++i) {
    ids.push_back("e" + std::to_string(i));
    d.write("engines/" + ids.back() + ".yaml", minimal_record("engine", ids.back()));
  }
  d.write("formats/f.yaml", reviewed(minimal_record("format", "f")));
  Graph g = corpus(d);
  CHECK(rests_on_records(g, {"f"}).statement == "rests on 1 record, none of them drafts");
  CHECK(rests_on_records(g, ids).statement == "rests on 7 records, all of them drafts (e0, e1, e2, e3, e4, … (7 in all))");
}
