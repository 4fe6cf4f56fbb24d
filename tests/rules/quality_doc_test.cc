// docs/quality.md lists every quality row of the corpus; this test regenerates the
// table and compares (QSEL_UPDATE_DOCS=1 rewrites it), and checks what the page
// states of the scale against quality_cost itself.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#include "qsel/graph/graph.h"
#include "qsel/graph/embedded_graph.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/rules/quality.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {

std::string cell(std::string s) {
  for (auto& c : s)
    if (c == '|' || c == '\n') c = ' ';
  return s;
}

std::string table(const Graph& g) {
  std::string out = "| format | model | metric | value | reference | imatrix | grade | record |\n|---|---|---|---|---|---|---|---|\n";
  int rows = 0;
  for (const Record* f : g.of_kind(Kind::Format))
    for (const Record* b : quality_rows(g, f->id)) {
      const auto& q = b->data["quality"];
      std::string model = b->str("model").empty() ? b->str("model_id") : b->str("model");
      out += fmt::format("| {} | {} | {} | {:g} | {} | {} | {} | {} |\n", f->id, cell(model), q.value("metric", ""),
                         q.value("value", 0.0), q.value("reference", ""), q.contains("imatrix") ? (q["imatrix"].get<bool>() ? "yes" : "no") : "",
                         b->str("grade"), b->id);
      ++rows;
    }
  return out + fmt::format("\n{} rows.\n", rows);
}

}  // namespace

TEST_CASE("quality doc: docs/quality.md lists every quality row of the corpus", "[rules][quality][docs]") {
  const Graph& g = embedded_graph();
  std::string path = test::source_dir() + "/docs/quality.md";
  std::string page = test::read_text(path);
  const std::string start = "<!-- quality-table:start -->\n", end = "<!-- quality-table:end -->";
  auto a = page.find(start), b = page.find(end);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  std::string want = table(g);
  if (std::getenv("QSEL_UPDATE_DOCS")) {
    page = page.substr(0, a + start.size()) + want + page.substr(b);
    std::ofstream(path, std::ios::binary) << page;
    b = page.find(end);
  }
  CHECK(page.substr(a + start.size(), b - a - start.size()) == want);
}

TEST_CASE("quality doc: the bands and the scale the page states", "[rules][quality]") {
  CHECK(broken_threshold() == 0.25);
  CHECK(quality_band(0) == "reference");
  CHECK(quality_band(0.0014) == "lossless");
  CHECK(quality_band(0.005) == "near-lossless");
  CHECK(quality_band(0.028) == "small");
  CHECK(quality_band(0.084) == "moderate");
  CHECK(quality_band(0.18) == "large");
  CHECK(quality_band(0.33) == "broken");
  const Graph& g = embedded_graph();
  // The 16-bit model is the reference; a GGUF type measured on LLaMA 3 8B keeps its KLD.
  CHECK(quality_cost(g, *g.find("bf16"), nullptr, 16).reference);
  ModelSpec m = model_from_record(*g.find("llama-3.1-8b"));
  QualityCost q4 = quality_cost(g, *g.find("gguf-q4-k-m"), &m, 4.9);
  CHECK(q4.measured);
  CHECK(q4.metric == "kld");
  CHECK(q4.match == "same family");
  CHECK(q4.band == "small");
  // A 2-bit type on the same family is broken; on the 70B the LLaMA 2 70B rows are nearer in size.
  CHECK(quality_cost(g, *g.find("gguf-iq2-xxs"), &m, 2.4).band == "broken");
  ModelSpec big = model_from_record(*g.find("llama-3.1-70b"));
  QualityCost q4big = quality_cost(g, *g.find("gguf-q4-k-m"), &big, 4.9);
  CHECK(q4big.model.find("70B") != std::string::npos);
  CHECK(q4big.cost < q4.cost);
  // Nothing measures a format: "no measurement", placed by its bits, never a number it does not have.
  QualityCost none = quality_cost(g, *g.find("mlc-llm-q4f16"), &m, 4.5);
  CHECK(!none.measured);
  CHECK(none.short_text == "no measurement");
}
