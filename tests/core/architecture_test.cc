// The include order of docs/architecture.md, enforced: every `#include "qsel/UNIT/…"`
// under src/ and include/qsel/ must name the file's own unit or one the table lets
// it include, and the table must name exactly the units the tree has.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "support/fixtures.h"

namespace fs = std::filesystem;
using qsel::test::TempDir;

namespace {

using Table = std::map<std::string, std::set<std::string>>;

std::string trimmed(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '`')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '`')) s.pop_back();
  return s;
}

// The "| Unit | May include |" table: unit -> units it may include ("—": none).
Table read_table(const std::string& markdown) {
  Table out;
  std::istringstream in(markdown);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| Unit | May include |", 0) == 0) { inside = true; continue; }
    if (!inside) continue;
    if (line.rfind("|---", 0) == 0) continue;
    if (line.empty() || line[0] != '|') break;
    auto bar = line.find('|', 1);
    auto end = line.find('|', bar + 1);
    if (bar == std::string::npos || end == std::string::npos) break;
    std::string unit = trimmed(line.substr(1, bar - 1));
    std::set<std::string>& allowed = out[unit];
    std::istringstream deps(line.substr(bar + 1, end - bar - 1));
    for (std::string d; std::getline(deps, d, ',');)
      if (auto t = trimmed(d); !t.empty() && t != "—") allowed.insert(t);
  }
  return out;
}

// The unit folders the tree has: src/<unit>/ and include/qsel/<unit>/.
std::set<std::string> tree_units(const fs::path& root) {
  std::set<std::string> out;
  for (const char* base : {"src", "include/qsel"})
    if (fs::is_directory(root / base))
      for (const auto& e : fs::directory_iterator(root / base))
        if (e.is_directory()) out.insert(e.path().filename().string());
  return out;
}

// Every include against the table, and every unit the table and the tree disagree on,
// one line each: "src/loader/x.cc:4: loader may not include qsel/graph/graph.h (loader may include: core)".
std::vector<std::string> violations(const fs::path& root, const Table& table) {
  std::vector<std::string> out;
  auto units = tree_units(root);
  for (const auto& u : units)
    if (!table.count(u)) out.push_back("unit " + u + "/ is not in the table of docs/architecture.md");
  for (const auto& [u, deps] : table) {
    if (!units.count(u)) out.push_back("the table names unit " + u + ", which the tree lacks");
    for (const auto& d : deps)
      if (!table.count(d)) out.push_back("the table lets " + u + " include " + d + ", which is not a unit");
  }
  for (const char* base : {"src", "include/qsel"}) {
    if (!fs::is_directory(root / base)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / base)) {
      if (!e.is_regular_file()) continue;
      auto ext = e.path().extension();
      if (ext != ".cc" && ext != ".h") continue;
      fs::path rel = fs::relative(e.path(), root);
      fs::path under = fs::relative(e.path(), root / base);
      std::string unit = under.begin()->string();
      if (std::next(under.begin()) == under.end()) continue;  // a file directly under src/ has no unit
      auto allowed = table.find(unit);
      std::ifstream in(e.path());
      int n = 0;
      for (std::string line; std::getline(in, line);) {
        ++n;
        const std::string lead = "#include \"qsel/";
        if (line.rfind(lead, 0) != 0) continue;
        auto slash = line.find('/', lead.size());
        if (slash == std::string::npos) continue;
        std::string to = line.substr(lead.size(), slash - lead.size());
        if (to == unit || (allowed != table.end() && allowed->second.count(to))) continue;
        std::string may;
        if (allowed != table.end())
          for (const auto& d : allowed->second) may += (may.empty() ? "" : ", ") + d;
        std::string header = line.substr(10, line.find('"', 10) - 10);
        out.push_back(rel.generic_string() + ":" + std::to_string(n) + ": " + unit + " may not include " + header + " (" +
                      unit + " may include: " + (may.empty() ? "nothing" : may) + ")");
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("architecture: every #include \"qsel/…\" follows docs/architecture.md", "[architecture]") {
  fs::path root = qsel::test::source_dir();
  Table table = read_table(qsel::test::read_text(root / "docs/architecture.md"));
  REQUIRE(table.size() >= 10);
  auto found = violations(root, table);
  std::string all;
  for (const auto& v : found) all += v + "\n";
  INFO(all);
  CHECK(found.empty());
}

TEST_CASE("architecture: the checker names the file, the line and what the unit may include", "[architecture]") {
  TempDir t;
  t.write("src/core/a.cc", "#include \"qsel/core/a.h\"\n");
  t.write("src/loader/b.cc", "// reads\n#include \"qsel/core/a.h\"\n#include \"qsel/graph/graph.h\"\n");
  t.write("include/qsel/graph/graph.h", "#include \"qsel/loader/b.h\"\n");
  t.write("src/extra/c.cc", "\n");
  Table table = read_table("intro\n\n| Unit | May include |\n|---|---|\n| core | — |\n| loader | core |\n| graph | core, loader |\n"
                           "| report | core, cli |\n\nafter\n");
  auto found = violations(t.path(), table);
  REQUIRE(found.size() == 4);
  CHECK(found[0] == "src/loader/b.cc:3: loader may not include qsel/graph/graph.h (loader may include: core)");
  CHECK(found[1] == "the table lets report include cli, which is not a unit");
  CHECK(found[2] == "the table names unit report, which the tree lacks");
  CHECK(found[3] == "unit extra/ is not in the table of docs/architecture.md");
}
