// The format a model ships in comes first: served as released, it needs no
// second quantization. Re-quantizing a natively quantized release (or upcasting
// it to 16 bits) is labelled as such; the publisher's own checkpoints in other
// formats are named so nobody quantizes what is already published.
#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"
#include "qsel/core/json_number.h"

namespace qsel {

namespace {

// Whether the engine's loader reads the release's checkpoint config (engine checkpoint_quant_methods); a
// release whose config was not read, or an engine that records no list, is taken as read.
bool loads(const Record* engine, const Release& r) {
  if (!engine || r.quant_method.empty() || !engine->data.contains("checkpoint_quant_methods")) return true;
  auto reads = engine->strings("/checkpoint_quant_methods/reads");
  if (std::find(reads.begin(), reads.end(), r.quant_method) == reads.end()) return false;
  const auto& only = engine->data["checkpoint_quant_methods"].value("formats", nlohmann::json::object());
  if (!only.is_object() || !only.contains(r.quant_method)) return true;
  auto formats = engine->strings("/checkpoint_quant_methods/formats/" + r.quant_method);
  return std::find(formats.begin(), formats.end(), r.format) != formats.end();
}

}  // namespace

void apply_releases(Deliberation& d) {
  if (!d.query.model) return;
  const ModelSpec& m = *d.query.model;
  std::vector<std::pair<std::size_t, const Release*>> unread;  // releases of a candidate's format its engine cannot load
  const Release* shipped = m.shipped();
  bool quantized_release = shipped && d.graph.find(shipped->format) && !is_baseline(*d.graph.find(shipped->format));
  std::vector<const Release*> repacked(d.candidates.size(), nullptr);  // a QAT release or a lossless repack of the primary
  for (std::size_t i = 0; i < d.candidates.size(); ++i) {
    Candidate& c = d.candidates[i];
    bool named = false;  // the release is the Hub repo --model named: its files, whoever else publishes the type
    for (const auto& r : m.releases) {
      if (r.format != c.format->id) continue;
      if (!r.registry.empty() && (!c.engine || c.engine->id != r.registry)) continue;  // another engine's library tag
      if (!loads(c.engine, r)) {
        unread.push_back({i, &r});
        continue;
      }
      if (c.engine && std::find(r.not_engines.begin(), r.not_engines.end(), c.engine->id) != r.not_engines.end()) {
        rule_util::add_unique(c.why, fmt::format("{} is published, but not for {} as it stands: {}; not served as published here",
                                                 r.repo, c.engine->id, r.not_reason));
        continue;
      }
      bool better = c.release.empty() || r.primary || r.qat || r.repack || (r.listed && !named) || (!named && r.official && !c.release_official) ||
                    (!named && !r.registry.empty());  // the engine's own library tag: what its users run
      if (r.registry.empty() && (c.hub_release.empty() || r.primary || r.official)) c.hub_release = r.repo;
      if (better) {
        c.release = r.repo;
        c.release_official = r.official;
        named = named || r.listed;
      }
      c.shipped = c.shipped || r.primary || r.qat || r.repack;
      if (!r.primary && (r.qat || r.repack)) repacked[i] = &r;
    }
  }
  // An up-cast gains nothing where the release itself runs (a mainline path for its format survived
  // Rules 1-2); where it has none (gpt-oss's MXFP4 on a part without an FP4 path), the 16-bit weights
  // are the lossless way to run the model, at twice its bytes or more.
  bool release_runs = false;
  for (const auto& c : d.candidates)
    release_runs = release_runs || (shipped && c.format->id == shipped->format && rule_util::maturity_rank(c.maturity) == 0);
  for (std::size_t i = 0; i < d.candidates.size(); ++i) {
    Candidate& c = d.candidates[i];
    const Release* as_released = repacked[i];
    if (as_released && !(shipped && shipped->format == c.format->id)) {
      c.why.insert(c.why.begin(), as_released->qat
                                      ? fmt::format("{} is the publisher's quantization-aware-trained release ({}): served as "
                                                    "released, no post-training quantization step", c.format->id, as_released->repo)
                                      : fmt::format("{} holds the shipped {} weights unchanged ({}): served as released, no "
                                                    "second quantization", as_released->repo, shipped ? shipped->format : "primary",
                                                    c.format->id));
    } else if (c.shipped && shipped && shipped->local) {
      c.why.insert(c.why.begin(), fmt::format("the checkpoint in {} is {}: served as it is, no quantization step", c.release,
                                              c.format->id));
    } else if (c.shipped) {
      c.why.insert(c.why.begin(), fmt::format("{} ships in {} ({}): served as released, no quantization step", m.id,
                                              c.format->id, c.release));
    } else if (quantized_release && is_baseline(*c.format) && release_runs) {
      c.needless_upcast = true;
      c.why.insert(c.why.begin(), fmt::format("upcasts the shipped {} release ({}) to 16 bits: more memory, no quality gained back",
                                              shipped->format, shipped->repo));
    } else if (quantized_release && is_baseline(*c.format)) {
      c.why.insert(c.why.begin(), fmt::format("upcasts the shipped {} release ({}) to 16 bits: {} has no mainline path here, so "
                                              "the 16-bit weights are the lossless way to run it, at twice its bytes or more",
                                              shipped->format, shipped->repo, shipped->format));
    } else if (quantized_release) {
      c.why.insert(c.why.begin(), fmt::format("re-quantizes the shipped {} release ({}): a second quantization on top of the first",
                                              shipped->format, shipped->repo));
    } else if (!c.release.empty()) {
      c.why.push_back(c.release_official ? fmt::format("the publisher's own checkpoint: {}", c.release)
                                         : fmt::format("a published third-party checkpoint: {}", c.release));
    }
    if (!c.release.empty() && !m.id.empty()) rule_util::add_unique(c.evidence, m.id);
  }
  // Formats the engine makes from the 16-bit checkpoint as it loads it (vLLM's --quantization fp8): no checkpoint to make.
  const Release* base = nullptr;
  for (const auto& r : m.releases)
    if (const Record* f = r.primary ? d.graph.find(r.format) : nullptr; f && is_baseline(*f)) base = &r;
  if (base)
    for (auto& c : d.candidates) {
      if (!c.engine || !c.release.empty() || c.shipped || is_baseline(*c.format)) continue;
      for (const auto& e : array_field(c.engine->data, "online_quantization"))
        if (e.value("format", "") == c.format->id && e.contains("flags") && e["flags"].is_string()) {
          c.online_flags = e["flags"].get<std::string>();
          c.why.push_back(fmt::format("{} quantizes {} to {} as it loads it ({}): no checkpoint to make", c.engine->id, base->repo,
                                      c.format->id, c.online_flags));
          break;
        }
    }
  for (const auto& [i, r] : unread) {
    Candidate& c = d.candidates[i];
    if (!c.release.empty()) continue;
    auto reads = c.engine->strings("/checkpoint_quant_methods/reads");
    std::string tool = c.engine->data["checkpoint_quant_methods"].value("make_with", "");
    rule_util::add_unique(c.why, fmt::format("{} is published with quant_method {}, which {}'s loader does not read in {} (it reads {}): "
                                             "not served as published here; make the checkpoint with {}",
                                             r->repo, r->quant_method, c.engine->id, c.format->id, fmt::join(reads, ", "),
                                             tool.empty() ? "a tool whose output " + c.engine->id + " loads" : tool));
    rule_util::add_unique(c.evidence, c.engine->id);
  }
}

}  // namespace qsel
