#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS018 training-only-marked-ptq fires on a ternary format marked post-training", "[lint][QS018]") {
  TempDir d;
  d.write("formats/gguf-tq1-0.yaml", replaced(minimal_record("format", "gguf-tq1-0", "post_training: true\n"),
                                              "regime: w4a16", "regime: ternary"));
  auto f = lint_code(d.path(), "QS018");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "formats/gguf-tq1-0.yaml:6:16: regime ternary is a training-time recipe, but "
                                 "post_training is true; only checkpoints trained ternary survive conversion");
}

TEST_CASE("QS018 training-only-marked-ptq is clean on ternary false and PTQ regimes", "[lint][QS018]") {
  TempDir d;
  d.write("formats/bitnet.yaml", replaced(minimal_record("format", "bitnet", "post_training: false\n"),
                                          "regime: w4a16", "regime: ternary"));
  d.write("formats/awq.yaml", minimal_record("format", "awq", "post_training: true\n"));
  CHECK(lint_code(d.path(), "QS018").empty());
}
