// docs/quality.md lists every quality row of the corpus; this test regenerates the
// table and compares (QSEL_UPDATE_DOCS=1 rewrites it), and checks what the page
// states of the scale against quality_cost itself.
#include <catch2/catch.hpp>

#include <map>

#include <fmt/format.h>

#include "qsel/graph/graph.h"
#include "qsel/graph/embedded_graph.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/rules/quality.h"
#include "qsel/rules/quality_model.h"
#include "support/docs_block.h"
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

// The fitted model as docs/quality.md states it: the families, the global effects, the
// suites' sensitivities, and the held-out error.
std::string model_section(const Graph& g) {
  QualityModel m(g);
  std::string out = "### The fit on this corpus\n\n";
  out += fmt::format("{} rows; cost per bit s = {:.2f} (each bit divides the cost by {:.1f}); size effect k = {:.2f}; a GGUF without an "
                     "importance matrix: +{:.2f}.\n\n",
                     m.rows().size(), m.slope(), std::exp(m.slope()), m.size_effect(), m.no_imatrix_effect());
  out += "| family | formats | rows | prior offset | fitted offset (×cost) |\n|---|---|---|---|---|\n";
  for (const Record* t : g.of_kind(Kind::Technique)) {
    if (!t->data.contains("quality_family")) continue;
    const auto& qf = t->data["quality_family"];
    int rows = 0;
    for (const auto& r : m.rows()) rows += r.family == t;
    auto [off, sd] = m.family_offset(t->id);
    std::string formats = fmt::format("{}", fmt::join(t->strings("/applies/formats"), ", "));
    if (!t->strings("/applies/engines").empty()) formats += fmt::format(" (made by {})", fmt::join(t->strings("/applies/engines"), ", "));
    if (qf.value("release", "") == "qat") formats = "a publisher's QAT release";
    out += qf.value("reference", false)
               ? fmt::format("| {} | {} | {} | reference | reference |\n", t->id, formats, rows)
               : fmt::format("| {} | {} | {} | {:+.1f} ± {:.1f} | {:+.2f} ± {:.2f} (×{:.2f}) |\n", t->id, formats, rows,
                             qf.value("offset", 0.0), qf.value("spread", 0.0), off, sd, std::exp(off));
  }
  std::map<std::string, int> suites;
  for (const auto& r : m.rows())
    if (r.metric == "accuracy-recovery") suites[r.suite]++;
  out += "\nAccuracy suites, their rows and fitted sensitivity κ (accuracy points lost per nat of KLD):\n\n| suite | rows | κ |\n|---|---|---|\n";
  for (const auto& [s, n] : suites) out += fmt::format("| {} | {} | {:.0f} |\n", s, n, m.kappa(s));
  HeldOutError h = held_out_error(g);
  out += fmt::format(
      "\n### Held-out error\n\nEach of the {} models with rows is held out in turn, its rows predicted by a fit on the others "
      "(`tests/rules/quality_model_test.cc` keeps these figures within the bounds it states):\n\n"
      "| rows | median | 90th percentile | inside the 80% band |\n|---|---|---|---|\n"
      "| {} KLD and PPL rows, ln units | {:.2f} (×{:.1f}) | {:.2f} (×{:.1f}) | {:.0f}% |\n"
      "| the same, between formats of one held-out model (its level removed) | {:.2f} (×{:.2f}) | {:.2f} (×{:.2f}) | — |\n"
      "| {} accuracy-recovery rows, points | {:.2f} | {:.2f} | {:.0f}% |\n\n"
      "The first line is what the band around an answer's estimate must cover: a held-out lineage moves every estimate "
      "on it together (Mistral 7B loses about half what LLaMA 3 8B does at the same bits). The second is what ranking reads: "
      "the order of formats on one model.\n",
      h.models, h.logit.size(), quantile(h.logit, 0.5), std::exp(quantile(h.logit, 0.5)), quantile(h.logit, 0.9),
      std::exp(quantile(h.logit, 0.9)), 100.0 * h.logit_in_band / static_cast<double>(h.logit.size()), quantile(h.centred, 0.5),
      std::exp(quantile(h.centred, 0.5)), quantile(h.centred, 0.9), std::exp(quantile(h.centred, 0.9)), h.points.size(),
      quantile(h.points, 0.5), quantile(h.points, 0.9), 100.0 * h.points_in_band / static_cast<double>(h.points.size()));
  return out;
}

void generated(const std::string& name, const std::string& want) { test::check_docs_block("docs/quality.md", name, want, "[quality][docs]"); }

}  // namespace

TEST_CASE("quality doc: docs/quality.md lists every quality row of the corpus", "[rules][quality][docs]") {
  generated("quality-table", table(embedded_graph()));
}

TEST_CASE("quality doc: docs/quality.md states the fit and its held-out error as they are", "[rules][quality][docs]") {
  generated("quality-model", model_section(embedded_graph()));
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
  QualityModel qm(g);
  // The 16-bit model is the reference; a GGUF type is estimated, with a band that holds the estimate.
  CHECK(quality_cost(g, qm, *g.find("bf16"), nullptr, nullptr, 16, false).reference);
  ModelSpec m = model_from_record(*g.find("llama-3.1-8b"));
  QualityCost q4 = quality_cost(g, qm, *g.find("gguf-q4-k-m"), nullptr, &m, 4.9, false);
  CHECK(q4.known);
  CHECK(q4.family == "quant-method-gguf-k");
  CHECK(q4.low < q4.cost);
  CHECK(q4.cost < q4.high);
  CHECK(q4.band == "small");
  // A 2-bit type on the same model is broken; the same type on the 70B loses less.
  CHECK(quality_cost(g, qm, *g.find("gguf-iq2-xxs"), nullptr, &m, 2.4, false).band == "broken");
  ModelSpec big = model_from_record(*g.find("llama-3.1-70b"));
  CHECK(quality_cost(g, qm, *g.find("gguf-q4-k-m"), nullptr, &big, 4.9, false).cost < q4.cost);
  // A format no family covers has no estimate, and says so: never a number it does not have.
  QualityCost none = quality_cost(g, qm, *g.find("modelopt"), nullptr, &m, 4.5, false);
  CHECK(!none.known);
  CHECK(none.short_text == "no estimate");
}
