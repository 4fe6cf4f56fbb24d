// The byte-level YAML 1.2 checks the reader adds to yaml-cpp 0.7 (src/loader/
// yaml_strict.cc): each kind of input yaml-cpp accepts and the spec rejects
// comes back as a QS006 problem at the offending character, and the valid
// constructs next to each of them still load unchanged.
#include <catch2/catch.hpp>

#include "qsel/loader/yaml_reader.h"

using namespace qsel;
using nlohmann::json;

namespace {

struct Case {
  const char* what;
  std::string text;
  Mark mark;
  std::string message;
};

const std::string kIndentQuoted =
    "this line continues a quoted string and must be indented more than its enclosing block: at least 1 space, not 0";
const std::string kIndentFlow =
    "this line continues a [...] or {...} collection and must be indented more than its enclosing block: at least 1 "
    "space, not 0";
const std::string kComment = "a '#' comment must be separated from the text before it by a space";
const std::string kEmptyEntry = "',' with no entry before it: remove it (only the last entry may have a ',' after it)";
const std::string kNoColon =
    "this text sits where a mapping key belongs but has no ':' after it; indent it to continue the value above, or add "
    "': ' to make it a key";

}  // namespace

TEST_CASE("yaml_strict: what yaml-cpp accepts and YAML 1.2 rejects is a located QS006", "[loader][yaml]") {
  std::vector<Case> cases = {
      {"unterminated double quote at the end (the column counts characters)", "id: x\nnote: \"ü€ unterminated\n",
       {2, 7}, "unterminated double-quoted string: no closing \" before the end of the file"},
      {"unterminated single quote", "id: x\nquote: 'unterminated\n", {2, 8},
       "unterminated single-quoted string: no closing ' before the end of the file"},
      {"an escape YAML does not have", "id: x\nnote: \"it\\'s\"\n", {2, 10},
       "invalid escape sequence \\' in a double-quoted string; write a single quote as ' (it needs no escape), a "
       "backslash as \\\\"},
      {"comment glued to a quoted value", "id: x\nnote: \"value\"# c\n", {2, 14}, kComment},
      {"comment glued to a flow sequence", "id: x\ntags: [a, b]#c\n", {2, 13}, kComment},
      {"comment glued to a comma", "id: x\ntags: [a,#c\n  b]\n", {2, 10}, kComment},
      {"comment glued to a block scalar indicator", "id: x\nnote: >#c\n  text\n", {2, 8}, kComment},
      {"two commas", "id: x\ntags: [a, , b]\n", {2, 11}, kEmptyEntry},
      {"a leading comma", "id: x\ntags: [ , a]\n", {2, 9}, kEmptyEntry},
      {"quoted string continued at column 1", "id: x\nnote: \"first\nsecond\"\n", {3, 1}, kIndentQuoted},
      {"quoted string continued after a tab", "id: x\nnote: \"first\n\tsecond\"\n", {3, 1},
       "tab used to indent a line that continues a quoted string; YAML indents with spaces only (this line needs at "
       "least 1)"},
      {"flow sequence continued at column 1", "id: x\ntags: [a,\nb]\n", {3, 1}, kIndentFlow},
      {"flow sequence closed at column 1", "id: x\ntags: [\n  a,\n]\n", {4, 1}, kIndentFlow},
      {"a key with no colon", "id: x\nname\n", {2, 1}, kNoColon},
      {"a key with no colon after a nested mapping", "id: x\nsource:\n  url: u\nnotes\n", {4, 1}, kNoColon},
      {"a dash alone in a flow sequence", "id: x\ntags: [a, -]\n", {2, 11},
       "'-' followed by ']' is YAML syntax, not a value here; quote it (\"-\") if you mean the text"},
      {"a directive with no ---", "%YAML 1.2\nid: x\n", {2, 1},
       "a directive (a '%' line) must be followed by '---', the start of the document"},
      {"a directive and an empty document", "%YAML 1.2\n...\n", {2, 1},
       "a directive (a '%' line) must be followed by '---', the start of the document"},
      {"leading empty line of a block scalar longer than its text's indentation", "id: x\nnote: >\n \n  \n   \n # c\n",
       {5, 2},
       "this empty line of a block scalar has 3 spaces, more than the 1 of its first text line, which sets the "
       "indentation; remove the trailing spaces"},
  };
  for (const Case& c : cases) {
    INFO(c.what << "\n" << c.text);
    auto d = read_yaml(c.text, "f.yaml");
    REQUIRE(!d.ok());
    bool found = false;
    for (const auto& p : d.problems)
      if (p.code == "QS006" && p.mark == c.mark && p.message == c.message && p.file == "f.yaml") found = true;
    for (const auto& p : d.problems) INFO(p.code << " " << p.mark.line << ":" << p.mark.column << " " << p.message);
    CHECK(found);
  }
}

TEST_CASE("yaml_strict: valid YAML around the checks still loads unchanged", "[loader][yaml]") {
  std::string text =
      "url: http://example.com/a#b\n"
      "note: \"a # b\"\n"
      "tags: [a, b]  # comment\n"
      "map: {a: 1, b: [x, y], c: }\n"
      "json: {\"a\":1, \"b\":[2,3]}\n"
      "trailing: [a, b, ]\n"
      "quote: 'it''s'\n"
      "escapes: \"\\t\\u00e9\\x41\\U0001F600\\\\\\\"\\/\\N\\_\\0\\ \"\n"
      "lit: |+\n  text\n\n"
      "fold: >-\n  folded\n  text\n"
      "fold2: >2\n   indented\n"
      "after_comment:    # comment\n  value\n"
      "neg: -1\n"
      "\"quoted key\": v\n"
      "list:\n"
      "- \"multi\n  line\"\n"
      "- 'single\n\n  with empty line'\n"
      "- [\n  a,\n  b,\n  ]\n"
      "- {x: \"a\n    b\", y: c}\n"
      "- [a,\n# a comment line may sit at column 1\n  b]\n"
      "nested:\n"
      "  inner: \"x\n    y\"\n"
      "  tab_sep:\tvalue\n"
      "? explicit\n"
      ": value\n"
      "crlf: \"a\r\n  b\"\r\n";
  auto d = read_yaml(text, "f.yaml");
  for (const auto& p : d.problems) INFO(p.code << " " << p.mark.line << ":" << p.mark.column << " " << p.message);
  REQUIRE(d.ok());
  CHECK(d.value["url"] == json("http://example.com/a#b"));
  CHECK(d.value["map"] == json({{"a", 1}, {"b", {"x", "y"}}, {"c", nullptr}}));
  CHECK(d.value["trailing"] == json({"a", "b"}));
  CHECK(d.value["quote"] == json("it's"));
  CHECK(d.value["list"][0] == json("multi line"));
  CHECK(d.value["list"][4] == json({"a", "b"}));
  CHECK(d.value["nested"]["inner"] == json("x y"));
  CHECK(d.value["explicit"] == json("value"));
  auto top = read_yaml("%YAML 1.2\n# c\n\n---\nid: x\n", "f.yaml");
  CHECK(top.ok());
}

TEST_CASE("yaml_strict: a file of many problems reports a bounded number", "[loader][yaml]") {
  std::string text = "id: x\n";
  for (int i = 0; i < 200; ++i) text += "k" + std::to_string(i) + ": [a, , b]\n";
  auto d = read_yaml(text, "f.yaml");
  CHECK(!d.ok());
  CHECK(d.problems.size() <= 20);
  CHECK(d.problems.front().mark == Mark{2, 9});
}
