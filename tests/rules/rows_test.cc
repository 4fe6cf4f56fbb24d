// assign_rows (src/rules/rows.cc): alike neighbours share a table row — one format on
// several engines, or formats of one scheme with the same figures and overlapping
// quality bands, every format of the row on every engine of it.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rules.h"
#include "support/fixtures.h"
#include "support/queries.h"

using namespace qsel;

namespace {

Deliberation rows_ask(const std::string& gpu, const std::string& size) {
  Query q = test::corpus_query(gpu);
  q.model = model_from_size(embedded_graph(), size);
  return deliberate(embedded_graph(), q);
}

}  // namespace

TEST_CASE("rows: on H100 with a 70B the unpublished FP8 variants in TensorRT-LLM share one row", "[rules][rows]") {
  auto d = rows_ask("h100-sxm", "70b");
  std::map<int, std::set<std::string>> formats;
  for (const auto& c : d.candidates)
    if (c.engine && c.engine->id == "trtllm" && c.format->str("scheme") == "fp8" && c.release.empty()) formats[c.row].insert(c.format->id);
  REQUIRE(!formats.empty());
  CHECK(formats.begin()->second.size() >= 2);  // rowwise and e4m3 (block scaling is "." for LLaMA in its per-model table)
}

TEST_CASE("rows: rows are consecutive, and every shared row is a full format x engine product with one path and fit", "[rules][rows]") {
  for (const char* gpu : {"h100-sxm", "rtx-4090", "mi300x", "apple-m3-max"}) {
    INFO(gpu);
    auto d = rows_ask(gpu, "70b");
    REQUIRE(!d.candidates.empty());
    CHECK(d.candidates.front().row == 0);
    std::map<int, std::vector<const Candidate*>> rows;
    for (std::size_t i = 0; i < d.candidates.size(); ++i) {
      const auto& c = d.candidates[i];
      if (i) CHECK((c.row == d.candidates[i - 1].row || c.row == d.candidates[i - 1].row + 1));
      rows[c.row].push_back(&c);
    }
    for (const auto& [row, members] : rows) {
      std::set<const Record*> formats, engines;
      std::set<std::pair<const Record*, const Record*>> pairs;
      for (const Candidate* c : members) {
        formats.insert(c->format);
        engines.insert(c->engine);
        pairs.insert({c->format, c->engine});
        CHECK(c->path == members.front()->path);
        CHECK(c->shipped == members.front()->shipped);
        if (c->memory && members.front()->memory) CHECK(c->memory->fit == members.front()->memory->fit);
        if (c->format != members.front()->format) CHECK(c->format->str("scheme") == members.front()->format->str("scheme"));
      }
      INFO("row " << row);
      CHECK(pairs.size() == formats.size() * engines.size());
    }
  }
}

TEST_CASE("rows: the table names the formats of a shared row once, with their common prefix", "[rules][rows][cli]") {
  // The members follow their ranks, which a speed tie-break may order either way (blockwise's scales
  // against rowwise's): the label names them once after the common prefix in both.
  auto r = test::run_cli({"recommend", "--gpu", "h100-sxm", "--model-size", "70b", "--all"});
  CHECK((r.out.find("fp8 blockwise/rowwise/e4m3 (w8a8)") != std::string::npos ||
         r.out.find("fp8 rowwise/blockwise/e4m3 (w8a8)") != std::string::npos));
}
