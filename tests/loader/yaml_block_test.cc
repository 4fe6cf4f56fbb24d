// The fast reader (src/loader/yaml_block.cc) against the general one: wherever
// it answers, the value and every mark must be the general reader's, and the
// general reader must find nothing wrong; everything else it must hand over.
#include <catch2/catch.hpp>

#include <filesystem>

#include "loader/yaml_block.h"
#include "qsel/loader/yaml_reader.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using namespace qsel;
using nlohmann::json;

namespace {

std::string marks_text(const Marks& m) {
  std::string out;
  m.for_each([&](std::string_view p, Mark v, Mark k) {
    out += std::string(p) + " " + std::to_string(v.line) + ":" + std::to_string(v.column) + " key " +
           std::to_string(k.line) + ":" + std::to_string(k.column) + "\n";
  });
  return out;
}

// True when the fast reader answered (and then it agreed with the general one).
bool agrees(const std::string& text, const std::string& label) {
  auto fast = yaml_block::read(text, YamlLimits{});
  if (!fast) return false;
  YamlDocument slow = read_yaml_general(text, label);
  INFO(label);
  CHECK(slow.problems.empty());
  for (const auto& p : slow.problems) INFO(p.message);
  CHECK(fast->value == slow.value);
  if (fast->value != slow.value) INFO(fast->value.dump() << "\n" << slow.value.dump());
  CHECK(marks_text(fast->marks) == marks_text(slow.marks));
  return true;
}

}  // namespace

TEST_CASE("yaml_block: agrees with the general reader on every corpus file, and reads them all", "[whole-corpus][loader][yaml_block]") {
  std::size_t files = 0, fast = 0;
  std::vector<std::string> handed_over;
  for (const auto& e : fs::recursive_directory_iterator(test::source_dir() + "/data")) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    if (agrees(test::read_text(e.path()), e.path().string())) ++fast;
    else handed_over.push_back(e.path().filename().string());
  }
  INFO("handed over: " << handed_over.size() << (handed_over.empty() ? "" : ", e.g. " + handed_over.front()));
  CHECK(files > 500);
  // The corpus is what the fast reader is for: every file of it takes the fast path.
  CHECK(fast == files);
}

TEST_CASE("yaml_block: agrees with the general reader on the YAML test suite wherever it answers", "[loader][yaml_block]") {
  fs::path root = QSEL_YAML_TEST_SUITE;
  if (!fs::exists(root)) {
    WARN("yaml-test-suite not found at " << root.string() << "; skipped");
    return;
  }
  std::size_t answered = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().filename() != "in.yaml") continue;
    std::string text = test::read_text(e.path());
    bool must_fail = fs::exists(e.path().parent_path() / "error");
    if (agrees(text, e.path().string())) {
      ++answered;
      INFO(e.path().string());
      CHECK_FALSE(must_fail);  // never accepts what YAML rejects
    }
  }
  CHECK(answered > 10);
}

TEST_CASE("yaml_block: reads each construct of the subset as the general reader does", "[loader][yaml_block]") {
  const char* cases[] = {
      "id: x\nname: ééé\nlist:\n  - a\n  - b\n",
      "a:\n- 1\n- two\nb: 3\n",
      "items:\n  - name: x\n    value: 1.5\n  - name: y\n    tags: [a, 'b c', \"d\"]\n",
      "q: 'it''s\n  folded\n\n  twice'\nnext: 1\n",
      "p: a plain scalar\n  over two lines\n\n  and a paragraph # comment\nn: ~\n",
      "l: |\n  line one\n    indented\n\n  last\nk: |-\n  stripped\nm: |+\n  kept\n\nz: 0\n",
      "e: []\nu: \"\\u00e9\\n\\\\ \\\"q\\\"\"\n",
      "# leading comment\n\nroot:\n  # inside\n  x: 1 # trailing\n",
      "n: [1, -2, 0x1F, 010, 1e3, true, null, sm90]\n",
      "d: \"two\n  lines,\\\n  joined\\ here\n\n  and \\u00fc\"\n",
      "keys:\n  config/*/bits: 1\n  '*1': x\n  \"a b\": -0.5\n  -x: y\n",
      "s: a table\n  | row | 1 |\n  - not a list\n  \"quoted\" too\n",
  };
  for (const char* c : cases) CHECK(agrees(c, c));
}

TEST_CASE("yaml_block: hands over everything outside the subset and every error", "[loader][yaml_block]") {
  const char* cases[] = {
      "a: &x 1\nb: *x\n",          // anchors and aliases
      "a: !!str 1\n",               // tags
      "a: {b: 1}\n",                // flow mappings
      "a: >\n  folded\n",           // folded block scalars
      "a:\tb\n",                    // tabs
      "a: |\n  x\x04y\n  b: 1\n",      // a control character
      "a: x\xC2\x85y\n",              // a C1 control (NEL)
      "a: 1\r\nb: 2\r\n",           // CR line ends
      "%YAML 1.2\n---\na: 1\n",     // directives
      "a: 1\n---\nb: 2\n",          // a second document
      "a: 1\na: 2\n",               // a duplicate key
      "a:\n",                       // an empty value
      "a: 'unterminated\n",         // an unterminated quote
      "a: '  \n  '\n",              // quotes around folded white space only
      "a: \"x\n\n  \"\n",              // a folded quote whose last line is empty
      "a: [1, 2\n",                 // an unclosed flow sequence
      "i: [u?]\n",                  // '?' in a flow item: YAML allows it, yaml-cpp does not (fuzz)
      "a: x: y\n",                  // a mapping value where none may be
      "a: .inf\n",                  // not a finite number
      ".nan: 1\n",                  // a key that is not a finite number
      "~: 1\n",                     // a null key
      "- a\n- b\n",                 // not a mapping
      "a: 1\n  b: 2\n",             // bad indentation
      "\xEF\xBB\xBF" "a: 1\n",      // a byte-order mark
  };
  for (const char* c : cases) {
    INFO(c);
    CHECK_FALSE(yaml_block::read(c, YamlLimits{}).has_value());
  }
  YamlLimits small;
  small.max_items = 2;
  CHECK_FALSE(yaml_block::read("a: [1, 2, 3]\n", small).has_value());
  small = {};
  small.max_depth = 2;
  CHECK_FALSE(yaml_block::read("a:\n  b:\n    c: 1\n", small).has_value());
  small = {};
  small.max_scalar_chars = 3;
  CHECK_FALSE(yaml_block::read("a: abcd\n", small).has_value());
}
