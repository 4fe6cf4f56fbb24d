// The loader's problems reach lint as findings with their own codes and names.
#include <catch2/catch.hpp>

#include "lint/lint_support.h"
#include "qsel/lint/check.h"

using namespace qsel;
using namespace qsel::test;

namespace {

// "code file-relative:line:col: message" of every finding.
std::vector<std::string> all_of(const TempDir& d) {
  std::vector<std::string> out;
  for (const auto& f : lint_all(d.path()).findings) out.push_back(f.code + " " + where(f, d.path()));
  return out;
}

}  // namespace

TEST_CASE("QS001 schema fires with the JSON path and what was expected", "[lint][QS001]") {
  TempDir d;
  d.write("formats/awq.yaml", minimal_record("format", "awq", "regmie: w4a16\n"));
  CHECK(all_of(d) == std::vector<std::string>{
                         "QS001 formats/awq.yaml:6:1: /regmie: unknown field \"regmie\"; did you mean \"regime\"?"});
}

TEST_CASE("QS002 duplicate-id fires on the second record with an id", "[lint][QS002]") {
  TempDir d;
  d.write("formats/awq.yaml", minimal_record("format", "awq"));
  d.write("formats/awq-copy.yaml", minimal_record("format", "awq"));
  auto f = lint_code(d.path(), "QS002");
  REQUIRE(f.size() == 1);
  CHECK(f[0].name == "duplicate-id");
  CHECK(where(f[0], d.path()).rfind("formats/awq.yaml:1:5: id \"awq\" is already used by ", 0) == 0);
}

TEST_CASE("QS006 invalid-yaml, QS007 multiple-documents, QS008 duplicate-key, QS009 yaml-anchor: each fires",
          "[lint][QS006][QS007][QS008][QS009]") {
  TempDir d;
  d.write("formats/a.yaml", "id: a\nkind: [format\n");
  d.write("formats/b.yaml", "id: b\n---\nid: c\n");
  d.write("formats/c.yaml", minimal_record("format", "c", "regime: w8a8\n"));
  d.write("formats/d.yaml", "id: d\nnative_support: &parts [x]\nemulated_support: *parts\n");
  CHECK(all_of(d) == std::vector<std::string>{
                         "QS006 formats/a.yaml:3:1: invalid YAML: end of sequence flow not found",
                         "QS007 formats/b.yaml:2:1: more than one YAML document; a record file holds exactly one record",
                         "QS008 formats/c.yaml:6:1: duplicate key \"regime\" (first defined at line 5)",
                         "QS009 formats/d.yaml:2:17: anchors (&name) are not allowed in record files; write the value out",
                         "QS009 formats/d.yaml:3:19: aliases (*name) are not allowed in record files; write the value out",
                     });
}

TEST_CASE("QS010 file-too-large and QS011 invalid-encoding: each fires", "[lint][QS010][QS011]") {
  TempDir d;
  d.write("formats/big.yaml", "id: big\nnotes: " + std::string(1100000, 'x') + "\n");
  d.write("formats/latin1.yaml", "id: latin1\nname: AWQ (\xb5-scaled)\n");
  auto f = lint_all(d.path()).findings;
  REQUIRE(f.size() == 2);
  CHECK(f[0].code == "QS010");
  CHECK(f[0].name == "file-too-large");
  CHECK(f[0].message == "file is 1100016 bytes; a record file may be at most 1048576 bytes");
  CHECK(f[1].code == "QS011");
  CHECK(where(f[1], d.path()) == "formats/latin1.yaml:2:12: invalid UTF-8 (byte 0xB5); record files must be UTF-8");
}

TEST_CASE("QS013 unknown-kind-folder and QS014 unreadable-file: each fires", "[lint][QS013][QS014]") {
  TempDir d;
  d.write("format/awq.yaml", minimal_record("format", "awq"));
  auto f = lint_all(d.path()).findings;
  REQUIRE(f.size() == 1);
  CHECK(f[0].code == "QS013");
  CHECK(f[0].message == "folder \"format\" is not a record kind (did you mean \"formats\"?); its files were not loaded");
  // A file that vanishes between listing and reading: the loader's QS014, as a lint finding.
  Corpus c = load_corpus(d.path() / "no-such", schemas());
  auto missing = loader_findings(c.problems);
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].code == "QS014");
  CHECK(missing[0].name == "unreadable-file");
}

TEST_CASE("loader rules are clean on a valid corpus",
          "[lint][QS001][QS002][QS006][QS007][QS008][QS009][QS010][QS011][QS013][QS014]") {
  TempDir d;
  d.write("formats/awq.yaml", minimal_record("format", "awq"));
  d.write("targets/sm90.yaml", minimal_record("target", "sm90"));
  CHECK(lint_all(d.path()).findings.empty());
}
