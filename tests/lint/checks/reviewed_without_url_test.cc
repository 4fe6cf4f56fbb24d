#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS027 reviewed-without-url fires on a reviewed record citing nothing openable", "[lint][QS027]") {
  TempDir d;
  d.write("formats/awq.yaml", replaced(minimal_record("format", "awq"), "status: draft", "status: reviewed"));
  auto f = lint_code(d.path(), "QS027");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "formats/awq.yaml:6:9: status is reviewed, but no source has a url; cite one primary "
                                 "source a reader can open");
}

TEST_CASE("QS027 reviewed-without-url is clean on drafts and on reviewed records with a url", "[lint][QS027]") {
  TempDir d;
  d.write("formats/awq.yaml", minimal_record("format", "awq"));
  d.write("formats/gptq.yaml", replaced(replaced(minimal_record("format", "gptq"), "status: draft", "status: reviewed"),
                                        "  - title: test", "  - title: test\n    url: https://example.org/gptq"));
  CHECK(lint_code(d.path(), "QS027").empty());
}
