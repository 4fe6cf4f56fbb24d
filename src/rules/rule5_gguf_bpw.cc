// Rule 5 — GGUF: match bits per weight, not a quant name or a group size of 256.
// GGUF candidates are sized on measured bpw; mixtures are not their base type;
// no GGUF type is native anywhere; the levers are pointed to: an imatrix, and
// the largest published GGUF type that fits (a bit budget between the named types
// is a tool only a pull request has, named as such, never printed as a command).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "qsel/sizing/memory.h"
#include "qsel/core/json_number.h"
#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

bool is_gguf(const Record& f) { return f.str("scheme") == "gguf"; }

std::string mixture_note(const Record& f) {
  if (!f.data.contains("mixture")) return "";
  std::vector<std::string> promoted;
  for (const auto& p : f.data["mixture"].value("promoted", json::array())) promoted.push_back(p.value("type", ""));
  promoted.erase(std::unique(promoted.begin(), promoted.end()), promoted.end());
  return fmt::format("; a mixture, not its base type ({} with tensors promoted to {})", f.data["mixture"].value("base", ""),
                     fmt::join(promoted, ", "));
}

// Technique records that name this format (the levers: imatrix, a bit budget); a quality
// family (the method the format belongs to) is not a lever.
std::vector<std::string> levers(const Graph& g, const Record& f) {
  std::vector<std::string> out;
  for (const Edge* e : g.in_edges(*g.index_of(f.id))) {
    const Record& t = g.record(e->from);
    if (t.kind == Kind::Technique && !t.data.contains("quality_family")) rule_util::add_unique(out, t.id);
  }
  return out;
}

void explain_bpw(Deliberation& d, Candidate& c) {
  c.rules.push_back("rule-5");
  std::string bpw = c.memory ? fmt::format("{:.2f} bpw ({})", c.memory->bpw, c.memory->bpw_source) : "its bpw";
  c.why.push_back(fmt::format("Rule 5 — sized on {}, never by the quant name{}; no GGUF type is native anywhere", bpw,
                              mixture_note(*c.format)));
  for (const auto& l : levers(d.graph, *c.format)) rule_util::add_unique(c.evidence, l);
}

// The GGUF bpw range llama-quantize can aim at: the smallest post-training GGUF
// type, and the 16-bit file (F16, measured just above 16 bpw).
std::pair<const Record*, double> smallest_type(const Graph& g) {
  std::pair<const Record*, double> best{nullptr, 0};
  for (const Record* f : g.of_kind(Kind::Format)) {
    if (!is_gguf(*f) || !f->data.value("post_training", true)) continue;
    double v = object_field(f->data, "bpw").value("struct", 0.0);
    if (v > 0 && (!best.first || v < best.second)) best = {f, v};
  }
  return best;
}

double sixteen_bit_file(const Graph& g) {
  double out = 16;
  for (const Record* f : g.of_kind(Kind::Format)) {
    if (!is_baseline(*f)) continue;
    for (const auto& m : array_field(object_field(f->data, "bpw"), "measured"))
      out = std::max(out, m.value("value", 0.0));
  }
  return out;
}

// The largest bpw whose weights and KV cache fit: what to ask llama-quantize for,
// inside [the smallest GGUF type, the 16-bit file].
void sizing_lever(Deliberation& d) {
  const Candidate* g = nullptr;
  for (const auto& c : d.candidates)
    if (is_gguf(*c.format) && c.memory && (!g || (g->maturity != "mainline" && c.maturity == "mainline"))) g = &c;
  if (!g) return;
  double room = g->memory->budget_gb - g->memory->kv_gb - g->memory->state_gb;
  double bpw = room * 8 / d.query.model->params_b;
  std::vector<std::string> techniques = levers(d.graph, *g->format);
  std::sort(techniques.begin(), techniques.end());
  std::string cite = techniques.empty() ? "" : fmt::format(" [{}]", fmt::join(techniques, ", "));
  auto [smallest, floor_bpw] = smallest_type(d.graph);
  double ceiling = sixteen_bit_file(d.graph);
  std::string engine = g->engine ? " in " + g->engine->id : "";
  if (bpw >= ceiling)
    d.notes.push_back(fmt::format("Rule 5 — every GGUF type fits{} at this context and batch, up to the 16-bit file "
                                  "({:.4g} bpw): no size lever is needed; choose by precision (Q8_0 or F16)", engine, ceiling));
  else if (!smallest || bpw < floor_bpw)
    d.notes.push_back(fmt::format("Rule 5 — not even the smallest GGUF type{} fits{} at this context and batch: no size lever; "
                                  "the answer's lead says what would fit", smallest ? fmt::format(" ({}, {:g} bpw)", smallest->id, floor_bpw) : "", engine));
  else {
    // The largest named GGUF type at or under that size: a file publishers make. A budget between the named
    // types exists only in a pull request; a technique record says which.
    const Record* best = nullptr;
    double best_bpw = 0;
    for (const Record* f : d.graph.of_kind(Kind::Format)) {
      if (!is_gguf(*f) || !f->data.value("post_training", true) || f->str("regime") == "kv-cache") continue;
      double v = object_field(f->data, "bpw").value("struct", 0.0);
      if (v > 0 && v <= bpw && v > best_bpw) best = f, best_bpw = v;
    }
    std::string pr;
    for (const auto& id : techniques)
      if (const Record* t = d.graph.find(id); t && t->data.contains("pull_request"))
        pr = fmt::format("; a bit budget between the named types ({}) exists only in {} (unmerged: no release has it)",
                         t->name, t->data["pull_request"].value("url", std::string("a pull request")));
    d.notes.push_back(fmt::format("Rule 5 — the largest GGUF size whose weights and KV cache fit{} is {:.2f} bpw: the largest named "
                                  "type at or under it is {} ({:g} bpw by its block struct); apply an imatrix before choosing a "
                                  "smaller type{}{}",
                                  engine, std::floor(bpw * 100) / 100, best ? best->id : "none", best_bpw, pr, cite));
  }
}

}  // namespace

void apply_rule5(Deliberation& d) {
  for (auto& c : d.candidates)
    if (is_gguf(*c.format)) explain_bpw(d, c);
  if (d.query.model && d.query.accelerator) sizing_lever(d);
}

}  // namespace qsel
