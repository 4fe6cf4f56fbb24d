#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS044 checkpoint-format-mismatch fires on a per-channel checkpoint filed under a group-128 format", "[lint][QS044]") {
  TempDir d;
  d.write("formats/gptq.yaml", minimal_record("format", "gptq", "weight_group_size: 128\n"));
  d.write("benchmarks/q405.yaml",
          replaced(minimal_record("benchmark", "q405", "checkpoint:\n  repo: RedHatAI/Meta-Llama-3.1-405B-Instruct-quantized.w4a16\n"
                                                       "  group_size: channel\n"),
                   "format_id: f", "format_id: gptq"));
  d.write("benchmarks/q64.yaml", replaced(minimal_record("benchmark", "q64", "checkpoint: {group_size: 64}\n"), "format_id: f",
                                          "format_id: gptq"));
  auto f = lint_code(d.path(), "QS044");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "benchmarks/q405.yaml:9:15: the measured checkpoint has group size channel, but gptq is defined by group "
                                 "128: file the row under the format the checkpoint is");
  CHECK(where(f[1], d.path()) == "benchmarks/q64.yaml:7:26: the measured checkpoint has group size 64, but gptq is defined by group 128: "
                                 "file the row under the format the checkpoint is");
}

TEST_CASE("QS044 checkpoint-format-mismatch is clean on a matching group and on formats without one", "[lint][QS044]") {
  TempDir d;
  d.write("formats/gptq.yaml", minimal_record("format", "gptq", "weight_group_size: 128\n"));
  d.write("formats/ct.yaml", minimal_record("format", "ct"));
  d.write("benchmarks/g128.yaml", replaced(minimal_record("benchmark", "g128", "checkpoint: {group_size: 128}\n"), "format_id: f",
                                           "format_id: gptq"));
  d.write("benchmarks/ch.yaml", replaced(minimal_record("benchmark", "ch", "checkpoint: {group_size: channel}\n"), "format_id: f",
                                         "format_id: ct"));
  CHECK(lint_code(d.path(), "QS044").empty());
}
