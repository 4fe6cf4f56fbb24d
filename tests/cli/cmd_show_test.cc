#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "support/browse_corpus.h"
#include "support/fixtures.h"

using qsel::test::run_cli;
using qsel::test::Small;
using nlohmann::json;

namespace {


}  // namespace

TEST_CASE("cmd_show: edges in and out grouped by the kind at the other end", "[cli][show]") {
  Small s;
  auto r = s.run({"--format", "json", "show", "fmt-x"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  auto j = json::parse(r.out);
  std::vector<std::string> keys;
  for (const auto& [k, _] : j.items()) keys.push_back(k);
  for (const char* k : {"id", "kind", "name", "file", "line", "column", "record", "edges_out", "edges_in", "refers_to", "referred_to_by"})
    CHECK(j.contains(k));
  CHECK(j["refers_to"] == json{{"accelerator", {{"native-on", {"gpu-new"}}, {"emulated-on", {"gpu-old"}}}},
                               {"missing", {{"native-on", {"gpu-gone"}}}}});
  CHECK(j["referred_to_by"] == json{{"engine", {{"serves", {"eng"}}, {"selection-format", {"eng"}}}},
                                    {"matrix", {{"column-format", {"mx"}}}},
                                    {"gotcha", {{"applies-to-format", {"g-two"}}}}});
}

TEST_CASE("cmd_show: the text form lists each kind once, then its edge labels", "[cli][show]") {
  Small s;
  auto r = s.run({"show", "gpu-new"});
  REQUIRE(r.code == 0);
  std::string edges = r.out.substr(r.out.find("\nRefers to"));
  CHECK(edges ==
        "\nRefers to\n"
        "  target  target  t-new\n"
        "\n"
        "Referred to by\n"
        "  format  native-on    fmt-x\n"
        "          emulated-on  fmt-y\n");
  auto missing = s.run({"show", "fmt-x"});
  CHECK(missing.out.find("  (no such record)  native-on    gpu-gone\n") != std::string::npos);
}

TEST_CASE("cmd_show: repeated references are listed once", "[cli][show]") {
  auto r = run_cli({"--format", "json", "show", "nvfp4"});
  REQUIRE(r.code == 0);
  json shown = json::parse(r.out);  // keep it alive: items() of a temporary would dangle
  for (const auto& [kind, labels] : shown["referred_to_by"].items())
    for (const auto& [label, ids] : labels.items()) {
      std::set<std::string> unique(ids.begin(), ids.end());
      CHECK(unique.size() == ids.size());
    }
}

TEST_CASE("cmd_show: a part is referred to by the formats native and emulated on it", "[cli][show]") {
  auto r = run_cli({"--format", "json", "show", "h100"});
  REQUIRE(r.code == 0);
  auto j = json::parse(r.out);
  CHECK(j["id"] == "h100-sxm");
  const auto& native = j["referred_to_by"]["format"]["native-on"];
  CHECK(std::find(native.begin(), native.end(), "fp8-e4m3") != native.end());
  const auto& emulated = j["referred_to_by"]["format"]["emulated-on"];
  CHECK(std::find(emulated.begin(), emulated.end(), "nvfp4") != emulated.end());
  auto text = run_cli({"show", "h100"});
  CHECK(text.out.find("Referred to by\n  format     native-on ") != std::string::npos);
}

TEST_CASE("cmd_show: unknown ids exit 2 with a suggestion", "[cli][show]") {
  Small s;
  auto r = s.run({"show", "fmt-q"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "qsel: error: unknown record \"fmt-q\"; did you mean \"fmt-x\", \"fmt-y\", \"fmt-z\"?\n");
}

TEST_CASE("cmd_show: a record's status and last review, and the census notes listed apart with what they claim", "[cli][show]") {
  auto j = json::parse(run_cli({"--format", "json", "show", "nvfp4"}).out);
  REQUIRE(j.contains("review"));
  CHECK(j["review"]["status"].is_string());
  CHECK(j["review"].contains("last_review"));
  REQUIRE(!j["census_notes"].empty());  // the record cites the design notes
  for (const auto& n : j["census_notes"]) CHECK(n.contains("claims"));
  auto text = run_cli({"--no-color", "show", "nvfp4"}).out;
  CHECK(text.find("\n  status ") != std::string::npos);
  CHECK(text.find("\nCensus notes (not public)\n") != std::string::npos);
  // The notes are not among the record's sources a reader is sent to.
  std::string fields = text.substr(0, text.find("\nCensus notes (not public)"));
  CHECK(fields.find("\n  sources:\n") != std::string::npos);
  CHECK(fields.find("\n    - title: doc 04") == std::string::npos);
}
