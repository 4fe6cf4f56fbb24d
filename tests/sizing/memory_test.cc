#include <catch2/catch.hpp>

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
