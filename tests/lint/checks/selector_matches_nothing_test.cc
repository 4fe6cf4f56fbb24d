#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS024 selector-matches-nothing fires on a backwards capability range and a misspelt family",
          "[lint][QS024]") {
  TempDir d;
  d.write("targets/sm90.yaml", minimal_record("target", "sm90", "compute_capability: 9.0\nfamily: hopper\n"));
  d.write("kernels/marlin.yaml", replaced(minimal_record("kernel", "marlin"), "runs_on: {}", "runs_on:\n  min_cc: 8.0\n  max_cc: 7.5"));
  d.write("gotchas/trap.yaml", replaced(minimal_record("gotcha", "trap"), "applies: {}", "applies: {targets: {families: [hoper]}}"));
  auto f = lint_code(d.path(), "QS024");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "gotchas/trap.yaml:6:20: targets matches no target in the corpus: {\"families\":[\"hoper\"]}");
  CHECK(where(f[1], d.path()) == "kernels/marlin.yaml:6:3: runs_on matches no target in the corpus: {\"max_cc\":7.5,\"min_cc\":8.0}");
  CHECK(f[1].severity == Severity::Warning);
}

TEST_CASE("QS024 selector-matches-nothing is clean on matching selectors and corpora without targets", "[lint][QS024]") {
  TempDir d;
  d.write("kernels/marlin.yaml", replaced(minimal_record("kernel", "marlin"), "runs_on: {}", "runs_on: {min_cc: 20}"));
  CHECK(lint_code(d.path(), "QS024").empty());
  d.write("targets/sm90.yaml", minimal_record("target", "sm90", "compute_capability: 9.0\n"));
  d.write("kernels/marlin.yaml", replaced(minimal_record("kernel", "marlin"), "runs_on: {}", "runs_on: {min_cc: 8.0}"));
  CHECK(lint_code(d.path(), "QS024").empty());
}
