#include <catch2/catch.hpp>

#include "qsel/loader/yaml_reader.h"
#include "support/fixtures.h"

using namespace qsel;
using nlohmann::json;

TEST_CASE("yaml_reader: plain scalars resolve with YAML 1.2 core rules", "[loader]") {
  CHECK(resolve_plain_scalar("no") == json("no"));
  CHECK(resolve_plain_scalar("yes") == json("yes"));
  CHECK(resolve_plain_scalar("off") == json("off"));
  CHECK(resolve_plain_scalar("010") == json(10));
  CHECK(resolve_plain_scalar("0o17") == json(15));
  CHECK(resolve_plain_scalar("0x1F") == json(31));
  CHECK(resolve_plain_scalar("true") == json(true));
  CHECK(resolve_plain_scalar("False") == json(false));
  CHECK(resolve_plain_scalar("~").is_null());
  CHECK(resolve_plain_scalar("4.5") == json(4.5));
  CHECK(resolve_plain_scalar("1e3") == json(1000.0));
  CHECK(resolve_plain_scalar("sm90") == json("sm90"));
  CHECK(resolve_plain_scalar("1.2.3") == json("1.2.3"));
}

TEST_CASE("yaml_reader: quoted scalars stay strings", "[loader]") {
  auto d = read_yaml("a: '123'\nb: \"no\"\nc: 123\nd: |\n  text\n", "f.yaml");
  REQUIRE(d.ok());
  CHECK(d.value["a"] == json("123"));
  CHECK(d.value["b"] == json("no"));
  CHECK(d.value["c"] == json(123));
  CHECK(d.value["d"] == json("text\n"));
}

TEST_CASE("yaml_reader: every node gets a 1-based mark, columns count characters", "[loader]") {
  auto e = read_yaml("id: x\nname: ééé\nnext: 5\nlist:\n  - a\n  - b\n", "f.yaml");
  REQUIRE(e.ok());
  CHECK(e.marks.value("/id") == std::optional<Mark>(Mark{1, 5}));
  CHECK(e.marks.key("/id") == std::optional<Mark>(Mark{1, 1}));
  CHECK(e.marks.value("/name") == std::optional<Mark>(Mark{2, 7}));
  CHECK(e.marks.value("/list/1") == std::optional<Mark>(Mark{6, 5}));
  CHECK(e.marks.value("/list") == std::optional<Mark>(Mark{5, 3}));
  CHECK(e.marks.value("") == std::optional<Mark>(Mark{1, 1}));
  auto u = read_yaml("k: ééé\nx: [ü, b]\n", "f.yaml");
  REQUIRE(u.ok());
  CHECK(u.marks.value("/x/1") == std::optional<Mark>(Mark{2, 8}));
}

TEST_CASE("yaml_reader: rejects each kind of bad input with a located message", "[loader]") {
  struct Case { const char* text; const char* code; Mark mark; const char* message; };
  std::vector<Case> cases = {
      {"a: [1, 2\n", "QS006", {2, 1}, "invalid YAML: end of sequence flow not found"},
      {"a: 1\n---\nb: 2\n", "QS007", {2, 1}, "more than one YAML document; a record file holds exactly one record"},
      {"a: 1\nb: 2\na: 3\n", "QS008", {3, 1}, "duplicate key \"a\" (first defined at line 1)"},
      {"a: &x 1\nb: *x\n", "QS009", {1, 4}, "anchors (&name) are not allowed in record files; write the value out"},
      {"", "QS006", {1, 1}, "empty file: expected one record (a YAML mapping)"},
      {"a: \xff\n", "QS011", {1, 4}, "invalid UTF-8 (byte 0xFF); record files must be UTF-8"},
      {"a: b\0c\n", "QS011", {1, 5}, "NUL byte in text; record files must be plain UTF-8 text"},
      {"a: !custom x\n", "QS006", {1, 4}, "unsupported tag \"!custom\""},
      {"a: .inf\n", "QS006", {1, 4}, "\".inf\" is not a finite number; records have no use for it"},
  };
  for (const auto& c : cases) {
    std::string text = c.text;
    if (std::string(c.message).rfind("NUL", 0) == 0) text = std::string("a: b\0c\n", 7);
    INFO(c.text);
    auto d = read_yaml(text, "f.yaml");
    REQUIRE(!d.problems.empty());
    CHECK(d.problems[0].code == c.code);
    CHECK(d.problems[0].mark == c.mark);
    CHECK(d.problems[0].message == c.message);
    CHECK(d.problems[0].file == "f.yaml");
  }
}

TEST_CASE("yaml_reader: aliases are reported too, and every problem is collected", "[loader]") {
  auto d = read_yaml("a: &x 1\nb: *x\nc: 2\nc: 3\n", "f.yaml");
  REQUIRE(d.problems.size() == 3);
  CHECK(d.problems[1].message == "aliases (*name) are not allowed in record files; write the value out");
  CHECK(d.problems[1].mark == Mark{2, 4});
  CHECK(d.problems[2].code == "QS008");
}

TEST_CASE("yaml_reader: size, depth and scalar caps", "[loader]") {
  YamlLimits small;
  small.max_bytes = 10;
  auto big = read_yaml("a: 0123456789\n", "f.yaml", small);
  REQUIRE(big.problems.size() == 1);
  CHECK(big.problems[0].code == "QS010");
  CHECK(big.problems[0].message == "file is 14 bytes; a record file may be at most 10 bytes");

  std::string deep = std::string(100, '[') + std::string(100, ']');
  auto nested = read_yaml(deep, "f.yaml");
  REQUIRE(!nested.problems.empty());
  CHECK(nested.problems[0].message == "nesting deeper than 64 levels");

  auto longs = read_yaml("a: " + std::string(20000, 'x') + "\n", "f.yaml");
  REQUIRE(!longs.problems.empty());
  CHECK(longs.problems[0].message == "scalar is 20000 characters long; the limit is 16384");
}

TEST_CASE("yaml_reader: the inputs that hang or mislead yaml-cpp end in a located error", "[loader]") {
  auto comma = read_yaml(",", "f.yaml");  // YAML::LoadAll never returns on this
  CHECK(!comma.ok());
  auto keyafter = read_yaml("- a\n- b\nkey: v\n", "f.yaml");
  CHECK(!keyafter.ok());
  auto laughs = read_yaml("a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n", "f.yaml");
  CHECK(!laughs.ok());
}
