// QS026: a benchmark's baseline measures a different metric or model.
#include <cctype>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS026", "baseline-mismatch", Severity::Warning, false,
    "A benchmark's baseline measures a different metric or a different model.",
    {R"(A benchmark whose `baseline.benchmark` names a benchmark record with a different `metric`, or a different model: different `model_id` when both have one, or different `model` text when neither has a `model_id`. Also an inline baseline (`baseline.value` with its `label`) whose label names another kind of metric than the record measures — a perplexity as the baseline of a KL divergence, an accuracy as the baseline of a perplexity — and a KL divergence whose baseline is not 0: the divergence of the reference from itself.)",
     R"(A delta is only meaningful against the same measurement: GSM8K accuracy against GSM8K accuracy, on the same model. A baseline of another metric or model produces a number that looks like a quality delta and is not one — the kind of uncontrolled comparison doc 23 warns about for named GGUF quants across models.)",
     R"(# benchmarks/bench-qwen3-8b-mxfp4-w4a16-marlin.yaml
id: bench-qwen3-8b-mxfp4-w4a16-marlin
metric: AIME-24/25 + GSM8K + MATH-500 average accuracy
model_id: qwen3-8b
baseline:
  benchmark: bench-llama-2-7b-bf16-ppl   # metric: wikitext-2 perplexity)",
     R"(benchmarks/bench-qwen3-8b-mxfp4-w4a16-marlin.yaml:6:14: warning: baseline bench-llama-2-7b-bf16-ppl measures "wikitext-2 perplexity", not "AIME-24/25 + GSM8K + MATH-500 average accuracy" [QS026 baseline-mismatch])",
     R"(Point `baseline.benchmark` at the benchmark of the same metric and model (the unquantized reference run), or give the baseline as a plain `baseline.value` of the same metric with a `label` saying where it comes from. A KL divergence's baseline is 0 — the reference against itself; keep the reference's perplexity in `notes`.)"}};

std::string mismatch(const Record& b, const Record& base) {
  if (b.str("metric") != base.str("metric"))
    return fmt::format("measures {}, not {}", quote_value(base.str("metric")), quote_value(b.str("metric")));
  std::string m = b.str("model_id"), bm = base.str("model_id");
  if (!m.empty() && !bm.empty() && m != bm) return fmt::format("is on model {}, not {}", bm, m);
  if (m.empty() && bm.empty() && to_lower(b.str("model")) != to_lower(base.str("model")))
    return fmt::format("is on {}, not {}", quote_value(base.str("model")), quote_value(b.str("model")));
  return "";
}

// The kind of metric a text names: "kld", "ppl", "speed", "accuracy", or "" when none.
std::string metric_kind(const std::string& text) {
  std::string t = to_lower(text);
  auto word = [&](const char* w) {
    for (std::size_t at = t.find(w); at != std::string::npos; at = t.find(w, at + 1)) {
      std::size_t end = at + std::string_view(w).size();
      bool starts = at == 0 || !std::isalnum(static_cast<unsigned char>(t[at - 1]));
      bool ends = end >= t.size() || !std::isalnum(static_cast<unsigned char>(t[end]));
      if (starts && ends) return true;
    }
    return false;
  };
  if (word("kld") || word("kl") || t.find("kl divergence") != std::string::npos || t.find("kl-div") != std::string::npos) return "kld";
  if (t.find("perplexity") != std::string::npos || word("ppl")) return "ppl";
  if (t.find("tok/s") != std::string::npos || t.find("tokens per second") != std::string::npos) return "speed";
  if (t.find("accuracy") != std::string::npos || t.find("pass@") != std::string::npos || t.find("exact match") != std::string::npos)
    return "accuracy";
  return "";
}

std::string kind_name(const std::string& kind) {
  return kind == "kld" ? "a KL divergence" : kind == "ppl" ? "a perplexity" : kind == "speed" ? "a speed" : "an accuracy";
}

// An inline baseline: a value and a label, on the record itself.
void check_inline(CheckContext& c, const Record& b) {
  const json& base = field(b, "baseline");
  if (!base.is_object() || base.contains("benchmark") || !base.contains("value")) return;
  std::string measured = b.data.contains("quality") && b.data["quality"].is_object()
                             ? metric_kind(b.data["quality"].value("metric", std::string()))
                             : "";
  if (measured.empty()) measured = metric_kind(b.str("metric"));
  if (measured == "kld" && base["value"].is_number() && base["value"].get<double>() != 0) {
    c.report(b, "/baseline/value",
             fmt::format("baseline value {} is not 0, but the benchmark measures a KL divergence from the reference: its baseline is the "
                         "reference against itself, 0",
                         number_text(base["value"].get<double>())));
    return;
  }
  std::string named = metric_kind(base.value("label", std::string()));
  if (!measured.empty() && !named.empty() && named != measured)
    c.report(b, "/baseline/label",
             fmt::format("baseline label names {}, but the benchmark measures {}", kind_name(named), kind_name(measured)));
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Benchmark) check_inline(c, r);
}

void check_record(CheckContext& c, const Record& b) {
  const Record* base = c.graph().find(str_at(b, "/baseline/benchmark"));
  if (!base || base->kind != Kind::Benchmark) return;
  std::string why = mismatch(b, *base);
  if (!why.empty()) c.report(b, "/baseline/benchmark", fmt::format("baseline {} {}", base->id, why));
}

// Read of every benchmark: the baseline it names, and what the comparison needs of both.
constexpr KeptField kReads[] = {{Kind::Benchmark, "/baseline/benchmark"}, {Kind::Benchmark, "/metric"},
                                {Kind::Benchmark, "/model_id"}, {Kind::Benchmark, "/model"}};

void run(CheckContext& c) {
  for (const Record* r : c.graph().of_kind(Kind::Benchmark)) check_record(c, *r);
}

}  // namespace

Check baseline_mismatch() { return {.info = &kInfo, .run = run, .each = each, .reads = kReads}; }

}  // namespace qsel::lint_checks
