// docs/advice-cases.md: GPU x model x engine questions with the answer an expert
// would deploy and its public source. Every row is run here on the embedded corpus;
// the #1 candidate must match the row's expectation and fit.
#include <catch2/catch.hpp>

#include <sstream>

#include "support/fixtures.h"

using nlohmann::json;
using qsel::test::run_cli;

namespace {

// Cells of a Markdown table row; "\|" is a literal bar inside a cell.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') { cur += '|'; ++i; continue; }
    if (line[i] == '|') { out.push_back(cur); cur.clear(); continue; }
    cur += line[i];
  }
  for (auto& c : out) {
    while (!c.empty() && c.front() == ' ') c.erase(c.begin());
    while (!c.empty() && c.back() == ' ') c.pop_back();
  }
  return out;
}

std::string unquote(const std::string& s) { return s.size() >= 2 && s.front() == '`' && s.back() == '`' ? s.substr(1, s.size() - 2) : s; }

// Shell-like words: "a b" stays one word.
std::vector<std::string> case_words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, any = false;
  for (char c : s) {
    if (c == '"') { quoted = !quoted; any = true; continue; }
    if (c == ' ' && !quoted) {
      if (any) out.push_back(cur);
      cur.clear();
      any = false;
      continue;
    }
    cur += c;
    any = true;
  }
  if (any) out.push_back(cur);
  return out;
}

// A candidate field by a dotted path ("placement.kind"); a string, or the JSON text of anything else.
std::string field(const json& candidate, const std::string& path) {
  const json* at = &candidate;
  std::stringstream ss(path);
  for (std::string part; std::getline(ss, part, '.');) {
    if (!at->is_object() || !at->contains(part)) return "(absent)";
    at = &(*at)[part];
  }
  return at->is_string() ? at->get<std::string>() : at->dump();
}

bool one_of(const std::string& alternatives, const std::string& value) {
  std::stringstream ss(alternatives);
  for (std::string a; std::getline(ss, a, '|');)
    if (a == value) return true;
  return false;
}

}  // namespace

TEST_CASE("advice cases: the #1 answer is what an expert would deploy, for every row of docs/advice-cases.md", "[e2e][advice]") {
  std::stringstream doc(qsel::test::read_text(qsel::test::source_dir() + "/docs/advice-cases.md"));
  int cases = 0;
  for (std::string line; std::getline(doc, line);) {
    auto c = cells(line);
    if (c.size() < 5 || c[0].empty() || !std::isdigit(static_cast<unsigned char>(c[0][0]))) continue;
    if (++cases % qsel::test::kSweepStride) continue;
    std::vector<std::string> args = {"recommend"};
    for (const auto& w : case_words(unquote(c[1]))) args.push_back(w);
    args.insert(args.end(), {"--all", "--format", "json"});
    auto r = run_cli(args);
    INFO("case " << c[0] << ": qsel " << unquote(c[1]) << "\nexpects " << unquote(c[2]) << "\n" << r.err);
    REQUIRE((r.code == 0 || r.code == 1));
    json j = json::parse(r.out);
    REQUIRE(!j["candidates"].empty());
    const json& top = j["candidates"][0];
    INFO("#1 was " << top["format"] << " on " << top["engine"] << " via " << top["kernel"] << " (" << top["path"] << ")");
    CHECK(top["fits"] == true);
    for (const auto& expect : case_words(unquote(c[2]))) {
      auto eq = expect.find('=');
      REQUIRE(eq != std::string::npos);
      std::string key = expect.substr(0, eq), want = expect.substr(eq + 1);
      if (key == "command_has") {  // any line the #1 answer prints: the server's environment, an import, the run
        std::string lines = field(top, "command");
        for (const auto& k : top.value("commands", json::array())) lines += "\n" + k.value("command", std::string());
        CHECK(lines.find(want) != std::string::npos);
      }
      else if (key.rfind("not_", 0) == 0) CHECK(!one_of(want, field(top, key.substr(4))));
      else CHECK(one_of(want, field(top, key)));
    }
  }
  CHECK(cases >= 110);
}
