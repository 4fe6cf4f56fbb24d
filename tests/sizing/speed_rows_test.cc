// The rows the forecast is fitted on (src/sizing/speed_rows.cc): which benchmark records give a decode row, with
// what ceiling, memory class and offload.
#include <catch2/catch.hpp>

#include <algorithm>

#include "qsel/graph/embedded_graph.h"
#include "qsel/graph/graph.h"
#include "qsel/sizing/forecast.h"

using namespace qsel;

TEST_CASE("forecast: unverified rows stay out of the calibration unless asked for", "[rules][forecast]") {
  const Graph& g = embedded_graph();
  auto attributable = speed_rows(g), all = speed_rows(g, true);
  CHECK(std::none_of(attributable.begin(), attributable.end(), [](const SpeedRow& r) { return r.unverified; }));
  auto unverified = std::count_if(all.begin(), all.end(), [](const SpeedRow& r) { return r.unverified; });
  CHECK(unverified > 0);
  CHECK(all.size() == attributable.size() + static_cast<std::size_t>(unverified));
  for (const SpeedRow& r : all) CHECK(r.unverified == (r.record->str("grade") == "unverified"));
}

TEST_CASE("forecast: stacked memory (HBM) is the one memory class the calibration splits", "[forecast]") {
  auto part = [](const std::string& memory_type) {
    Record r;
    r.data["memory_type"] = memory_type;
    return memory_class_of(r);
  };
  CHECK(part("HBM2e") == "hbm");
  CHECK(part("HBM3e (GPU) + LPDDR5X (Grace CPU)") == "hbm");
  CHECK(part("hbm") == "hbm");
  CHECK(part("GDDR6X") == "non-hbm");
  CHECK(part("LPDDR5 unified") == "non-hbm");
  CHECK(part("unified (CPU+GPU) LPDDR5X, 256-bit") == "non-hbm");
  CHECK(part("").empty());
}

TEST_CASE("forecast: a run with its experts in RAM (--n-cpu-moe) is an offload run, its active experts read at the RAM's bandwidth", "[forecast]") {
  // speed-llama-cpp-rtx-a1000-qwen3.6-35b-a3b-ud-q4-k-m-tg-cpumoe: 21 GB, 3B of 35B active, every layer's experts in RAM
  // at 42.7 GB/s, the rest on a 192 GB/s RTX A1000. Qwen3.6-35B-A3B: 256 experts, 8 active, 40 layers.
  auto rows = speed_rows(embedded_graph());
  auto it = std::find_if(rows.begin(), rows.end(), [](const SpeedRow& r) { return r.record->id.find("-tg-cpumoe") != std::string::npos; });
  REQUIRE(it != rows.end());
  CHECK(it->offload);
  CHECK(it->moe);
  double gb_per_param = 21.0 / 35, bytes = 21.0 * 3 / 35;
  double in_ram = 8 * (35.0 - 3) / (256 - 8) * gb_per_param;  // the 8 active experts of every layer
  CHECK(it->ceiling_tok_s == Approx(1 / ((bytes - in_ram) / 192 + in_ram / 42.7)).epsilon(0.01));
  CHECK(it->ceiling_tok_s < 192 / bytes / 2);  // far under the all-in-VRAM ceiling it was read with before
}

TEST_CASE("forecast: the single-GPU rows are runs of one GPU", "[forecast]") {
  // A run of several GPUs (tensor parallel, a layer split) reads at other bandwidths and waits on other GPUs: it is
  // tp_rows' (tensor parallel) or no row at all, never a single-GPU row, even where it states a file size.
  const Graph& g = embedded_graph();
  for (const SpeedRow& r : speed_rows(g, true)) {
    const auto& s = r.record->data["speed"];
    INFO(r.record->id);
    CHECK(s.value("gpus", 1) <= 1);
    CHECK(!(s.contains("parallel") && s["parallel"].value("tensor", 1) > 1));
  }
}

TEST_CASE("forecast: a run that publishes no file size is sized as qsel sizes its model and format, and says so", "[forecast]") {
  const Graph& g = embedded_graph();
  auto rows = speed_rows(g);
  auto find = [&](const std::string& id) {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const SpeedRow& r) { return r.record->id == id; });
    return it == rows.end() ? nullptr : &*it;
  };
  // A published size: no basis. No published size: qsel's estimate, named.
  for (const SpeedRow& r : rows) CHECK(r.weights_basis.empty() == (r.record->data["speed"].value("weights_gb", 0.0) > 0));
  // MLC's q4f16_1 quantizes the embedding and output layer too: Llama 3.1 8B at 4.5 bits everywhere is 4.5 GB, so the
  // Jetson run (14.0 tok/s at 68 GB/s) stays under its ceiling.
  const SpeedRow* mlc = find("speed-mlc-llm-jetson-orin-nano-8gb-llama-3.1-8b-q4f16-tg");
  REQUIRE(mlc);
  CHECK(mlc->weights_basis.rfind("estimated: ", 0) == 0);
  CHECK(mlc->ratio() < 1);
  // An -ngl run with its layer total is an offload run (llmfit's RTX 2080 rows).
  const SpeedRow* ngl = find("speed-llama-cpp-rtx-2080-qwen3-14b-q4-k-m-tg-ngl32");
  REQUIRE(ngl);
  CHECK(ngl->offload);
  // Serving engines' one-GPU runs fit the serving term (serving_rows), not these rows; a run of an engine with no record
  // calibrates nothing.
  for (const SpeedRow& r : rows) {
    const Record* e = g.find(r.engine);
    REQUIRE(e);
    CHECK(e->str("role") != "serving");
  }
  CHECK_FALSE(find("speed-rapid-mlx-apple-m3-ultra-256gb-qwen3-8b-mlx-4bit-tg"));
}
