#include <catch2/catch.hpp>

#include <set>

#include "qsel/loader/loader.h"
#include "support/fixtures.h"

using namespace qsel;
using qsel::test::minimal_record;

TEST_CASE("loader: a corpus with every kind of bad input yields one located message per problem", "[loader]") {
  qsel::test::TempDir dir;
  dir.write("formats/good.yaml", minimal_record("format", "good"));
  dir.write("formats/syntax.yaml", "id: syntax\nname: [unclosed\n");
  dir.write("formats/two-docs.yaml", minimal_record("format", "two-docs") + "---\nid: again\n");
  dir.write("formats/dup-key.yaml", minimal_record("format", "dup-key") + "name: again\n");
  dir.write("formats/anchor.yaml", minimal_record("format", "anchor", "related: &r [good]\nnotes: *r\n"));
  dir.write("formats/big.yaml", minimal_record("format", "big", "notes: |\n" + std::string(1100000, 'x') + "\n"));
  dir.write("formats/latin1.yaml", minimal_record("format", "latin1", "notes: caf\xe9\n"));
  dir.write("formats/schema.yaml", minimal_record("format", "schema", "weight_bits: four\n"));
  dir.write("formats/dup-id.yaml", minimal_record("format", "good"));
  dir.write("widgets/w.yaml", "id: w\n");
  dir.write("formats/README.md", "not a record");

  Corpus c = load_corpus(dir.path(), qsel::test::schemas());
  std::string root = dir.path().lexically_normal().generic_string();
  std::vector<std::string> lines;
  for (const auto& p : c.problems) lines.push_back(located(p).substr(root.size()) + " [" + p.code + "]");
  std::sort(lines.begin(), lines.end());
  CHECK(lines == std::vector<std::string>{
      "/formats/anchor.yaml:6:10: anchors (&name) are not allowed in record files; write the value out [QS009]",
      "/formats/anchor.yaml:7:8: aliases (*name) are not allowed in record files; write the value out [QS009]",
      "/formats/big.yaml: file is " + std::to_string(std::filesystem::file_size(dir.path() / "formats/big.yaml")) +
          " bytes; a record file may be at most 1048576 bytes [QS010]",
      "/formats/dup-key.yaml:10:1: duplicate key \"name\" (first defined at line 3) [QS008]",
      "/formats/good.yaml:1:5: id \"good\" is already used by " + root + "/formats/dup-id.yaml:1 [QS002]",
      "/formats/latin1.yaml:6:11: invalid UTF-8 (byte 0xE9); record files must be UTF-8 [QS011]",
      "/formats/schema.yaml:6:14: /weight_bits: expected number or null, got string \"four\" [QS001]",
      "/formats/syntax.yaml:3:1: invalid YAML: end of sequence flow not found [QS006]",
      "/formats/two-docs.yaml:10:1: more than one YAML document; a record file holds exactly one record [QS007]",
      "/widgets: folder \"widgets\" is not a record kind; its files were not loaded [QS013]",
  });
  // The record that failed only its schema is kept without the offending value (lint
  // only: a corpus with problems is never served), so references to it resolve.
  REQUIRE(c.records.size() == 2);
  CHECK(c.records[0].id == "good");
  CHECK(c.records[0].file == root + "/formats/dup-id.yaml");  // the first file in path order wins
  CHECK_FALSE(c.records[0].repaired);
  CHECK(c.records[1].file == root + "/formats/schema.yaml");
  CHECK(c.records[1].repaired);
  CHECK_FALSE(c.records[1].data.contains("weight_bits"));
  CHECK(c.files == 9);
}

TEST_CASE("loader: records keep their file and the marks of every value", "[loader]") {
  qsel::test::TempDir dir;
  dir.write("accelerators/a.yaml", minimal_record("accelerator", "a", "memory_gb: 80\n"));
  dir.write("targets/sm90.yaml", minimal_record("target", "sm90"));
  Corpus c = load_corpus(dir.path(), qsel::test::schemas());
  REQUIRE(c.problems.empty());
  REQUIRE(c.records.size() == 2);
  const Record& a = c.records[0];
  CHECK(a.id == "a");
  CHECK(a.kind == Kind::Accelerator);
  CHECK(a.file == (dir.path() / "accelerators/a.yaml").lexically_normal().generic_string());
  CHECK(a.mark_of("/memory_gb") == Mark{6, 12});
  CHECK(a.mark_of("/sources/0/title") == Mark{10, 12});
  CHECK(a.data["memory_gb"] == 80);
}

TEST_CASE("loader: a kind folder or a single file can be loaded on its own", "[loader]") {
  qsel::test::TempDir dir;
  auto f = dir.write("formats/x.yaml", minimal_record("format", "x"));
  CHECK(load_corpus(dir.path() / "formats", qsel::test::schemas()).records.size() == 1);
  CHECK(load_corpus(f, qsel::test::schemas()).records.size() == 1);
  auto stray = dir.write("misc/y.yaml", minimal_record("format", "y"));
  auto c = load_corpus(stray, qsel::test::schemas());
  REQUIRE(c.problems.size() == 1);
  CHECK(c.problems[0].code == "QS013");
  auto missing = load_corpus(dir.path() / "nope", qsel::test::schemas());
  REQUIRE(missing.problems.size() == 1);
  CHECK(missing.problems[0].message == "no such file or directory");
}

TEST_CASE("loader: the digest depends on content, not on where the corpus lives", "[loader]") {
  qsel::test::TempDir a, b;
  a.write("formats/x.yaml", minimal_record("format", "x"));
  b.write("formats/x.yaml", minimal_record("format", "x"));
  auto ca = load_corpus(a.path(), qsel::test::schemas());
  auto cb = load_corpus(b.path(), qsel::test::schemas());
  CHECK(ca.digest == cb.digest);
  b.write("formats/x.yaml", minimal_record("format", "x", "notes: changed\n"));
  CHECK(load_corpus(b.path(), qsel::test::schemas()).digest != ca.digest);
}
