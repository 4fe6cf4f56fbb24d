#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS040 duplicate-release-repo fires on a repo listed twice, across records and within one, whatever its case", "[lint][QS040]") {
  TempDir d;
  d.write("models/a.yaml", minimal_record("model", "a", "releases:\n- format: bf16\n  repo: meta-llama/Llama-3.1-70B-Instruct\n"));
  d.write("models/b.yaml", minimal_record("model", "b",
                                          "releases:\n- format: bf16\n  repo: Meta-Llama/llama-3.1-70b-instruct\n"
                                          "- format: awq\n  repo: org/x\n- format: gptq\n  repo: org/x\n"));
  auto f = lint_code(d.path(), "QS040");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "models/b.yaml:13:9: releases[0].repo \"Meta-Llama/llama-3.1-70b-instruct\" is already a release of a "
                                 "(releases[0]): a repo is one checkpoint of one model");
  CHECK(where(f[1], d.path()) == "models/b.yaml:17:9: releases[2].repo \"org/x\" is already a release of this record (releases[1]): a repo is "
                                 "one checkpoint of one model");
}

TEST_CASE("QS040 duplicate-release-repo is clean on distinct repos", "[lint][QS040]") {
  TempDir d;
  d.write("models/a.yaml", minimal_record("model", "a", "releases:\n- format: bf16\n  repo: org/a\n- format: awq\n  repo: org/a-AWQ\n"));
  d.write("models/b.yaml", minimal_record("model", "b", "releases:\n- format: bf16\n  repo: org/b\n"));
  CHECK(lint_code(d.path(), "QS040").empty());
}

TEST_CASE("QS040 duplicate-release-repo lets one record list a GGUF repo once per type, and no type twice", "[lint][QS040]") {
  TempDir d;
  d.write("formats/gq4.yaml", replaced(minimal_record("format", "gq4"), "scheme: awq", "scheme: gguf"));
  d.write("formats/gq8.yaml", replaced(minimal_record("format", "gq8"), "scheme: awq", "scheme: gguf"));
  d.write("models/a.yaml", minimal_record("model", "a",
                                          "releases:\n- format: gq4\n  repo: org/a-GGUF\n- format: gq8\n  repo: org/a-GGUF\n"
                                          "- format: gq8\n  repo: org/a-GGUF\n"));
  d.write("models/b.yaml", minimal_record("model", "b", "releases:\n- format: gq4\n  repo: org/a-GGUF\n"));
  auto f = lint_code(d.path(), "QS040");
  REQUIRE(f.size() == 2);  // the same type again, and another record
  CHECK(where(f[0], d.path()).find("models/a.yaml:") == 0);
  CHECK(f[0].message.find("releases[2].repo \"org/a-GGUF\" is already a release of this record (releases[0])") == 0);
  CHECK(where(f[1], d.path()).find("models/b.yaml:") == 0);
  CHECK(f[1].message.find("is already a release of a (releases[0])") != std::string::npos);
}
