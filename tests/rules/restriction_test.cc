// restriction_lead (src/rules/restriction.cc): when the best the engines allowed can do is
// no deployment, the answer says so first and names what runs well.
#include <catch2/catch.hpp>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rules.h"
#include "support/rules_mini.h"
#include "support/queries.h"

using namespace qsel;
using qsel::test::mentions;

namespace {

Deliberation ask(const std::string& gpu, const std::string& model, std::vector<std::string> engines) {
  return test::ask_corpus(gpu, model, std::move(engines));
}

}  // namespace

TEST_CASE("restriction: vLLM alone serves a 30B MoE on a 16 GB card only through its experimental GGUF path: said first", "[rules][restriction]") {
  auto d = ask("rtx-5060-ti-16gb", "qwen3-30b-a3b", {"vllm"});
  CHECK_FALSE(d.deployable);
  REQUIRE(d.lead.size() >= 2);
  CHECK(d.lead[0].find("none among the engines asked for (vllm)") == 0);
  CHECK(d.lead[0].find("experimental") != std::string::npos);
  CHECK(mentions(d.lead, "what runs well: "));
  CHECK(mentions(d.lead, "(--engine llama-cpp)"));
}

TEST_CASE("restriction: a 70B on one 24 GB card in vLLM names llama.cpp and the second GPU vLLM needs", "[rules][restriction]") {
  auto d = ask("rtx-4090", "llama-3.1-70b", {"vllm"});
  CHECK_FALSE(d.deployable);
  CHECK(mentions(d.lead, "--engine llama-cpp"));
  CHECK(mentions(d.lead, "with --count 2: "));
}

TEST_CASE("restriction: a laptop is never told to add GPUs", "[rules][restriction]") {
  auto d = ask("apple-m3-pro-18gb", "qwen3-32b", {"llama-cpp"});
  CHECK(!mentions(d.lead, "--count"));
}

TEST_CASE("restriction: a deployment says nothing first and recommend exits 0, none exits 1", "[rules][restriction]") {
  auto d = ask("rtx-4090", "llama-3.1-8b", {"vllm"});
  CHECK(d.deployable);
  CHECK(d.lead.empty());
  CHECK(test::run_cli({"recommend", "--gpu", "rtx-4090", "--model", "llama-3.1-8b", "--engine", "vllm"}).code == 0);
  auto none = test::run_cli({"recommend", "--gpu", "rtx-5060-ti-16gb", "--model", "qwen3-30b-a3b", "--engine", "vllm"});
  CHECK(none.code == 1);
  CHECK(none.out.find("\nNo deployment none among the engines asked for (vllm)") != std::string::npos);
}

// Blind audit 5 #4/#15: ExLlamaV2 named with --engine. Its upstream is archived (maturity deprecated), but the EXL2 plan
// fits and runs: the answer is that plan (exit 0), led by what deprecated means and what runs well elsewhere. Unnamed, a
// deprecated engine never leads (it ranks after mainline paths); an experimental path stays no deployment even when named.
TEST_CASE("restriction: a deprecated engine the user named answers with its plan, said deprecated, and exits 0", "[rules][restriction]") {
  auto d = ask("rtx-4070-ti", "phi-4", {"exllamav2"});
  CHECK(d.deployable);
  CHECK(d.lead_kind == "deprecated-engine");
  REQUIRE(d.lead.size() >= 2);
  CHECK(d.lead[0].rfind("exllamav2 is deprecated (", 0) == 0);
  CHECK(mentions(d.lead, "what runs well elsewhere: "));
  auto r = test::run_cli({"recommend", "--gpu", "rtx-4070-ti", "--model", "phi-4", "--engine", "exllamav2"});
  CHECK(r.code == 0);
  CHECK(r.out.find("\nDeprecated exllamav2 is deprecated") != std::string::npos);
  CHECK(r.out.find("Run #1") != std::string::npos);
  auto unnamed = ask("rtx-4070-ti", "phi-4", {});
  CHECK(unnamed.candidates.front().maturity != "deprecated");
}

// SGLang's MXFP4 loader refuses gfx942: gpt-oss's release does not load, and the plan left is an FP8 made from it.
TEST_CASE("restriction: an engine that cannot load the quantized release here says so and names what serves it", "[rules][restriction]") {
  auto d = ask("mi300x", "gpt-oss-120b", {"sglang"});
  REQUIRE_FALSE(d.candidates.empty());
  CHECK(d.deployable);
  CHECK(d.lead_kind == "release-elsewhere");
  REQUIRE(d.lead.size() == 2);
  CHECK(d.lead[0].find("sglang does not serve gpt-oss-120b's mxfp4-moe release here") == 0);
  CHECK(d.lead[1].find("what serves the release: mxfp4-moe on vllm") != std::string::npos);
  // gfx950 passes SGLang's gate: the release is the answer, and no lead.
  auto ok = ask("mi355x", "gpt-oss-120b", {"sglang"});
  REQUIRE_FALSE(ok.candidates.empty());
  CHECK(ok.candidates.front().format->id == "mxfp4-moe");
  CHECK(ok.lead_kind.empty());
}

// Blind audit 18 #21: vLLM removed Mllama (Llama 3.2 Vision); asked for vLLM alone, the answer says so and names what runs.
TEST_CASE("restriction: an engine that no longer loads the architecture leaves no candidate: said, with what runs well", "[rules][restriction]") {
  auto d = ask("rtx-3090", "llama-3.2-11b-vision", {"vllm"});
  CHECK(d.candidates.empty());
  CHECK_FALSE(d.deployable);
  CHECK(d.lead_kind == "no-deployment");
  REQUIRE(d.lead.size() == 2);
  CHECK(d.lead[0].find("none among the engines asked for (vllm) serves llama-3.2-11b-vision here: vllm (model-support") == 0);
  CHECK(d.lead[0].find("MllamaForConditionalGeneration") != std::string::npos);
  CHECK(d.lead[1].find("what runs well: ") == 0);
}

TEST_CASE("restriction: a backend the user named whose path carries an unconditional blocker is no deployment, and the other build is named",
          "[rules][restriction]") {
  // Blind audit 31 #33: --backend rocm on a Strix Halo printed a llama-server line whose logits are wrong past n_ubatch.
  Query q = test::corpus_query("strix-halo", "llama-4-scout", {"llama-cpp"});
  q.backends = {"rocm"};
  Deliberation d = deliberate(embedded_graph(), q);
  CHECK_FALSE(d.deployable);
  CHECK(mentions(d.lead, "a path with a blocker"));
  CHECK(mentions(d.lead, "--backend vulkan"));
}
