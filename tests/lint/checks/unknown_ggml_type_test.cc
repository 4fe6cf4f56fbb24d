#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string ggml_gguf(const std::string& id, const std::string& extra) {
  return replaced(minimal_record("format", id, extra), "scheme: awq", "scheme: gguf");
}

}  // namespace

TEST_CASE("QS028 unknown-ggml-type fires on a missing, misspelt or prose type", "[lint][QS028]") {
  TempDir d;
  d.write("formats/a.yaml", ggml_gguf("a", ""));
  d.write("formats/b.yaml", ggml_gguf("b", "ggml_type: Q4_KM\n"));
  d.write("formats/c.yaml", ggml_gguf("c", "ggml_type: MXFP4\nmixture: {base: MXFP4 (experts)}\n"));
  auto f = lint_code(d.path(), "QS028");
  REQUIRE(f.size() == 3);
  CHECK(where(f[0], d.path()) == "formats/a.yaml:4:9: a GGUF format needs ggml_type (its base block type) so its group "
                                 "size and bpw can be checked");
  CHECK(where(f[1], d.path()) == "formats/b.yaml:6:12: ggml_type \"Q4_KM\" is not a ggml block type qsel knows; did you "
                                 "mean \"Q4_K\"?");
  CHECK(where(f[2], d.path()) == "formats/c.yaml:7:17: mixture.base \"MXFP4 (experts)\" is not a ggml block type qsel "
                                 "knows; did you mean \"MXFP4\"?");
}

TEST_CASE("QS028 unknown-ggml-type is clean on known types and non-GGUF formats", "[lint][QS028]") {
  TempDir d;
  d.write("formats/a.yaml", ggml_gguf("a", "ggml_type: q4_k\nmixture: {base: Q4_K}\n"));
  d.write("formats/awq.yaml", minimal_record("format", "awq"));
  CHECK(lint_code(d.path(), "QS028").empty());
}
