#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS012 file-name-mismatch fires, and fixes the id only where that is safe", "[lint][QS012]") {
  TempDir d;
  d.write("formats/awq-4bit.yaml", minimal_record("format", "awq"));
  d.write("formats/gptq-4bit.yaml", minimal_record("format", "gptq"));
  d.write("formats/marlin-user.yaml", minimal_record("format", "marlin-user", "related: [gptq]\n"));
  auto f = lint_code(d.path(), "QS012");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "formats/awq-4bit.yaml:1:5: id \"awq\" does not match the file name \"awq-4bit.yaml\"");
  REQUIRE(f[0].fix);
  CHECK(f[0].fix->old_text == "awq");
  CHECK(f[0].fix->new_text == "awq-4bit");
  CHECK(where(f[1], d.path()) == "formats/gptq-4bit.yaml:1:5: id \"gptq\" does not match the file name \"gptq-4bit.yaml\"");
  CHECK_FALSE(f[1].fix);  // marlin-user refers to gptq: renaming it would break that reference
}

TEST_CASE("QS012 file-name-mismatch does not fix to a taken or invalid id", "[lint][QS012]") {
  TempDir d;
  d.write("formats/awq.yaml", minimal_record("format", "awq"));
  d.write("formats/Awq_Copy.yaml", minimal_record("format", "awq-copy"));
  d.write("formats/awq-dup.yaml", minimal_record("format", "awq-two", "aliases: [x]\n"));
  d.write("formats/awq-two.yaml", minimal_record("format", "awq-dup"));
  auto f = lint_code(d.path(), "QS012");
  REQUIRE(f.size() == 3);
  for (const auto& x : f) CHECK_FALSE(x.fix);
}

TEST_CASE("QS012 file-name-mismatch is clean when every file is named after its id", "[lint][QS012]") {
  TempDir d;
  d.write("formats/awq.yaml", minimal_record("format", "awq"));
  d.write("formats/gptq.yml", minimal_record("format", "gptq"));
  CHECK(lint_code(d.path(), "QS012").empty());
}
