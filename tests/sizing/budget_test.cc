// The engine budget model: device capacity read as the vendor means it, each
// engine's fraction and overheads, and the public start-up logs it reproduces.
#include <catch2/catch.hpp>

#include <cmath>

#include "qsel/graph/embedded_graph.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/sizing/memory.h"
#include "support/fixtures.h"

using namespace qsel;
using nlohmann::json;

namespace {
constexpr double kGiB = 1073741824.0;
const Record& rec(const std::string& id) {
  const Record* r = embedded_graph().find(id);
  REQUIRE(r);
  return *r;
}
const Record& target_of(const Record& a) { return rec(a.str("target")); }
}  // namespace

TEST_CASE("budget: HBM '80 GB' is 80 GiB, and engines size from the driver's total", "[rules][memory]") {
  const Record& h100 = rec("h100-sxm");
  CHECK(capacity_gb(h100) == Approx(85.899).epsilon(0.001));
  std::string source;
  CHECK(device_total_gb(h100, target_of(h100), &source) == Approx(81559 * 1048576.0 / 1e9));
  CHECK(source == "81559 MiB as the driver reports it");
  ModelSpec m;
  m.vocab = 128256;
  Budget b = engine_budget(h100, target_of(h100), 1, &rec("vllm"), m, 16);
  CHECK(b.fraction == 0.9);
  CHECK(b.fraction * b.total_gb == Approx(76.97).epsilon(0.001));  // the figure: 0.9 x 81,559 MiB
  CHECK(b.activation_gb == Approx(38.6 * 1024 * 128256 / 1e9));
  CHECK(b.statement.find("keeps activation peak") != std::string::npos);
}

TEST_CASE("budget: SGLang derives mem_fraction_static from the GPU size", "[rules][memory]") {
  ModelSpec m;
  m.vocab = 151936;
  const Record& h100 = rec("h100-sxm");
  CHECK(engine_budget(h100, target_of(h100), 1, &rec("sglang"), m, 0).fraction == Approx(0.835));
  const Record& rtx = rec("rtx-4090");
  CHECK(engine_budget(rtx, target_of(rtx), 1, &rec("sglang"), m, 0).fraction == Approx(0.847));
}

TEST_CASE("budget: SGLang's reserve past the device at --count 1024 leaves 0 GB, never a negative fraction", "[rules][memory]") {
  ModelSpec m;
  m.vocab = 151936;
  const Record& small = rec("rtx-3060-12gb");
  Budget b = engine_budget(small, target_of(small), 1024, &rec("sglang"), m, 0);
  CHECK(b.fraction == 0);
  CHECK(b.for_model_gb == 0);
  CHECK(b.statement.find("which leaves nothing for weights and KV (SGLang would derive -") != std::string::npos);
  for (const char* engine : {"vllm", "sglang", "llama-cpp", "trtllm", "mlx-lm", "exllamav2"}) {
    INFO(engine);
    const Record* e = embedded_graph().find(engine);
    REQUIRE(e);
    CHECK(engine_budget(small, target_of(small), 1024, e, m, 0).for_model_gb >= 0);
  }
}

TEST_CASE("budget: on Apple the engine gets the Metal working set, recorded or by the target's rule", "[rules][memory]") {
  ModelSpec m;
  m.vocab = 128256;
  const Record& pro = rec("apple-m4-pro");  // 64 GB, no recorded working set: 3/4
  std::string source;
  CHECK(device_total_gb(pro, target_of(pro), &source) == Approx(64 * kGiB / 1e9 * 0.75));
  CHECK(source.find("working set ~75%") != std::string::npos);
  const Record& m1 = rec("apple-m1-16gb");  // recorded 10922.67 MiB
  CHECK(device_total_gb(m1, target_of(m1), &source) == Approx(10922.67 * 1048576 / 1e9));
}

TEST_CASE("budget: reproduces the KV cache public engine start-up logs report, within 10%", "[rules][memory]") {
  json f = json::parse(test::read_text(test::source_dir() + "/tests/fixtures/engine-logs.json"));
  int checked = 0;
  for (const auto& log : f["logs"]) {
    const Record& a = rec(log["gpu"]);
    int count = log["count"];
    ModelSpec m;
    m.vocab = log["vocab"];
    double weights = log["weights_gib"].get<double>() * kGiB / 1e9 * count;
    Budget b = engine_budget(a, target_of(a), count, &rec(log["engine"]), m, weights, log["fraction"]);
    double kv_gib = (b.for_model_gb - weights) / count * 1e9 / kGiB;
    double logged = log["kv_gib"];
    INFO(log["id"] << ": qsel " << kv_gib << " GiB, log " << logged << " GiB");
    CHECK(std::fabs(kv_gib / logged - 1) <= 0.10);
    ++checked;
  }
  CHECK(checked >= 10);
}

TEST_CASE("budget: unified-memory parts get the budget their sources give, and the line says where it comes from",
          "[rules][memory]") {
  constexpr double kMiB = 1048576.0;
  std::string source;
  // A 128 GB Mac under macOS 26: 107.52 GiB, a log of this very part (M5 Max) or of one with the same memory (M4 Max).
  const Record& m5 = rec("apple-m5-max");
  CHECK(device_total_gb(m5, target_of(m5), &source) == Approx(110100.48 * kMiB / 1e9));
  CHECK(source.find("from a published log of this part under macOS 26, anecdotal: https://github.com/antirez/ds4/pull/893") !=
        std::string::npos);
  const Record& m4 = rec("apple-m4-max");
  CHECK(device_total_gb(m4, target_of(m4), &source) == Approx(110100.48 * kMiB / 1e9));
  CHECK(source.find("a published log of a part with the same memory under macOS 26") != std::string::npos);
  // No log of an 18 GB M3 Pro: the target's rule, 2/3 up to 32 GiB.
  const Record& m3 = rec("apple-m3-pro-18gb");
  CHECK(device_total_gb(m3, target_of(m3), &source) == Approx(18 * kGiB / 1e9 * 0.6667));
  CHECK(source.find("apple-m3's rule, derived from published logs under macOS 13-15") != std::string::npos);
  // Jetson: what CUDA reported free (AGX Orin 64GB, Thor), the CUDA total (Xavier NX 8GB), a same-size derivation (Orin NX 8GB).
  const Record& orin = rec("jetson-agx-orin-64gb");
  CHECK(device_total_gb(orin, target_of(orin), &source) == Approx(55.41));
  CHECK(source.find("a published log of this part under JetPack 6 (CUDA 12.2), anecdotal: https://github.com/ollama/ollama/issues/3406") !=
        std::string::npos);
  const Record& thor = rec("jetson-agx-thor");
  CHECK(device_total_gb(thor, target_of(thor), &source) == Approx(115.0));
  const Record& xnx = rec("jetson-xavier-nx-8gb");
  CHECK(device_total_gb(xnx, target_of(xnx), &source) == Approx(7.19));
  const Record& onx = rec("jetson-orin-nx-8gb");
  CHECK(device_total_gb(onx, target_of(onx), &source) == Approx(6.0));
  CHECK(source.find("a published log of a part with the same memory under JetPack 6, derived") != std::string::npos);
  // Nothing published for an AGX Orin 32GB: its target's free share (the AGX Orin 64GB log), counted as free memory.
  const Record& o32 = rec("jetson-agx-orin-32gb");
  bool is_free = false;
  CHECK(device_total_gb(o32, target_of(o32), &source, &is_free) == Approx(32 * kGiB / 1e9 * 0.806));
  CHECK(is_free);
  CHECK(source == "~81% of 32 GiB unified memory (sm87's free-share rule, anecdotal from published logs of its parts under JetPack 6 "
                  "(CUDA 12.2); no figure recorded for jetson-agx-orin-32gb: --vram-free to override)");
  const Record& nano = rec("jetson-orin-nano-8gb");  // its own figure comes first
  CHECK(device_total_gb(nano, target_of(nano), &source) == Approx(6.0));
  // No figure and no rule (MI300A): the whole memory, said so.
  const Record& apu = rec("mi300a");
  CHECK(device_total_gb(apu, target_of(apu), &source) == Approx(128 * kGiB / 1e9));
  CHECK(source == "the whole 128 GiB of unified memory (no published budget for mi300a: the OS and its carveouts take a "
                  "share the label does not show)");

  // The budget line says how to give the GPU more, citing where that is documented.
  ModelSpec m;
  m.vocab = 128256;
  Budget apple = engine_budget(m3, target_of(m3), 1, &rec("llama-cpp"), m, 0);
  CHECK(apple.statement.find("; to give the GPU more: `sudo sysctl iogpu.wired_limit_mb=<MiB>` "
                             "(https://ml-explore.github.io/mlx/build/html/python/_autosummary/mlx.core.set_wired_limit.html)") !=
        std::string::npos);
  Budget jetson = engine_budget(orin, target_of(orin), 1, &rec("llama-cpp"), m, 0);
  CHECK(jetson.statement.find("to give the GPU more: `sudo systemctl set-default multi-user.target`") != std::string::npos);
  Budget bare = engine_budget(o32, target_of(o32), 1, &rec("llama-cpp"), m, 0);  // a share, not a figure of its own
  CHECK(bare.statement.find("; give --vram-free GiB with what the OS reports on this machine") != std::string::npos);
  // A discrete card gets neither.
  const Record& h100 = rec("h100-sxm");
  CHECK(engine_budget(h100, target_of(h100), 1, &rec("llama-cpp"), m, 0).statement.find("give the GPU more") == std::string::npos);
}

TEST_CASE("budget: a unified-memory part's cap is said without -v; a discrete card's driver reserve is not a cap", "[rules][memory]") {
  ModelSpec m;
  m.vocab = 128256;
  const Record& m4 = rec("apple-m4-max");
  Budget mac = engine_budget(m4, target_of(m4), 1, &rec("llama-cpp"), m, 40);
  CHECK(mac.cap_note.rfind("the GPU may use 115.4 GB of the part's 137.4 GB: Metal working set 110100 MiB", 0) == 0);
  CHECK(mac.cap_note.find("`sudo sysctl iogpu.wired_limit_mb=<MiB>`") != std::string::npos);
  CHECK(mac.cap_note.find("ml-explore.github.io") == std::string::npos);  // the raise's source: -v (the full budget line)
  const Record& h100 = rec("h100-sxm");
  CHECK(engine_budget(h100, target_of(h100), 1, &rec("vllm"), m, 16).cap_note.empty());
  const Record& r4090 = rec("rtx-4090");
  CHECK(engine_budget(r4090, target_of(r4090), 1, &rec("llama-cpp"), m, 16).cap_note.empty());
}
