#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string rated_part(const std::string& id, const std::string& rates) {
  return replaced(minimal_record("accelerator", id, rates), "target: sm90", "target: sm90");
}

}  // namespace

TEST_CASE("QS042 rounded-rate fires on a dense rate off its sparse one and on a sibling's rounded copy", "[lint][QS042]") {
  TempDir d;
  // h200-nvl: the datasheet prints sparse figures; the record carried rounded copies of their halves.
  d.write("accelerators/h200-nvl.yaml", rated_part("h200-nvl", "tflops:\n  fp16: 840\n  int8: 1680\ntflops_sparse:\n  fp16: 1671\n  int8: 3341\n  fp8: 3341\n"));
  // gh200: the H100 SXM's silicon, one figure cut to a whole number.
  d.write("accelerators/h100-sxm.yaml", rated_part("h100-sxm", "tflops:\n  tf32: 494.5\n  fp16: 989.5\n  fp8: 1979\n"));
  d.write("accelerators/h200.yaml", rated_part("h200", "tflops:\n  tf32: 494.5\n  fp16: 989.5\n  fp8: 1979\n"));
  d.write("accelerators/gh200.yaml", rated_part("gh200", "tflops:\n  tf32: 494.5\n  fp16: 989\n  fp8: 1979\n"));
  auto f = lint_code(d.path(), "QS042");
  REQUIRE(f.size() == 4);
  CHECK(where(f[0], d.path()) == "accelerators/gh200.yaml:8:9: tflops.fp16 is 989, and h100-sxm's is 989.5 (same target sm90, the same "
                                 "figures otherwise): one of the two is a rounded copy of the other; take the datasheet's");
  CHECK(where(f[1], d.path()) == "accelerators/h200-nvl.yaml:7:9: tflops.fp16 is 840, but the datasheet's sparse 1671 halves to 835.5: a "
                                 "dense rate is its sparse one divided by 2");
  CHECK(where(f[2], d.path()) == "accelerators/h200-nvl.yaml:8:9: tflops.int8 is 1680, but the datasheet's sparse 3341 halves to 1670.5: a "
                                 "dense rate is its sparse one divided by 2");
  CHECK(where(f[3], d.path()) == "accelerators/h200-nvl.yaml:12:8: tflops_sparse.fp8 is 3341, but tflops has no fp8: give the dense "
                                 "rate, 1670.5");
  REQUIRE(f[1].fix);  // --fix writes the half
  CHECK(f[1].fix->old_text == "840");
  CHECK(f[1].fix->new_text == "835.5");
}

TEST_CASE("QS042 rounded-rate settles a tie by the part whose sparse rate it halves, and leaves other parts alone", "[lint][QS042]") {
  TempDir d;
  d.write("accelerators/h100-nvl.yaml", rated_part("h100-nvl", "tflops:\n  tf32: 417.5\n  fp16: 835.5\ntflops_sparse:\n  tf32: 835\n  fp16: 1671\n"));
  d.write("accelerators/h200-nvl.yaml", rated_part("h200-nvl", "tflops:\n  tf32: 420\n  fp16: 840\n"));
  auto f = lint_code(d.path(), "QS042");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "accelerators/h200-nvl.yaml:7:9: tflops.tf32 is 420, and h100-nvl's is 417.5 (same target sm90, the same "
                                 "figures otherwise): one of the two is a rounded copy of the other — h100-nvl's is its sparse rate halved; "
                                 "take the datasheet's");
  CHECK(where(f[1], d.path()) == "accelerators/h200-nvl.yaml:8:9: tflops.fp16 is 840, and h100-nvl's is 835.5 (same target sm90, the same "
                                 "figures otherwise): one of the two is a rounded copy of the other — h100-nvl's is its sparse rate halved; "
                                 "take the datasheet's");
}

TEST_CASE("QS042 rounded-rate is clean on halved sparse rates, equal siblings and different parts", "[lint][QS042]") {
  TempDir d;
  d.write("accelerators/h100-nvl.yaml", rated_part("h100-nvl", "tflops:\n  fp16: 835.5\n  fp8: 1670.5\ntflops_sparse:\n  fp16: 1671\n  fp8: 3341\n"));
  d.write("accelerators/h100-sxm.yaml", rated_part("h100-sxm", "tflops:\n  fp16: 989.5\n  fp8: 1979\n"));
  d.write("accelerators/h200.yaml", rated_part("h200", "tflops:\n  fp16: 989.5\n  fp8: 1979\n"));
  // Near figures on parts whose other rates differ are different silicon, not copies (a2 / a16).
  d.write("accelerators/a2.yaml", rated_part("a2", "tflops:\n  tf32: 9.06\n  fp16: 18.13\n"));
  d.write("accelerators/a16.yaml", rated_part("a16", "tflops:\n  tf32: 9\n  fp16: 17.9\n"));
  CHECK(lint_code(d.path(), "QS042").empty());
}
