// backend_build (src/rules/backend_build.cc) and the per-backend candidates behind it
// (rule2_kernel.cc, rule_support.cc): an engine compiled per backend offers each backend
// that serves the part, --backend narrows them, and a backend carrying a wrong-output trap
// is not offered while another backend of the same engine serves the format cleanly.
#include <algorithm>

#include <catch2/catch.hpp>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rules.h"
#include "support/rules_mini.h"
#include "support/queries.h"

using namespace qsel;

namespace {

Deliberation ask_on_backend(const std::string& gpu, const std::string& model, std::vector<std::string> engines,
                 std::vector<std::string> backends = {}) {
  Query q = test::corpus_query(gpu, model, std::move(engines));
  q.backends = std::move(backends);
  return deliberate(embedded_graph(), q);
}

bool backend_offered(const Deliberation& d, const std::string& backend) {
  for (const auto& c : d.candidates)
    if (c.backend == backend) return true;
  return false;
}

}  // namespace

TEST_CASE("backend_build: on an NVIDIA card llama.cpp is offered through CUDA, Vulkan named in a note", "[rules][backend]") {
  auto d = ask_on_backend("rtx-4090", "qwen3-8b", {"llama-cpp"});
  REQUIRE(!d.candidates.empty());
  CHECK(backend_offered(d, "cuda"));
  CHECK_FALSE(backend_offered(d, "vulkan"));
  CHECK_FALSE(backend_offered(d, "rocm"));
  const Candidate& top = d.candidates.front();
  CHECK(top.backend == "cuda");
  CHECK(top.backend_build.name == "CUDA");
  CHECK(top.backend_build.build.find("-DGGML_CUDA=ON") != std::string::npos);
  CHECK(top.backend_build.device == "CUDA0");
  CHECK_FALSE(top.backend_build.off_platform);
  CHECK(qsel::test::mentions(d.notes, "llama-cpp is offered through one backend per format, the first its kernel selection takes on "
                                      "sm89; its vulkan build also serves these formats here: --backend vulkan to compare"));
}

TEST_CASE("backend_build: --backend with two backends keeps both, each with its own build", "[rules][backend]") {
  auto d = ask_on_backend("rtx-4090", "qwen3-8b", {"llama-cpp"}, {"cuda", "vulkan"});
  CHECK(backend_offered(d, "cuda"));
  CHECK(backend_offered(d, "vulkan"));
  for (const auto& c : d.candidates)
    if (c.backend == "vulkan") {
      CHECK(c.backend_build.build.find("-DGGML_VULKAN=ON") != std::string::npos);
      CHECK(c.backend_build.off_platform);
    }
}

TEST_CASE("backend_build: an engine not compiled per backend has no build and runs on the part's platform", "[rules][backend]") {
  auto d = ask_on_backend("rtx-4090", "qwen3-8b", {"vllm"});
  REQUIRE(!d.candidates.empty());
  for (const auto& c : d.candidates) {
    CHECK(c.backend == "cuda");
    CHECK(c.backend_build.build.empty());
  }
}

TEST_CASE("backend_build: on gfx1151 the HIP path's wrong-output traps leave Vulkan as the answer, and say why", "[rules][backend]") {
  auto d = ask_on_backend("strix-halo", "qwen3-8b", {"llama-cpp"});
  REQUIRE(!d.candidates.empty());
  CHECK_FALSE(backend_offered(d, "rocm"));
  CHECK(d.candidates.front().backend == "vulkan");
  CHECK(d.candidates.front().backend_build.device == "Vulkan0");
  bool said = false;
  for (const auto& e : d.excluded)
    if (e.engine == "llama-cpp" && e.reason.find("its rocm backend on gfx1151 carries a wrong-output trap") != std::string::npos &&
        e.reason.find("--backend rocm asks for it anyway") != std::string::npos)
      said = true;
  CHECK(said);
}

TEST_CASE("backend_build: --backend rocm on gfx1151 gets the HIP path, with its traps as warnings", "[rules][backend]") {
  auto d = ask_on_backend("strix-halo", "qwen3-8b", {"llama-cpp"}, {"rocm"});
  REQUIRE(!d.candidates.empty());
  for (const auto& c : d.candidates) CHECK(c.backend == "rocm");
  const Candidate& top = d.candidates.front();
  CHECK(top.backend_build.build.find("-DGPU_TARGETS=gfx1151") != std::string::npos);
  bool trap = false;
  for (const auto& w : top.warnings) trap = trap || w.effect == "wrong-output";
  CHECK(trap);
  bool vulkan_left_out = false;
  for (const auto& e : d.excluded) vulkan_left_out = vulkan_left_out || e.reason.find("--backend rocm: llama-cpp serves") == 0;
  CHECK(vulkan_left_out);
}

TEST_CASE("backend_build: vLLM's INT8 W8A8 on Blackwell is refused from the engine code, the older docs kept as contested", "[rules][backend]") {
  const Graph& g = embedded_graph();
  Query q;
  q.accelerator = g.find("b200");
  q.target = g.find(q.accelerator->str("target"));
  q.model = model_from_record(*g.find("llama-3.1-8b"));
  q.engines = {"vllm"};
  q.formats = {"int8-w8a8"};
  auto d = deliberate(g, q);
  CHECK(d.candidates.empty());
  const Exclusion* e = nullptr;
  for (const auto& x : d.excluded)
    if (x.format == "int8-w8a8" && x.engine == "vllm" && x.rule == "rule-2") e = &x;
  REQUIRE(e);
  CHECK(e->reason.find("it fails there") != std::string::npos);
  CHECK(e->reason.find("scaled_mm_helper.hpp") != std::string::npos);
  REQUIRE(e->conflicts.size() == 1);
  CHECK(e->conflicts[0].find("docs/features/quantization/int8.md") != std::string::npos);
  CHECK(e->conflicts[0].find("the engine code above outranks it") != std::string::npos);
}

TEST_CASE("backend_build: vLLM on Hopper still serves INT8 W8A8 through CUTLASS", "[rules][backend]") {
  const Graph& g = embedded_graph();
  Query q;
  q.accelerator = g.find("h100-sxm");
  q.target = g.find(q.accelerator->str("target"));
  q.model = model_from_record(*g.find("llama-3.1-8b"));
  q.engines = {"vllm"};
  q.formats = {"int8-w8a8"};
  auto d = deliberate(g, q);
  REQUIRE(!d.candidates.empty());
  REQUIRE(d.candidates.front().kernel);
  CHECK(d.candidates.front().kernel->id == "cutlass-int8-gemm");
}

TEST_CASE("backend_build: on Jetson vLLM and SGLang run from NVIDIA's Jetson containers: unlisted, a deployment with a minor warning", "[rules][backend]") {
  for (const char* engine : {"vllm", "sglang"}) {
    auto d = ask_on_backend("jetson-agx-orin-64gb", "qwen3-8b", {engine});
    REQUIRE(!d.candidates.empty());
    const Candidate& top = d.candidates.front();
    CHECK(top.maturity == "unlisted");
    CHECK(top.maturity_reason.find("jetson-containers") != std::string::npos);
    CHECK(d.deployable);
    CHECK(std::any_of(top.warnings.begin(), top.warnings.end(), [](const auto& w) { return w.id == "maturity" && w.severity == "minor"; }));
  }
}

TEST_CASE("backend_build: ExLlamaV3 has no aarch64 wheel: a DGX Spark runs it as a source build, experimental", "[rules][backend]") {
  auto d = ask_on_backend("dgx-spark", "qwen3-8b", {"exllamav3"});
  REQUIRE(!d.candidates.empty());
  CHECK(d.candidates.front().maturity == "experimental");
  CHECK(d.candidates.front().maturity_reason.find("aarch64") != std::string::npos);
}

TEST_CASE("backend_build: ExLlamaV3 sized tight with a 16-bit cache takes its Q8 cache for a larger bitrate", "[rules][backend]") {
  const Graph& g = embedded_graph();
  Query q;
  q.accelerator = g.find("rtx-4090");
  q.target = g.find(q.accelerator->str("target"));
  q.model = model_from_record(*g.find("qwen3-32b"));
  q.engines = {"exllamav3"};
  q.context = 32768;
  auto d = deliberate(g, q);
  REQUIRE(!d.candidates.empty());
  const Candidate& top = d.candidates.front();
  REQUIRE(top.memory);
  CHECK(top.format->id == "exl3");
  CHECK(top.memory->kv_dtype == "exl3-kv-q8");
  CHECK(qsel::test::mentions(top.why, "Rule 6 — with the 16-bit KV cache the largest bitrate that fits is"));
}
