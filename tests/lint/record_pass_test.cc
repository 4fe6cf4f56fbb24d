#include <catch2/catch.hpp>

#include <thread>

#include "lint/lint_support.h"
#include "qsel/lint/record_pass.h"
#include "qsel/loader/loader.h"

using namespace qsel;
using namespace qsel::test;

namespace {

Record loaded(const std::string& yaml, const std::string& file, Kind kind) {
  Problems problems;
  std::optional<Record> r = load_record(yaml, file, kind, schemas(), problems);
  REQUIRE(problems.empty());
  REQUIRE(r);
  return std::move(*r);
}

std::string blocker(const std::string& id) {
  return replaced(minimal_record("gotcha", id, "evidence_grade: anecdotal\n"), "severity: minor", "severity: blocker");
}

}  // namespace

TEST_CASE("record pass: a benchmark keeps its references and what corpus checks read, not its notes", "[lint][record_pass]") {
  Record r = loaded(minimal_record("benchmark", "b1", "model: Llama\nnotes: long notes\nbaseline: {benchmark: b0}\n"),
                    "benchmarks/b1.yaml", Kind::Benchmark);
  REQUIRE(r.data.contains("notes"));
  Mark baseline = r.mark_of("/baseline/benchmark");
  RecordPass pass;
  pass(r);
  CHECK_FALSE(r.data.contains("notes"));
  CHECK_FALSE(r.data.contains("grade"));
  CHECK(r.data.value("format_id", "") == "f");                    // a reference: the graph finds it again
  CHECK(r.data["baseline"].value("benchmark", "") == "b0");       // QS026 reads it
  CHECK(r.data.value("metric", "") == "ppl");
  CHECK(r.data.value("model", "") == "Llama");
  CHECK(r.mark_of("/baseline/benchmark") == baseline);
  CHECK(r.id == "b1");
}

TEST_CASE("record pass: kinds a corpus check reads whole stay whole, prune=false keeps every record whole",
          "[lint][record_pass]") {
  Record target = loaded(minimal_record("target", "t1", "notes: kept\n"), "targets/t1.yaml", Kind::Target);
  nlohmann::json before = target.data;
  RecordPass pass;
  pass(target);
  CHECK(target.data == before);  // selectors read every field of a target

  Record bench = loaded(minimal_record("benchmark", "b1", "notes: kept\n"), "benchmarks/b1.yaml", Kind::Benchmark);
  before = bench.data;
  RecordPass whole(/*prune=*/false);
  whole(bench);
  CHECK(bench.data == before);
}

TEST_CASE("record pass: record-part findings are kept for the records the corpus kept", "[lint][record_pass]") {
  RecordPass pass;
  Record a = loaded(blocker("g1"), "gotchas/g1.yaml", Kind::Gotcha);
  Record b = loaded(blocker("g1"), "gotchas/g1-copy.yaml", Kind::Gotcha);  // a repeated id, dropped later
  std::thread other([&] { pass(b); });
  pass(a);
  other.join();
  std::vector<Record> kept;
  kept.push_back(std::move(a));
  Findings f = pass.take(kept);
  REQUIRE(f.size() == 1);
  CHECK(f[0].code == "QS029");
  CHECK(f[0].file == "gotchas/g1.yaml");
  CHECK(f[0].mark == Mark{4, 11});
  CHECK(pass.take(kept).empty());  // taken once
}
