#include <catch2/catch.hpp>

#include "qsel/graph/embedded_graph.h"
#include "qsel/model/model_spec.h"
#include "qsel/sizing/memory.h"
#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("memory: weights keep embeddings and LM head at 16-bit outside GGUF", "[rules][memory]") {
  ModelSpec m = model_from_record(*mini().find("m-dense"));
  CHECK(m.embedding_params_b() == Approx(0.2));  // 100000 x 1000 x 2 (untied)
  Bpw b = choose_bpw(*mini().find("f-w4"), m);
  CHECK(b.value == Approx(4.125));
  CHECK(b.source == "derived: 4 + 16/128 (an fp16 scale per group)");
  CHECK(weights_gb(*mini().find("f-w4"), m, b) == Approx(9.8 * 4.125 / 8 + 0.4));
  Bpw base = choose_bpw(*mini().find("f-base"), m);
  CHECK(weights_gb(*mini().find("f-base"), m, base) == Approx(20));
}

TEST_CASE("memory: KV cache per attention kind", "[rules][memory]") {
  ModelSpec dense = model_from_record(*mini().find("m-dense"));
  CHECK(kv_cache_gb(dense, 1000, 1, 2) == Approx(2.0 * 10 * 2 * 100 * 2 * 1000 / 1e9));
  CHECK(kv_cache_gb(dense, 1000, 4, 1) == Approx(2.0 * 10 * 2 * 100 * 1 * 1000 * 4 / 1e9));
  ModelSpec sw = model_from_record(*mini().find("m-sw"));
  // 5 full layers x 1000 tokens + 5 windowed layers x 100 tokens
  CHECK(kv_cache_gb(sw, 1000, 1, 2) == Approx((5 * 1000 + 5 * 100) * 2.0 * 2 * 100 * 2 / 1e9));
  ModelSpec mla = dense;
  mla.attention = "mla";
  mla.kv_lora_rank = 512;
  mla.rope_dim = 64;
  CHECK(kv_cache_gb(mla, 1000, 1, 2) == Approx(10.0 * 1000 * 576 * 2 / 1e9));
  ModelSpec hybrid = dense;
  hybrid.kv_layers = 3;
  CHECK(kv_cache_gb(hybrid, 1000, 1, 2) == Approx(3.0 * 1000 * 2 * 2 * 100 * 2 / 1e9));
}

namespace {
double mib(double gb) { return gb * 1e9 / 1048576.0; }

// A Gated DeltaNet hybrid with llama.cpp's ssm.* metadata as a published log prints it (print_info:
// ssm_d_conv, ssm_d_inner, ssm_d_state, ssm_dt_rank, ssm_n_group) and full_attention_interval 4.
ModelSpec gdn(int layers, int d_conv, int d_inner, int d_state, int dt_rank, int n_group) {
  ModelSpec m;
  m.layers = layers;
  m.linear.layers = layers - layers / 4;
  m.linear.conv_kernel = d_conv;
  m.linear.value_heads = dt_rank;
  m.linear.value_dim = d_inner / dt_rank;
  m.linear.key_dim = d_state;
  m.linear.key_heads = n_group;
  return m;
}
}  // namespace

// llama.cpp keeps r = (ssm_d_conv - 1) x (ssm_d_inner + 2 x ssm_n_group x ssm_d_state) and s = ssm_d_state x
// ssm_d_inner f32 values per recurrent layer and cell (src/llama-hparams.cpp n_embd_r/n_embd_s), one cell per
// sequence. The figures are the RS buffers of published llama-server logs (HilbertraumAI/HilbertRaum):
//   Qwen3.5-9B, 1 seq: "RS buffer size =    50.25 MiB" ... "R (f32):    2.25 MiB, S (f32):   48.00 MiB"
//     (eval/results/hardware/i7-8700-gtx-1070-ti-8gb-32gb/leg2-np1-verify.stderr.log, commit e5dcf934)
//   Qwen3.5-9B, 4 seqs (llama-server's automatic -np): "size =  201.00 MiB (     4 cells,  32 layers,  4 seqs"
//   Qwen3.5-35B-A3B, 1 seq: "RS buffer size =    62.81 MiB" ... "R (f32):    2.81 MiB, S (f32):   60.00 MiB"
//     (eval/results/hardware/i9-9900x-rtx-3090-24gb-128gb/issue399-arch-sweep-qwen3.5-35b-a3b-ud-q4kxl.stderr.log,
//     commit 175efe3f)
TEST_CASE("memory: the recurrent state of a Gated DeltaNet hybrid is llama.cpp's RS buffer", "[rules][memory]") {
  ModelSpec nine = gdn(32, 4, 4096, 128, 32, 16);
  CHECK(mib(recurrent_state_gb(nine, 1, 4)) == Approx(50.25).margin(0.005));
  CHECK(mib(nine.linear.layers * nine.linear.conv_values() * 4 / 1e9) == Approx(2.25).margin(0.005));
  CHECK(mib(nine.linear.layers * nine.linear.state_values() * 4 / 1e9) == Approx(48.00).margin(0.005));
  CHECK(mib(recurrent_state_gb(nine, 4, 4)) == Approx(201.00).margin(0.005));
  ModelSpec moe = gdn(40, 4, 4096, 128, 32, 16);
  CHECK(mib(recurrent_state_gb(moe, 1, 4)) == Approx(62.81).margin(0.005));
  CHECK(mib(moe.linear.layers * moe.linear.conv_values() * 4 / 1e9) == Approx(2.81).margin(0.005));
  // The records carry the same shape from config.json's linear_* fields.
  ModelSpec q36 = model_from_record(*embedded_graph().find("qwen3.6-35b-a3b"));
  CHECK(q36.linear.layers == 30);
  CHECK(mib(recurrent_state_gb(q36, 1, 4)) == Approx(62.81).margin(0.005));
  ModelSpec next = model_from_record(*embedded_graph().find("qwen3-next-80b-a3b"));
  CHECK(next.linear.layers + next.kv_layers == next.layers);
  CHECK(mib(recurrent_state_gb(next, 1, 4)) == Approx(75.375).margin(0.005));
  // 16-bit (vLLM's default dtype) is half; a model without linear layers keeps none.
  CHECK(recurrent_state_gb(q36, 1, 2) == Approx(recurrent_state_gb(q36, 1, 4) / 2));
  CHECK(recurrent_state_gb(model_from_record(*mini().find("m-dense")), 4, 4) == 0);
}

TEST_CASE("memory: the engine's budget", "[rules][memory]") {
  const Record& gpu = *mini().find("gpu-hop");  // memory_unit GB: 80 GB is 80e9 bytes
  const Record& t = *mini().find("t-hop");
  ModelSpec m;
  Budget a = engine_budget(gpu, t, 2, mini().find("eng-a"), m, 0);
  CHECK(a.kind == "fraction-of-total");  // the older gpu_memory_utilization spelling
  CHECK(a.for_model_gb == Approx(144));
  CHECK(a.statement == "80.0 GB per part (the vendor's 80 GB (the driver's total is not recorded)); eng-a: 80.0 GB x 0.9 = "
                       "72.0 GB per GPU (fraction 0.9) → 144.0 GB for weights and KV on 2 parts");
  CHECK(engine_budget(gpu, t, 1, mini().find("eng-b"), m, 0).for_model_gb == Approx(80));
  CHECK(engine_budget(gpu, t, 1, mini().find("eng-a"), m, 0, 0.5).for_model_gb == Approx(40));  // --memory-fraction
}

TEST_CASE("memory: candidates get fit and a roofline ceiling", "[rules][memory]") {
  Query q = mini_query("gpu-hop");
  q.batch = 1;
  Deliberation d{mini(), q, {}, {}, {}, {}};
  enumerate_candidates(d);
  apply_rule1(d);
  apply_rule2(d);
  compute_memory(d);
  const Candidate* c = find(d, "f-w4");
  REQUIRE(c->memory);
  double weights = 9.8 * 4.125 / 8 + 0.4, kv = 2.0 * 10 * 2 * 100 * 2 * 8192 / 1e9;
  CHECK(c->memory->weights_gb == Approx(weights));
  CHECK(c->memory->fits);
  CHECK(c->memory->decode_tok_s == Approx(2000 / (weights + kv)));
  CHECK(c->memory->compute_tok_s == Approx(1000e12 / (2 * 10e9)));
}

// A GGUF type with fewer bits in its block struct is never sized larger than one with more, on any model in the
// corpus: a figure measured only on a small model (IQ1_S on an 8B: 2.00 bpw, its 16-bit tensors weigh more) is
// carried to the size of the nearest model measured with other types (IQ1_S on DeepSeek-V3 once took 168 GB
// against IQ1_M's 159 GB). Every type is read on one reference model per question (docs/memory.md).
TEST_CASE("memory: GGUF sizes follow the block struct's bits on every model", "[rules][memory]") {
  const Graph& g = embedded_graph();
  std::vector<const Record*> types;
  for (const Record* f : g.of_kind(Kind::Format))
    if (f->str("scheme") == "gguf" && f->data.value("post_training", true) && f->str("regime") != "kv-cache" &&
        !(f->data.contains("mixture") && f->data["mixture"].value("base_tensors", "all") == "experts") &&
        f->data.value("bpw", nlohmann::json::object()).value("struct", 0.0) > 0)
      types.push_back(f);
  REQUIRE(types.size() > 20);
  auto bits = [](const Record* f) { return f->data["bpw"]["struct"].get<double>(); };
  int models = 0;
  for (const Record* r : g.of_kind(Kind::Model)) {
    ModelSpec m = model_from_record(*r);
    if (m.params_b <= 0) continue;
    ++models;
    for (const Record* a : types)
      for (const Record* b : types) {
        if (bits(a) >= bits(b)) continue;
        Bpw ba = choose_bpw(*a, m, &g), bb = choose_bpw(*b, m, &g);
        // A file measured on this very model (or its published file's size) is a fact, not an estimate: Qwen2.5-72B's
        // published Q4_K_M is larger than a Q4_1 of it would be read from Llama 3.1 70B.
        auto own = [&](const Bpw& b) { return b.source == "measured on " + r->id || b.source.rfind("the published file of ", 0) == 0; };
        if (own(ba) || own(bb)) continue;  // the property is about estimates; published files are what they are
        INFO(r->id << ": " << a->id << " " << ba.value << " (" << ba.source << ") against " << b->id << " " << bb.value
                   << " (" << bb.source << ")");
        CHECK(ba.value <= bb.value + 1e-9);
      }
  }
  CHECK(models > 20);
  ModelSpec v3 = model_from_record(*g.find("deepseek-v3"));
  Bpw s = choose_bpw(*g.find("gguf-iq1-s"), v3, &g);
  CHECK(s.value < 1.8);  // 1.5625 plus a 671B's share of promoted tensors, not an 8B's 0.44
  CHECK(s.source.find("carried to llama-3.1-70b") != std::string::npos);
}

// Blind audit 29 #15: Qwen3.6-35B-A3B's AWQ release is 25.46 GB, not 35B x 4.16 bits: its quantizers keep the vision
// tower, the linear-attention projections, the shared experts and the routers in 16-bit (model kept_16bit, solved from
// that file). The published file sizes the release; every other non-GGUF quantized format of the model carries the same
// 16-bit share; a GGUF is sized by its own measured bits.
TEST_CASE("memory: parameters a model's quantized checkpoints keep in 16-bit are sized at 16 bits", "[rules][memory]") {
  const Graph& g = embedded_graph();
  ModelSpec m = model_from_record(*g.find("qwen3.6-35b-a3b"));
  CHECK(m.kept_16bit_params_b == Approx(3.9));
  const Record& awq = *g.find("awq");
  Bpw published = choose_bpw(awq, m, &g);
  CHECK(weights_gb(awq, m, published) == Approx(25.46));
  const Record& gptq = *g.find("gptq");
  Bpw derived = choose_bpw(gptq, m, &g);
  double w = weights_gb(gptq, m, derived);
  CHECK(w > 24.0);  // a GPTQ made the same way does not fit a 24 GB card either
  CHECK(w == Approx((m.params_b - m.embedding_params_b() - 3.9) * derived.value / 8 + (m.embedding_params_b() + 3.9) * 2));
  ModelSpec plain = model_from_record(*g.find("qwen3-30b-a3b"));
  CHECK(plain.kept_16bit_params_b == 0);
}

// An engine library tag's size as its page shows it: one decimal under 10 GB, whole GB from 10, rounded or cut.
TEST_CASE("memory: a library tag's shown size bounds the estimate from the type's bits", "[rules][memory]") {
  CHECK(library_tag_gb(7.5, 4.9) == Approx(7.45));  // gemma3n:e4b keeps its per-layer embeddings wide
  CHECK(library_tag_gb(7.5, 7.52) == Approx(7.52));  // inside what the figure allows: the finer estimate
  CHECK(library_tag_gb(20, 19.7) == Approx(19.7));
  CHECK(library_tag_gb(20, 23) == Approx(21));
  CHECK(library_tag_gb(20, 18) == Approx(19.5));
  CHECK(library_tag_gb(0.5, 0.37) == Approx(0.45));
  CHECK(library_tag_gb(0, 4.9) == Approx(4.9));  // no size recorded
}

// An engine whose cache holds the whole context on sliding-window layers too (ExLlamaV2): the window saves nothing.
TEST_CASE("memory: a sliding window saves nothing where the engine's cache is full-context", "[rules][memory]") {
  ModelSpec sw = model_from_record(*mini().find("m-sw"));
  CHECK(kv_cache_gb(sw, 1000, 1, 2) == Approx((5 * 1000 + 5 * 100) * 2.0 * 2 * 100 * 2 / 1e9));
  CHECK(kv_cache_gb(sw, 1000, 1, 2, false) == Approx(10 * 1000 * 2.0 * 2 * 100 * 2 / 1e9));
}
