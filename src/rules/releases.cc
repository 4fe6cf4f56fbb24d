// The format a model ships in comes first: served as released, it needs no
// second quantization. Re-quantizing a natively quantized release (or upcasting
// it to 16 bits) is labelled as such; the publisher's own checkpoints in other
// formats are named so nobody quantizes what is already published.
#include <vector>

#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {

void apply_releases(Deliberation& d) {
  if (!d.query.model) return;
  const ModelSpec& m = *d.query.model;
  const Release* shipped = m.shipped();
  bool quantized_release = shipped && d.graph.find(shipped->format) && !is_baseline(*d.graph.find(shipped->format));
  std::vector<const Release*> repacked(d.candidates.size(), nullptr);  // a QAT release or a lossless repack of the primary
  for (std::size_t i = 0; i < d.candidates.size(); ++i) {
    Candidate& c = d.candidates[i];
    bool named = false;  // the release is the Hub repo --model named: its files, whoever else publishes the type
    for (const auto& r : m.releases) {
      if (r.format != c.format->id) continue;
      bool better = c.release.empty() || r.primary || r.qat || r.repack || (r.listed && !named) || (!named && r.official && !c.release_official);
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
}

}  // namespace qsel
