// QS018: a training-time family (ternary) marked post_training: true.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

// Regimes that only exist as a training recipe: no post-training path keeps quality.
constexpr std::array<std::string_view, 1> kTrainingTimeRegimes = {"ternary"};

constexpr RuleInfo kInfo{
    "QS018", "training-only-marked-ptq", Severity::Error, false,
    "A format of a training-time family (ternary) is marked post_training: true.",
    {R"(A format record whose `regime` is a training-time family — `ternary` (BitNet b1.58 and the GGUF TQ types that store such models) — with `post_training: true`.)",
     R"(Ternary LLM quantization is a training-time recipe: "there is no such thing as PTQ-ing an existing fp16 LLM to 1.58 bits and keeping its quality" (doc 04). The advisor excludes non-post-training families from its candidates by this field (Rule 7); marked post-training, a ternary format would be offered for an ordinary checkpoint, where it destroys the model.)",
     R"(# formats/gguf-tq1-0.yaml
id: gguf-tq1-0
regime: ternary
post_training: true)",
     R"(formats/gguf-tq1-0.yaml:4:16: error: regime ternary is a training-time recipe, but post_training is true; only checkpoints trained ternary survive conversion [QS018 training-only-marked-ptq])",
     R"(Set `post_training: false`, and say in `notes` which checkpoints the format is for (models trained ternary). If a genuinely post-training ternary method appears, give it its own regime rather than weakening this one.)"}};

void check_record(CheckContext& c, const Record& r) {
  std::string regime = r.str("regime");
  bool training_only = std::find(kTrainingTimeRegimes.begin(), kTrainingTimeRegimes.end(), regime) != kTrainingTimeRegimes.end();
  if (!training_only || field(r, "post_training") != json(true)) return;
  c.report(r, "/post_training",
           fmt::format("regime {} is a training-time recipe, but post_training is true; only checkpoints trained {} "
                       "survive conversion",
                       regime, regime));
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Format) check_record(c, r);
}

}  // namespace

Check training_only_marked_ptq() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
