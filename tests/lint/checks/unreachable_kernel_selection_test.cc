#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void targets_and_kernels(const TempDir& d) {
  d.write("targets/sm90.yaml", minimal_record("target", "sm90", "compute_capability: 9.0\n"));
  d.write("targets/sm120.yaml", minimal_record("target", "sm120", "compute_capability: 12.0\n"));
  d.write("kernels/machete.yaml", replaced(minimal_record("kernel", "machete"), "runs_on: {}", "runs_on: {targets: [sm90]}"));
  d.write("kernels/marlin.yaml", replaced(minimal_record("kernel", "marlin"), "runs_on: {}", "runs_on: {min_cc: 7.5}"));
}

std::string engine(const std::string& selection) {
  return replaced(minimal_record("engine", "vllm"), "kernel_selection: []", "kernel_selection:\n" + selection);
}

}  // namespace

TEST_CASE("QS023 unreachable-kernel-selection fires when when and runs_on share no target", "[lint][QS023]") {
  TempDir d;
  targets_and_kernels(d);
  d.write("engines/vllm.yaml", engine("- kernel: marlin\n- kernel: machete\n  when: {targets: [sm120]}\n"));
  auto f = lint_code(d.path(), "QS023");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "engines/vllm.yaml:6:11: kernel_selection[1] selects machete, which runs on sm90, but "
                                 "the entry applies to sm120; no target is in both");
}

TEST_CASE("QS023 unreachable-kernel-selection is clean when some target satisfies both", "[lint][QS023]") {
  TempDir d;
  targets_and_kernels(d);
  d.write("engines/vllm.yaml", engine("- kernel: machete\n  when: {min_cc: 9.0}\n- kernel: marlin\n  when: {targets: [sm120]}\n"));
  CHECK(lint_code(d.path(), "QS023").empty());
}
