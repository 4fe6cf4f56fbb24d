#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void benches(const TempDir& d) {
  d.write("benchmarks/bench-q4.yaml", replaced(minimal_record("benchmark", "bench-q4"), "format_id: f", "format_id: q4"));
  d.write("benchmarks/bench-q5.yaml", replaced(minimal_record("benchmark", "bench-q5"), "format_id: f", "format_id: q5"));
}

}  // namespace

TEST_CASE("QS021 quality-delta-other-format fires on evidence about another format", "[lint][QS021]") {
  TempDir d;
  benches(d);
  d.write("formats/q4.yaml", minimal_record("format", "q4", "quality_delta: [bench-q4]\n"));
  d.write("formats/q5.yaml", minimal_record("format", "q5", "quality_delta:\n- bench-q5\n- bench-q4\n"));
  auto f = lint_code(d.path(), "QS021");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "formats/q5.yaml:8:3: quality_delta cites bench-q4, a benchmark of q4, not of q5");
}

TEST_CASE("QS021 quality-delta-other-format is clean when each format cites its own benchmarks", "[lint][QS021]") {
  TempDir d;
  benches(d);
  d.write("formats/q4.yaml", minimal_record("format", "q4", "quality_delta: [bench-q4]\n"));
  d.write("formats/q5.yaml", minimal_record("format", "q5", "quality_delta: [bench-q5]\n"));
  CHECK(lint_code(d.path(), "QS021").empty());
}
