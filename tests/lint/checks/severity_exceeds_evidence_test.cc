#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS029 severity-exceeds-evidence fires on a blocker resting on one report", "[lint][QS029]") {
  TempDir d;
  d.write("gotchas/g1.yaml", replaced(minimal_record("gotcha", "g1", "evidence_grade: anecdotal\n"), "severity: minor", "severity: blocker"));
  d.write("gotchas/g2.yaml", replaced(minimal_record("gotcha", "g2"), "severity: minor", "severity: blocker"));
  auto f = lint_code(d.path(), "QS029");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "gotchas/g1.yaml:4:11: severity blocker rests on anecdotal evidence; a blocker needs "
                                 "evidence_grade reproduced, documented or measured");
  CHECK(where(f[1], d.path()) == "gotchas/g2.yaml:4:11: severity blocker rests on unstated evidence; a blocker needs "
                                 "evidence_grade reproduced, documented or measured");
}

TEST_CASE("QS029 severity-exceeds-evidence is clean on evidenced blockers and on lesser severities", "[lint][QS029]") {
  TempDir d;
  d.write("gotchas/g1.yaml", replaced(minimal_record("gotcha", "g1", "evidence_grade: reproduced\n"), "severity: minor", "severity: blocker"));
  d.write("gotchas/g2.yaml", replaced(minimal_record("gotcha", "g2", "evidence_grade: anecdotal\n"), "severity: minor", "severity: major"));
  CHECK(lint_code(d.path(), "QS029").empty());
}
