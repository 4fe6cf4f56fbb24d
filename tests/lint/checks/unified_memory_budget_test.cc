#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string unified_part(const std::string& id, const std::string& target, const std::string& extra) {
  return replaced(minimal_record("accelerator", id, "memory_gb: 16\nmemory_type: unified LPDDR5\n" + extra), "target: sm90",
                  "target: " + target);
}

}  // namespace

TEST_CASE("QS049 unified-memory-budget fires on a unified part with no budget, rule or reason, and on a figure without evidence",
          "[lint][QS049]") {
  TempDir d;
  d.write("targets/tj.yaml", minimal_record("target", "tj"));
  d.write("accelerators/bare.yaml", unified_part("bare", "tj", ""));
  d.write("accelerators/unsourced.yaml", unified_part("unsourced", "tj", "gpu_free_gb: 12.5\n"));
  auto f = lint_code(d.path(), "QS049");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()).find("accelerators/bare.yaml:") == 0);
  CHECK(f[0].message ==
        "unified-memory part with no budget (gpu_working_set_mib, gpu_free_gb or gpu_visible_gb), no working-set or free-share rule on its target tj "
        "and no gpu_budget_note: it is sized from its whole 16 GiB");
  CHECK(where(f[1], d.path()).find("accelerators/unsourced.yaml:") == 0);
  CHECK(f[1].message == "gpu_free_gb is recorded without a gpu_budget_evidence entry: say where it comes from (basis, grade, source)");
}

TEST_CASE("QS049 unified-memory-budget is clean with a sourced figure, a target rule, a recorded reason, or discrete memory",
          "[lint][QS049]") {
  TempDir d;
  d.write("targets/tj.yaml", minimal_record("target", "tj"));
  d.write("targets/tm.yaml", replaced(minimal_record("target", "tm", "gpu_working_set:\n- fraction: 0.75\n"), "platform: cuda",
                                      "platform: metal"));
  d.write("accelerators/sourced.yaml", unified_part("sourced", "tj", R"(gpu_free_gb: 12.5
gpu_budget_evidence:
- field: gpu_free_gb
  basis: this-part
  grade: anecdotal
  source:
    title: a published log
)"));
  d.write("targets/tf.yaml", minimal_record("target", "tf", "gpu_free_share:\n- fraction: 0.8\n"));
  d.write("accelerators/ruled.yaml", unified_part("ruled", "tm", ""));
  d.write("accelerators/shared.yaml", unified_part("shared", "tf", ""));
  d.write("accelerators/noted.yaml", unified_part("noted", "tj", "gpu_budget_note: no published figure was found\n"));
  d.write("accelerators/card.yaml", minimal_record("accelerator", "card", "memory_gb: 16\nmemory_type: GDDR6\n"));
  CHECK(lint_code(d.path(), "QS049").empty());
}
