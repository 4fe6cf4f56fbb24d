// The unity build's precondition, enforced (CMakeLists.txt, QSEL_UNITY): each folder's
// .cc files are compiled as one unit, so a helper one file defines at namespace scope
// (an anonymous namespace's function, type or constant) must not share its name with
// another file's in the same folder. A same-signature clash fails to compile; an
// overload does not — a call meant for `line(const Style&, const std::string&, …)`
// in one renderer bound silently to another renderer's `line(…, const char*, …)`.
// This test names every such pair before the compiler can choose between them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "qsel/core/text_file.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using qsel::test::TempDir;

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string first_word(const std::string& line) {
  std::size_t n = 0;
  while (n < line.size() && ident_char(line[n])) ++n;
  return line.substr(0, n);
}

// The identifier that ends just before `pos` (or "" if none, or it is qualified: A::f).
std::string ident_before(const std::string& line, std::size_t pos) {
  std::size_t end = pos;
  while (end > 0 && line[end - 1] == ' ') --end;
  std::size_t begin = end;
  while (begin > 0 && ident_char(line[begin - 1])) --begin;
  if (begin == end || (begin > 0 && line[begin - 1] == ':')) return "";
  return line.substr(begin, end - begin);
}

// Names a file defines at column 0: `struct X`, `constexpr T kX = …`, `T f(…)`.
// Our style puts every namespace-scope definition there; bodies are indented.
std::set<std::string> defined_names(const std::string& text) {
  static const std::set<std::string> skip = {"using", "namespace", "return", "if", "for", "while", "template",
                                             "static_assert", "extern", "typedef", "else", "do", "switch", "try",
                                             "catch", "public", "private", "protected", "case", "default"};
  std::set<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    if (line.empty() || !(std::isalpha(static_cast<unsigned char>(line[0])) || line[0] == '_')) continue;
    std::string word = first_word(line);
    if (skip.count(word)) continue;
    bool macro = std::all_of(word.begin(), word.end(), [](char c) { return !std::islower(static_cast<unsigned char>(c)); });
    if (macro) continue;  // TEST_CASE(…), QSEL_…(…)
    for (const char* kw : {"struct ", "class ", "enum class ", "enum ", "union "})
      if (line.rfind(kw, 0) == 0) {
        std::string name = first_word(line.substr(std::string(kw).size()));
        if (!name.empty()) out.insert(name);
        word.clear();
        break;
      }
    if (word.empty()) continue;
    std::size_t paren = line.find('(');
    std::size_t assign = line.find_first_of("={[");
    if (paren != std::string::npos && (assign == std::string::npos || paren < assign)) {
      if (line.find("operator") != std::string::npos) continue;
      std::string name = ident_before(line, paren);
      if (!name.empty() && name != word) out.insert(name);  // `T f(`, not a call `f(` or a cast
    } else if (assign != std::string::npos && (word == "constexpr" || word == "const" || word == "static" || word == "inline")) {
      std::string name = ident_before(line, assign);
      if (!name.empty()) out.insert(name);
    }
  }
  return out;
}

// Files compiled alone (CMakeLists.txt: SKIP_UNITY_BUILD_INCLUSION, or not in a unity target).
bool compiled_alone(const fs::path& rel) {
  std::string p = rel.generic_string();
  return p.rfind("src/lint/checks/", 0) == 0 || p.rfind("src/tools/", 0) == 0 || p.rfind("tests/fuzz/", 0) == 0 ||
         p == "src/cli/main.cc" || p == "src/loader/embedded_blob.cc" || p == "tests/support/catch_main.cc";
}

// "folder: name in a.cc, b.cc" for every name two files of one folder define.
std::vector<std::string> clashes(const fs::path& root) {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> by_folder;  // folder -> name -> files
  for (const char* base : {"src", "tests"}) {
    if (!fs::is_directory(root / base)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / base)) {
      if (!e.is_regular_file() || e.path().extension() != ".cc") continue;
      fs::path rel = e.path().lexically_relative(root);
      if (compiled_alone(rel)) continue;
      std::string text = qsel::read_text_file(e.path().string(), 4 << 20, "source file");
      for (const auto& name : defined_names(text))
        by_folder[rel.parent_path().generic_string()][name].push_back(rel.filename().string());
    }
  }
  std::vector<std::string> out;
  for (auto& [folder, names] : by_folder)
    for (auto& [name, files] : names)
      if (files.size() > 1) {
        std::sort(files.begin(), files.end());
        std::string line = folder + ": " + name + " in";
        for (std::size_t i = 0; i < files.size(); ++i) line += (i ? ", " : " ") + files[i];
        out.push_back(line);
      }
  return out;
}

}  // namespace

TEST_CASE("unity build: no two files of one folder define the same name", "[unity]") {
  auto found = clashes(qsel::test::source_dir());
  for (const auto& c : found) UNSCOPED_INFO(c << " (one unit in the unity build: give each its own name)");
  CHECK(found.empty());
}

TEST_CASE("unity build: the scan finds an overload pair, and ignores members, calls and other folders", "[unity]") {
  TempDir d;
  d.write("src/report/a.cc",
          "namespace {\nstd::string line(const Style& st, const char* label) {\n  return f(label);\n}\n"
          "constexpr std::size_t kCap = 4;\nstruct Row {\n  int n;\n};\n}  // namespace\n"
          "std::string Table::render() const {\n  return \"\";\n}\nTEST_CASE(\"x\") {}\n");
  d.write("src/report/b.cc",
          "namespace {\nstd::string line(const Style& st, const std::string& label) { return label; }\n"
          "constexpr int kCap = 5;\nstruct Row;\n}\nstd::string Other::render() const { return {}; }\n");
  d.write("src/rules/c.cc", "int line(int) { return 0; }\n");
  d.write("src/lint/checks/d.cc", "void run(CheckContext&) {}\n");
  d.write("src/lint/checks/e.cc", "void run(CheckContext&) {}\n");
  auto found = clashes(d.path());
  CHECK(found == std::vector<std::string>{"src/report: Row in a.cc, b.cc", "src/report: kCap in a.cc, b.cc",
                                          "src/report: line in a.cc, b.cc"});
}
