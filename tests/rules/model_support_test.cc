// apply_model_support (src/rules/model_support.cc): an engine serves a model only if it implements its
// architecture, and a format whose loader maps only some architectures (model_support.by_format) only for those.
#include <algorithm>

#include <catch2/catch.hpp>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rules.h"
#include "support/queries.h"

using namespace qsel;

namespace {

bool excluded(const Deliberation& d, const std::string& format, const std::string& engine, const std::string& rule) {
  return std::any_of(d.excluded.begin(), d.excluded.end(),
                     [&](const Exclusion& e) { return e.format == format && e.engine == engine && e.rule == rule; });
}

bool offered(const Deliberation& d, const std::string& format_prefix, const std::string& engine) {
  return std::any_of(d.candidates.begin(), d.candidates.end(), [&](const Candidate& c) {
    return c.engine && c.engine->id == engine && c.format->id.rfind(format_prefix, 0) == 0;
  });
}

}  // namespace

// Blind audit 27 #54: SGLang was told to load a DeepSeek-R1 GGUF; its loader matches the config's model_type against
// gguf-py's architecture names and has no match for deepseek_v3.
TEST_CASE("model support: SGLang's GGUF loader maps only the architectures whose model_type gguf-py names", "[rules][model-support]") {
  Deliberation r1 = test::ask_corpus("l40s", "deepseek-r1", {"sglang"});
  CHECK(excluded(r1, "gguf-iq3-xxs", "sglang", "model-support"));
  CHECK_FALSE(offered(r1, "gguf-", "sglang"));
  // The engine still serves the model's other formats: only the GGUF loader is refused.
  CHECK_FALSE(excluded(r1, "", "sglang", "model-support"));
  // A Llama GGUF maps (gguf-py's "llama"), so SGLang's GGUF path stays for it.
  Deliberation llama = test::ask_corpus("rtx-4090", "llama-3.1-8b", {"sglang"});
  CHECK_FALSE(excluded(llama, "gguf-q4-k-m", "sglang", "model-support"));
}

TEST_CASE("model support: an engine whose registry has the architecture says it implements it", "[rules][model-support]") {
  Deliberation d = test::ask_corpus("h100-sxm", "llama-3.1-8b", {"vllm"});
  CHECK(std::any_of(d.candidates.begin(), d.candidates.end(), [](const Candidate& c) {
    return std::any_of(c.why.begin(), c.why.end(), [](const std::string& w) { return w.find("implements LlamaForCausalLM") != std::string::npos; });
  }));
}

// Blind audit 28 #20: ExLlamaV2 was offered for OLMo-2, whose class it does not implement; it loads an unknown class as
// Llama, which needs Llama's norms in every layer, and OLMo-2 has none. The registry lists are complete, so an unlisted
// class is refused with the reason.
TEST_CASE("model support: an engine whose complete registry lacks the class is excluded once, with the reason", "[rules][model-support]") {
  for (const char* engine : {"exllamav2", "exllamav3"}) {
    Deliberation d = test::ask_corpus("rtx-3090", "olmo-2-13b", {engine});
    CHECK(d.candidates.empty());
    CHECK(std::count_if(d.excluded.begin(), d.excluded.end(), [&](const Exclusion& e) {
            return e.engine == engine && e.rule == "model-support" && e.reason.find("Olmo2ForCausalLM") != std::string::npos;
          }) == 1);
  }
  CHECK_FALSE(test::ask_corpus("rtx-3090", "qwen3-8b", {"exllamav2"}).candidates.empty());
}
