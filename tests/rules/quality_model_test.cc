// The quality model (src/rules/quality_model.cc): its fit on the corpus, the laws its
// structure guarantees, the family a format made by an engine belongs to, and its error
// on models held out of the fit. The figures docs/quality.md states are checked here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "qsel/graph/embedded_graph.h"
#include "qsel/model/model_spec.h"
#include "qsel/rules/quality_model.h"
#include "support/rules_mini.h"

using namespace qsel;

namespace {

const QualityModel& fitted() {
  static const QualityModel m(embedded_graph());
  return m;
}

}  // namespace

TEST_CASE("quality model: the fit reads every quality row and converges to a slope near a bit's worth", "[rules][quality-model]") {
  const QualityModel& m = fitted();
  CHECK(m.fit().converged);
  // Only rows filed under a format no quality family describes stay out — a toolkit's
  // checkpoints (a per-channel INT4 compressed-tensors row is not GPTQ's group 128: QS044).
  for (const auto& s : m.skipped()) {
    INFO(s);
    CHECK(s.find(": no quality family covers ") != std::string::npos);
  }
  CHECK(m.skipped().size() <= 4);
  CHECK(m.rows().size() >= 145);
  CHECK(!m.fit().covariance.empty());
  // Each extra bit cuts the cost by e^slope: between 2x and 6x (quantization error variance falls ~4x per bit).
  CHECK(m.slope() > std::log(2.0));
  CHECK(m.slope() < std::log(6.0));
  CHECK(m.size_effect() > 0);  // larger models lose less
}

TEST_CASE("quality model: within every family more bits are never estimated worse, on any model", "[rules][quality-model]") {
  const Graph& g = embedded_graph();
  const QualityModel& m = fitted();
  std::vector<ModelSpec> models = {model_from_record(*g.find("llama-3.1-8b")), model_from_record(*g.find("qwen3-32b")),
                                   model_from_record(*g.find("deepseek-r1"))};
  int checked = 0;
  for (const Record* t : g.of_kind(Kind::Technique)) {
    if (!t->data.contains("quality_family")) continue;
    for (const auto& fid : t->strings("/applies/formats")) {
      const Record* f = g.find(fid);
      const Record* engine = t->strings("/applies/engines").empty() ? nullptr : g.find(t->strings("/applies/engines")[0]);
      for (const auto& spec : models) {
        double last = std::numeric_limits<double>::infinity();
        for (double bits = 2; bits <= 8.5; bits += 0.5) {
          auto e = m.estimate(g, *f, engine, &spec, bits, false);
          REQUIRE(e.known);
          INFO(fid << " on " << spec.id << " at " << bits << " bits");
          CHECK(e.cost() < last);
          CHECK(e.low() < e.cost());
          CHECK(e.cost() < e.high());
          last = e.cost();
          ++checked;
        }
      }
    }
  }
  CHECK(checked > 500);
}

TEST_CASE("quality model: the family is the method that made the checkpoint, the engine's own where it names one", "[rules][quality-model]") {
  const Graph& g = embedded_graph();
  const Record& nvfp4 = *g.find("nvfp4");
  CHECK(quality_family_of(g, nvfp4, g.find("vllm"), false)->id == "quant-method-nvfp4");
  CHECK(quality_family_of(g, nvfp4, nullptr, false)->id == "quant-method-nvfp4");
  // MLX rounds its own FP4 modes to nearest: the calibrated checkpoints' rows do not stand for it.
  CHECK(quality_family_of(g, nvfp4, g.find("mlx-lm"), false)->id == "quant-method-mlx-fp");
  CHECK(quality_family_of(g, *g.find("gguf-q4-0"), g.find("llama-cpp"), true)->id == "quant-method-qat");
  CHECK(quality_family_of(g, *g.find("modelopt"), nullptr, false) == nullptr);
  // No family: no estimate, never a number the records do not support.
  ModelSpec m = model_from_record(*g.find("llama-3.1-8b"));
  CHECK(!fitted().estimate(g, *g.find("modelopt"), nullptr, &m, 4.5, false).known);
  CHECK(!fitted().estimate(g, *g.find("awq"), nullptr, &m, 0, false).known);
}

TEST_CASE("quality model: rows of this format on this model refine it, and name themselves", "[rules][quality-model]") {
  const Graph& g = embedded_graph();
  ModelSpec qwen = model_from_record(*g.find("qwen3-8b"));
  auto e = fitted().estimate(g, *g.find("gguf-q4-k-m"), g.find("llama-cpp"), &qwen, 4.89, false);
  REQUIRE(e.here.size() == 1);
  CHECK(e.here[0]->id == "quality-gguf-q4-k-m-qwen3-8b-autoround-docs");
  // A 99.6% recovery on one model is noise around the family's line, not "lossless": the
  // estimate stays a 4-bit cost, above a Q6_K estimate on the same model.
  auto q6 = fitted().estimate(g, *g.find("gguf-q6-k"), g.find("llama-cpp"), &qwen, 6.56, false);
  CHECK(e.cost() > 3 * q6.cost());
  // Two formats on one model share the model's own uncertainty: their difference is known better
  // than either estimate.
  double diff = fitted().difference_sd(e, q6);
  CHECK(diff < std::hypot(e.sd, q6.sd));
}

TEST_CASE("quality model: leave-one-model-out error stays inside what docs/quality.md states", "[rules][quality-model]") {
  HeldOutError h = held_out_error(embedded_graph());
  REQUIRE(h.logit.size() > 60);
  REQUIRE(h.points.size() > 60);
  // docs/quality.md, "Held-out error": ln units for KLD/PPL rows, accuracy points for recovery rows,
  // and the error between formats of one held-out model (its own level removed), which ranking reads.
  CHECK(quantile(h.logit, 0.5) < 0.65);
  CHECK(quantile(h.logit, 0.9) < 1.3);
  CHECK(quantile(h.centred, 0.5) < 0.25);
  CHECK(quantile(h.centred, 0.9) < 0.6);
  CHECK(quantile(h.points, 0.5) < 0.8);
  CHECK(quantile(h.points, 0.9) < 5.0);
  CHECK(h.logit_in_band >= 0.75 * static_cast<double>(h.logit.size()));
  CHECK(h.points_in_band >= 0.8 * static_cast<double>(h.points.size()));
}

TEST_CASE("quality model: a corpus whose one family is the reference fits from its priors alone", "[rules][quality-model]") {
  QualityModel m(test::mini());
  ModelSpec dense = model_from_record(*test::mini().find("m-dense"));
  auto four = m.estimate(test::mini(), *test::mini().find("f-w4"), nullptr, &dense, 4.5, false);
  auto eight = m.estimate(test::mini(), *test::mini().find("f-fp8"), nullptr, &dense, 8, false);
  REQUIRE(four.known);
  CHECK(four.family_rows == 0);
  CHECK(eight.cost() < four.cost());
  CHECK(m.rows().empty());
}
