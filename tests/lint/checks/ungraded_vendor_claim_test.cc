#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string vendor_bench(const std::string& id, const std::string& grade, const std::string& extra) {
  return replaced(minimal_record("benchmark", id, extra), "grade: paper", "grade: " + grade);
}

}  // namespace

TEST_CASE("QS022 ungraded-vendor-claim fires on a vendor-reported figure graded otherwise", "[lint][QS022]") {
  TempDir d;
  d.write("benchmarks/a.yaml", vendor_bench("a", "controlled", "notes: One of seven Vendor-reported scores.\n"));
  d.write("benchmarks/b.yaml", replaced(vendor_bench("b", "paper", ""), "  - title: test", "  - title: NVFP4 blog (vendor marketing)"));
  auto f = lint_code(d.path(), "QS022");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "benchmarks/a.yaml:6:8: grade is \"controlled\" but the record calls the figure "
                                 "vendor-reported (notes); grade it vendor-claim");
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[1].message == "grade is \"paper\" but the record calls the figure vendor marketing (sources); grade it vendor-claim");
}

TEST_CASE("QS022 ungraded-vendor-claim is clean on vendor-claim grades and negated phrases", "[lint][QS022]") {
  TempDir d;
  d.write("benchmarks/a.yaml", vendor_bench("a", "vendor-claim", "notes: vendor-reported\n"));
  d.write("benchmarks/b.yaml", vendor_bench("b", "controlled", "notes: Reproduced independently; not a vendor claim.\n"));
  d.write("benchmarks/c.yaml", vendor_bench("c", "paper", "notes: The authors' own throughput claim.\n"));
  CHECK(lint_code(d.path(), "QS022").empty());
}
