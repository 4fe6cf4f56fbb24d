#include <catch2/catch.hpp>

#include "lint/lint_support.h"
#include "qsel/lint/errors.h"
#include "qsel/lint/workspace.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void corpus(const TempDir& d) {
  d.write("data/targets/sm90.yaml", minimal_record("target", "sm90"));
  d.write("data/accelerators/h100-sxm.yaml", minimal_record("accelerator", "h100-sxm"));
  d.write("data/formats/awq.yaml", minimal_record("format", "awq", "emulated_support: [h100-sxm]\n"));
  d.write("data/formats/gptq.yaml", minimal_record("format", "gptq", "emulated_support: [h100-sxn]\n"));
}

}  // namespace

TEST_CASE("workspace: a corpus directory is loaded and in scope whole", "[lint][workspace]") {
  TempDir d;
  corpus(d);
  Workspace ws = load_workspace({(d.path() / "data").string()}, schemas());
  CHECK(ws.corpus.records.size() == 4);
  CHECK(ws.files_in_scope() == 4);
  CHECK(ws.records_in_scope() == 4);
}

TEST_CASE("workspace: a single file brings its corpus as context but scopes to itself", "[lint][workspace]") {
  TempDir d;
  corpus(d);
  auto file = (d.path() / "data/formats/awq.yaml").string();
  Workspace ws = load_workspace({file}, schemas());
  CHECK(ws.corpus.records.size() == 4);  // references resolve against the whole corpus
  CHECK(ws.files_in_scope() == 1);
  CHECK(ws.in_scope(file));
  CHECK_FALSE(ws.in_scope((d.path() / "data/formats/gptq.yaml").string()));
  CHECK(lint_all(file).findings.empty());  // h100-sxm resolves; gptq's dangling ref is out of scope
  CHECK(lint_all(d.path() / "data/formats/gptq.yaml").findings.size() == 1);
}

TEST_CASE("workspace: a kind folder is scoped to that folder", "[lint][workspace]") {
  TempDir d;
  corpus(d);
  Workspace ws = load_workspace({(d.path() / "data/formats/").string()}, schemas());
  CHECK(ws.files_in_scope() == 2);
  CHECK(ws.records_in_scope() == 2);
}

TEST_CASE("workspace: several paths are checked together, a missing one is an input error", "[lint][workspace]") {
  TempDir d;
  d.write("a/formats/awq.yaml", minimal_record("format", "awq", "related: [gptq]\n"));
  d.write("b/formats/gptq.yaml", minimal_record("format", "gptq"));
  d.write("b/formats/awq.yaml", minimal_record("format", "awq"));
  LintSettings s;
  auto report = lint_both_ways({(d.path() / "a").string(), (d.path() / "b").string()}, s);
  REQUIRE(report.findings.size() == 1);
  CHECK(report.findings[0].code == "QS002");  // the same id in both corpora; gptq resolves across them
  CHECK(report.files == 3);
  CHECK_THROWS_AS(load_workspace({(d.path() / "nope").string()}, schemas()), LintInputError);
  CHECK_THROWS_WITH(load_workspace({(d.path() / "nope").string()}, schemas()),
                    Catch::Matchers::EndsWith("nope: no such file or directory"));
}
