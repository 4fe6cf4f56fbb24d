#include <catch2/catch.hpp>

#include "lint/lint_support.h"
#include "qsel/core/citation.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string stale_kernel(const std::string& id, const std::string& date) {
  return replaced(minimal_record("kernel", id), "sources:\n  - title: test\n",
                  "sources:\n  - title: machete.py\n    url: https://github.com/vllm-project/vllm/blob/" + std::string(40, 'b') +
                      "/machete.py\n    date: " + date + "\n");
}

Findings stale(const std::filesystem::path& dir, int months) {
  LintSettings s;
  s.select = {"QS038"};
  s.check_options.stale_after_months = months;
  s.check_options.today = date_days("2026-12-01");
  return lint_both_ways({dir.string()}, s).findings;
}

}  // namespace

TEST_CASE("QS038 stale-engine-fact fires on engine facts older than --stale-after", "[lint][QS038]") {
  TempDir d;
  d.write("kernels/machete.yaml", stale_kernel("machete", "2025-03-02"));
  d.write("kernels/marlin.yaml", stale_kernel("marlin", "2026-06-01"));
  d.write("formats/awq.yaml", replaced(minimal_record("format", "awq"), "sources:\n  - title: test\n",
                                        "sources:\n  - title: old paper code\n    url: https://github.com/a/b/blob/" +
                                            std::string(40, 'c') + "/x.py\n    date: 2020-01-01\n"));
  auto f = stale(d.path(), 12);
  REQUIRE(f.size() == 1);  // the format's source is not an engine fact
  CHECK(where(f[0], d.path()) == "kernels/machete.yaml:11:11: engine fact read at bbbbbbb on 2025-03-02, 21 months before 2026-12-01 "
                                 "(--stale-after 12): re-read it at a current commit");
  CHECK(f[0].severity == Severity::Warning);
}

TEST_CASE("QS038 stale-engine-fact is clean unless --stale-after is given and exceeded", "[lint][QS038]") {
  TempDir d;
  d.write("kernels/machete.yaml", stale_kernel("machete", "2019-03-02"));
  CHECK(stale(d.path(), 0).empty());
  CHECK(lint_code(d.path(), "QS038").empty());
  CHECK(stale(d.path(), 120).empty());
}
