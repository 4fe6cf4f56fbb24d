// Printed commands are contracts (DESIGN §6a, issue 39): over every consumer and
// unified-memory part x 16 models x offload and KV-cache options, every command
// recommend prints uses only flags of its engine's recorded release (engine
// `cli`), and carries what its plan assumed: the context, the KV-cache type, the
// layers on the GPU as llama.cpp counts them, the split across GPUs, the memory
// fraction and the sequences; file names are ones publishers use.
#include "qsel/rules/launch.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "qsel/core/units.h"
#include "qsel/graph/embedded_graph.h"
#include "qsel/graph/engine_cli.h"
#include "qsel/rules/rules.h"

using namespace qsel;
using nlohmann::json;

// A named namespace: the unity build puts this file beside ranking_properties_test (kLaunchGridModels, query ...).
namespace launch_grid {

const std::vector<std::string> kLaunchGridModels = {
    "llama-3.1-8b", "llama-3.1-70b", "qwen3-8b", "qwen3-14b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b", "gpt-oss-20b",
    "gpt-oss-120b", "gemma-3-27b", "gemma-3-12b", "mistral-small-3.2-24b", "phi-4", "glm-4.5-air", "llama-3.2-3b", "mixtral-8x7b"};

bool in_grid(const Record& a) {
  return a.str("market") == "consumer" || a.str("memory_type").find("unified") != std::string::npos;
}

std::string filled(const json& launch, const char* key, const std::string& placeholder, const std::string& value) {
  std::string t = launch.value(key, std::string());
  if (auto at = t.find(placeholder); at != std::string::npos) t.replace(at, placeholder.size(), value);
  return t;
}

bool has(const std::string& command, const std::string& part) {
  return !part.empty() && (" " + command + " ").find(" " + part + " ") != std::string::npos;
}

struct Grid {
  std::mutex mutex;
  long queries = 0, commands = 0, flags = 0;
  std::vector<std::string> mismatches;
  void fail(const std::string& s) {
    std::lock_guard<std::mutex> lock(mutex);
    mismatches.push_back(s);
  }
};

// Every command of a candidate against its engine's table and its own plan.
void check(const Graph& g, const Query& q, const Candidate& c, Grid& grid, const std::string& where) {
  const Memory& m = *c.memory;
  const json launch = c.engine->data.value("launch", json());
  std::string who = fmt::format("{} {} on {}", where, c.format->id, c.engine->id);
  long counted = 0;
  for (const auto& cmd : m.commands) {
    bool known = false;
    auto missing = unknown_flags(*c.engine, cmd.text, &known);
    counted += static_cast<long>(command_flags(cmd.text).size());
    if (!known) grid.fail(fmt::format("{}: `{}` runs no recorded program", who, cmd.text));
    for (const auto& f : missing) grid.fail(fmt::format("{}: `{}` uses {}, not in the recorded release", who, cmd.text, f));
    for (const auto& v : unknown_env(*c.engine, cmd.text))
      grid.fail(fmt::format("{}: `{}` sets {}, which the recorded release does not read", who, cmd.text, v));
    if (cmd.text.find("MODEL-") != std::string::npos || cmd.text.find("LLAMA_FTYPE") != std::string::npos ||
        cmd.text.find("--target-bpw") != std::string::npos)
      grid.fail(fmt::format("{}: `{}` names no file anyone publishes", who, cmd.text));
  }
  if (!launch.is_object()) return;
  // The plan's settings: the run line, and the environment of the server it runs against (launch.server).
  std::string run;
  bool has_run = false;
  for (const auto& cmd : m.commands) {
    if (cmd.role == "run") has_run = true;
    if (cmd.role == "run" || cmd.role == "serve") run += (run.empty() ? "" : " ") + cmd.text;
  }
  if (!has_run) {
    grid.fail(fmt::format("{}: a plan that fits has no run command", who));
    return;
  }
  if (launch.contains("context") && !has(run, filled(launch, "context", "{context}", std::to_string(q.context))))
    grid.fail(fmt::format("{}: `{}` lacks the context {} the plan sized", who, run, q.context));
  if (const Record* kv = g.find(m.kv_dtype); kv && kv->str("regime") == "kv-cache") {
    auto flags = kv_cache_flags(*c.engine, kv, q.target);
    if (!flags) grid.fail(fmt::format("{}: sized for {} which its command line cannot select", who, kv->id));
    else if (!flags->empty() && !has(run, *flags)) grid.fail(fmt::format("{}: `{}` lacks `{}` for the {} cache the plan sized", who, run, *flags, kv->id));
  } else if (m.kv_dtype == "fp8" || m.kv_dtype == "int8" || m.kv_dtype == "q8_0") {
    grid.fail(fmt::format("{}: sized for an 8-bit cache ({}) no KV format record names", who, m.kv_dtype));
  } else {
    for (const auto& e : launch.value("kv_cache", json::array()))
      if (has(run, e.value("flags", ""))) grid.fail(fmt::format("{}: `{}` selects an 8-bit cache the plan did not size", who, run));
  }
  int layers = std::max(1, q.model->layers);
  if (m.placement && !launch.contains("gpu_layers")) {
    // An engine with no layer setting fits the layers itself: the plan says so, and prints no count.
    bool said = false;
    for (const auto& n : m.notes) said = said || n.find("sets no layer count") != std::string::npos;
    if (!said) grid.fail(fmt::format("{}: `{}` offloads with no layer count and does not say the engine fits them", who, run));
  } else if (m.placement) {
    const Placement& p = *m.placement;
    if (p.kind == "experts") {
      if (!has(run, filled(launch, "cpu_moe", "{n}", std::to_string(p.cpu_moe_layers))) ||
          !has(run, filled(launch, "gpu_layers", "{n}", std::to_string(layers + 1))))
        grid.fail(fmt::format("{}: `{}` lacks --n-cpu-moe {} with every layer on the GPU", who, run, p.cpu_moe_layers));
    } else if (!has(run, filled(launch, "gpu_layers", "{n}", std::to_string(p.gpu_layers)))) {
      grid.fail(fmt::format("{}: `{}` lacks -ngl {} the plan placed", who, run, p.gpu_layers));
    }
    // The plan's VRAM holds the output layer once -ngl is at least 1 (llama.cpp's count).
    if (p.kind == "layers" && p.gpu_layers >= 1 && p.vram_gb <= 0) grid.fail(fmt::format("{}: -ngl {} with no VRAM", who, p.gpu_layers));
  } else if (launch.contains("gpu_layers") && !has(run, filled(launch, "gpu_layers", "{n}", std::to_string(layers + 1)))) {
    grid.fail(fmt::format("{}: `{}` does not put all {} layers and the output layer on the GPU", who, run, layers));
  }
  if (m.layout.layer_split && m.parts > 1 && launch.contains("tensor_split")) {
    // A partial offload gives each GPU the run of layers that fits it (placement.h: split), one count per GPU adding up
    // to the layers -ngl puts on the GPU; a full fit splits evenly.
    std::vector<std::string> split(static_cast<std::size_t>(std::max(m.layout.layer_gpus, m.parts)), "1");
    if (m.placement && !m.placement->split.empty()) {
      const auto& counts = m.placement->split;
      int sum = 0;
      for (int n : counts) sum += n;
      int on_gpu = m.placement->kind == "experts" ? layers + 1 : m.placement->gpu_layers;
      if (static_cast<int>(counts.size()) != m.parts || sum != on_gpu)
        grid.fail(fmt::format("{}: split {} is not one count per GPU adding up to the {} layers on the GPU", who,
                              fmt::join(counts, ","), on_gpu));
      split.clear();
      for (int n : counts) split.push_back(std::to_string(n));
    }
    if (!has(run, filled(launch, "tensor_split", "{split}", fmt::format("{}", fmt::join(split, ",")))))
      grid.fail(fmt::format("{}: `{}` does not split the layers over its {} GPUs", who, run, m.parts));
  }
  if (!m.layout.flags.empty() && !has(run, m.layout.flags))
    grid.fail(fmt::format("{}: `{}` lacks the layout flags `{}` the plan assumed", who, run, m.layout.flags));
  if (launch.contains("memory_fraction") && m.budget.kind != "whole-device" && m.budget.fraction > 0 && m.budget.fraction < 1 &&
      !has(run, filled(launch, "memory_fraction", "{fraction}", fmt::format("{:g}", std::round(m.budget.fraction * 1000) / 1000))))
    grid.fail(fmt::format("{}: `{}` lacks the memory fraction {:g} its budget assumed", who, run, m.budget.fraction));
  if (!m.setting.empty() && run.find(m.setting.substr(m.setting.rfind(' ') + 1)) == std::string::npos)
    grid.fail(fmt::format("{}: `{}` lacks {} the fit needs", who, run, m.setting));
  std::lock_guard<std::mutex> lock(grid.mutex);
  grid.commands += static_cast<long>(m.commands.size());
  grid.flags += counted;
}

Query grid_query(const Graph& g, const Record& acc, const std::string& model) {
  Query q;
  q.accelerator = &acc;
  q.target = g.find(acc.str("target"));
  q.model = model_from_record(*g.find(model));
  if (q.model->max_context > 0) q.context = std::min<long>(q.context, q.model->max_context);
  q.suggest = false;  // the grid checks printed commands; a nothing-fits lead prints none (nothing_fits_test)
  return q;
}

}  // namespace launch_grid

using launch_grid::Grid;

TEST_CASE("launch: a GGUF type's file name is the publishers' spelling, never llama.cpp's enum", "[rules][launch]") {
  const Graph& g = embedded_graph();
  CHECK(gguf_quant_name(*g.find("gguf-q4-k-m")) == "Q4_K_M");
  CHECK(gguf_quant_name(*g.find("gguf-mxfp4-moe")) == "MXFP4_MOE");
}

TEST_CASE("launch: a file name is one shell word, quoted when it holds more than letters, digits and ._/+:@,=-", "[rules][launch]") {
  CHECK(shell_word("Q2_K/Qwen3-32B-Q2_K-00001-of-00003.gguf") == "Q2_K/Qwen3-32B-Q2_K-00001-of-00003.gguf");
  CHECK(shell_word("My Model-Q4_K_M.gguf") == "'My Model-Q4_K_M.gguf'");
  CHECK(shell_word("it's $(rm -rf ~)`x`;.gguf") == "'it'\\''s $(rm -rf ~)`x`;.gguf'");
  CHECK(shell_word("\xd0\x9c-Q8_0.gguf") == "'\xd0\x9c-Q8_0.gguf'");
  CHECK(shell_word("") == "''");
}

TEST_CASE("launch: a 16-bit cache needs no flag, an 8-bit one the engine's, and one it cannot select is nullopt", "[rules][launch]") {
  const Graph& g = embedded_graph();
  const Record& llama = *g.find("llama-cpp");
  CHECK(kv_cache_flags(llama, nullptr) == std::string());
  CHECK(kv_cache_flags(llama, g.find("gguf-kv-q8-0")) == std::string("-ctk q8_0 -ctv q8_0"));
  CHECK_FALSE(kv_cache_flags(llama, g.find("fp8-kv")).has_value());
  CHECK(kv_cache_flags(*g.find("vllm"), g.find("fp8-kv")) == std::string("--kv-cache-dtype fp8"));
  // An entry for some targets only: vLLM pins FlashInfer for an FP8 cache below sm89; TensorRT-LLM has none on Ampere.
  CHECK(kv_cache_flags(*g.find("vllm"), g.find("fp8-kv"), g.find("sm86")) == std::string("--kv-cache-dtype fp8 --attention-backend FLASHINFER"));
  CHECK(kv_cache_flags(*g.find("vllm"), g.find("fp8-kv"), g.find("sm90")) == std::string("--kv-cache-dtype fp8"));
  CHECK_FALSE(kv_cache_flags(*g.find("trtllm"), g.find("fp8-kv"), g.find("sm86")).has_value());
  CHECK(kv_cache_flags(*g.find("trtllm"), g.find("fp8-kv"), g.find("sm90")).has_value());
}

TEST_CASE("launch grid: every printed command uses recorded flags and carries its plan (0 mismatches)", "[rules][launch][grid]") {
  const Graph& g = embedded_graph();
  Fitted f;
  {
    Deliberation warm = deliberate(g, launch_grid::grid_query(g, *g.find("rtx-4090"), "llama-3.1-8b"));
    f.calibration = warm.calibration;
    f.quality_model = warm.quality_model;
  }
  std::vector<const Record*> parts;
  for (const Record* a : g.of_kind(Kind::Accelerator))
    if (launch_grid::in_grid(*a) && g.find(a->str("target"))) parts.push_back(a);
  // Offload and KV options beside the default: little RAM, much RAM over two GPUs, and each 8-bit cache.
  struct Option {
    const char* name;
    double ram_gib;
    int count;
    const char* kv;
  };
  const std::vector<Option> options = {{"default", 0, 1, "auto"}, {"--ram 128 --count 2", 128, 2, "auto"},
                                       {"--ram 16 --kv-cache int8", 16, 1, "int8"}, {"--kv-cache fp8", 0, 1, "fp8"}};
  // Engines that answer only when named (Ollama) are absent from an unrestricted answer: each is asked by name as well.
  std::vector<std::string> named_only;
  for (const Record* e : g.of_kind(Kind::Engine))
    if (e->data.value("only_when_named", false)) named_only.push_back(e->id);
  long named_commands = 0;
  std::vector<std::pair<const Record*, std::string>> cells;
  for (const Record* a : parts)
    for (const auto& m : launch_grid::kLaunchGridModels) cells.push_back({a, m});
  Grid grid;
  const bool full = std::getenv("QSEL_FULL_GRID") != nullptr;
  unsigned threads = std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t k = t; k < cells.size(); k += threads)
        for (std::size_t oi = 0; oi < options.size(); ++oi) {
          // Every part x model once, its option rotating (every part meets every option over its models);
          // QSEL_FULL_GRID=1 runs the whole product (4x: about 4 CPU-minutes).
          if (!full && oi != k % options.size()) continue;
          const Option& o = options[oi];
          Query q = launch_grid::grid_query(g, *cells[k].first, cells[k].second);
          if (o.ram_gib > 0) q.host.ram_gb = o.ram_gib * kGiBInGB;
          q.count = o.count;
          q.kv_cache = o.kv;
          Deliberation d = deliberate(g, q, &f);
          std::string where = fmt::format("{} x {} ({})", cells[k].first->id, cells[k].second, o.name);
          for (const auto& c : d.candidates) {
            if (!c.memory || !c.engine || !c.memory->fits) continue;
            if (c.engine->data.value("only_when_named", false)) grid.fail(fmt::format("{}: {} answers unnamed", where, c.engine->id));
            launch_grid::check(g, q, c, grid, where);
          }
          // Asked by name on every cell: the engines that answer only when named (Ollama).
          for (const auto& e : named_only) {
            Query qn = q;
            qn.engines = {e};
            Deliberation dn = deliberate(g, qn, &f);
            for (const auto& c : dn.candidates) {
              if (!c.memory || !c.engine || !c.memory->fits) continue;
              launch_grid::check(g, qn, c, grid, where + " --engine " + e);
              std::lock_guard<std::mutex> lock(grid.mutex);
              named_commands += static_cast<long>(c.memory->commands.size());
            }
          }
          std::lock_guard<std::mutex> lock(grid.mutex);
          ++grid.queries;
        }
    });
  for (auto& th : pool) th.join();
  std::cout << fmt::format("launch grid: {} parts x {} models, {} options {} = {} queries; {} commands ({} of engines asked by name: {}), {} flags checked; {} mismatches\n",
                           parts.size(), launch_grid::kLaunchGridModels.size(), options.size(), full ? "each" : "in turn", grid.queries, grid.commands,
                           named_commands, fmt::join(named_only, ", "), grid.flags, grid.mismatches.size());
  for (std::size_t i = 0; i < grid.mismatches.size() && i < 40; ++i) UNSCOPED_INFO(grid.mismatches[i]);
  CHECK(grid.mismatches.empty());
  CHECK(parts.size() >= 60);
  CHECK(grid.commands > (full ? 10000 : 2500));
  CHECK(named_commands > (named_only.empty() ? -1 : 500));
}

TEST_CASE("launch: --engine ollama on a consumer GPU prints the server's environment, the import and the run", "[rules][launch]") {
  const Graph& g = embedded_graph();
  Query q = launch_grid::grid_query(g, *g.find("rtx-4090"), "qwen3-32b");
  q.engines = {"ollama"};
  Deliberation d = deliberate(g, q);
  REQUIRE_FALSE(d.candidates.empty());
  const Candidate& c = d.candidates.front();
  REQUIRE(c.engine->id == "ollama");
  REQUIRE(c.memory);
  CHECK(c.format->id == "gguf-q5-k-m");
  CHECK(c.memory->kv_dtype == "gguf-kv-q8-0");
  REQUIRE(c.memory->commands.size() == 3);
  CHECK(c.memory->commands[0].role == "serve");
  CHECK(c.memory->commands[0].text == "OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_KV_CACHE_TYPE=q8_0 OLLAMA_FLASH_ATTENTION=1 ollama serve");
  CHECK(c.memory->commands[1].role == "import");
  CHECK(c.memory->commands[1].text == "ollama create qwen3-32b-q5_k_m -f Modelfile");
  CHECK(c.memory->commands[2].role == "run");
  CHECK(c.memory->commands[2].text == "ollama run qwen3-32b-q5_k_m");
  // No GGUF of qwen3-32b is published in the records: the answer says so and how Ollama takes a local file.
  std::string notes = fmt::format("{}", fmt::join(c.memory->notes, "\n"));
  CHECK(notes.find("no published Q5_K_M file of Qwen3-32B is recorded") != std::string::npos);
  CHECK(notes.find("the Modelfile holds one line, FROM ./Qwen3-32B-Q5_K_M.gguf") != std::string::npos);
}

TEST_CASE("launch: Ollama answers only when named; a published GGUF runs from the Hub; an FP8 cache is not offered", "[rules][launch]") {
  const Graph& g = embedded_graph();
  Query all = launch_grid::grid_query(g, *g.find("rtx-4090"), "qwen3-32b");
  for (const auto& c : deliberate(g, all).candidates) CHECK(c.engine->id != "ollama");
  Query every = all;
  every.every_engine = true;  // explain's view
  bool seen = false;
  for (const auto& c : deliberate(g, every).candidates) seen = seen || c.engine->id == "ollama";
  CHECK(seen);
  // A GGUF release that records no file is named by its repo and quant (ollama run hf.co/REPO:QUANT).
  Query gemma = launch_grid::grid_query(g, *g.find("rtx-4090"), "gemma-3-270m");
  gemma.engines = {"ollama"};
  gemma.formats = {"gguf-q4-0"};
  Deliberation dg = deliberate(g, gemma);
  REQUIRE_FALSE(dg.candidates.empty());
  const auto& cmds = dg.candidates.front().memory->commands;
  REQUIRE_FALSE(cmds.empty());
  CHECK(cmds.back().text == "ollama run hf.co/ggml-org/gemma-3-270m-it-qat-GGUF:Q4_0");
  // Where the engine's own library holds the type (Ollama's gemma3:12b-it-qat), its tag is what its users run.
  Query tagged = launch_grid::grid_query(g, *g.find("rtx-4090"), "gemma-3-12b");
  tagged.engines = {"ollama"};
  tagged.formats = {"gguf-q4-0"};
  Deliberation dt = deliberate(g, tagged);
  REQUIRE_FALSE(dt.candidates.empty());
  REQUIRE_FALSE(dt.candidates.front().memory->commands.empty());
  CHECK(dt.candidates.front().memory->commands.back().text == "ollama run gemma3:12b-it-qat");
  // Two GPUs, a layer split: the scheduler is told to spread the model over both.
  Query two = launch_grid::grid_query(g, *g.find("rtx-3090"), "llama-3.1-70b");
  two.count = 2;
  two.engines = {"ollama"};
  Deliberation d2 = deliberate(g, two);
  REQUIRE_FALSE(d2.candidates.empty());
  CHECK(d2.candidates.front().memory->commands.front().text == "OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_SCHED_SPREAD=1 ollama serve");
  // An FP8 cache has no Ollama (llama.cpp) cache type: no plan sized for one is offered.
  Query fp8 = all;
  fp8.engines = {"ollama"};
  fp8.kv_cache = "fp8";
  for (const auto& c : deliberate(g, fp8).candidates)
    if (c.memory && c.memory->fits) CHECK(c.memory->kv_dtype != "fp8-kv");
}

// Found by a blind audit (audit 3): commands that did not run as printed.
namespace launch_runs {
const Candidate* first_on(const Deliberation& d, const std::string& format, const std::string& engine) {
  for (const auto& c : d.candidates)
    if (c.format->id == format && c.engine && c.engine->id == engine && c.memory && !c.memory->commands.empty()) return &c;
  return nullptr;
}
std::string run_of(const Candidate& c) {
  for (const auto& k : c.memory->commands)
    if (k.role == "run") return k.text;
  return "";
}
std::string all_notes(const Candidate& c) { return fmt::format("{}", fmt::join(c.memory->notes, "\n")); }
// --gpu GPU --count N --model MODEL --engine ENGINE, as the grid builds its queries, deliberated.
Deliberation ask_engine(const Graph& g, const std::string& gpu, const std::string& model, int count, const std::string& engine,
                        const std::string& kv_cache = "auto") {
  Query q = launch_grid::grid_query(g, *g.find(gpu), model);
  q.count = count;
  q.engines = {engine};
  q.kv_cache = kv_cache;
  return deliberate(g, q);
}
}  // namespace launch_runs

TEST_CASE("launch: a 16-bit plan on llama.cpp runs a BF16 GGUF its converter makes, never a repo id llama-server cannot open", "[rules][launch]") {
  const Graph& g = embedded_graph();
  Query q = launch_grid::grid_query(g, *g.find("rtx-4090"), "qwen3-8b");
  q.engines = {"llama-cpp"};
  Deliberation d = deliberate(g, q);
  const Candidate* c = launch_runs::first_on(d, "bf16", "llama-cpp");
  REQUIRE(c);
  CHECK(launch_runs::run_of(*c).rfind("llama-server -m Qwen3-8B-BF16.gguf ", 0) == 0);
  bool made = false;
  for (const auto& k : c->memory->commands)
    made = made || (k.role == "quantize" && k.text == "python convert_hf_to_gguf.py ./Qwen3-8B --outtype bf16 --outfile Qwen3-8B-BF16.gguf");
  CHECK(made);
}

TEST_CASE("launch: ExLlama's chat.py gets the family's prompt mode (it exits without -mode), raw with a note otherwise", "[rules][launch]") {
  const Graph& g = embedded_graph();
  Deliberation d = launch_runs::ask_engine(g, "rtx-3090", "qwen2.5-72b", 2, "exllamav3");
  REQUIRE_FALSE(d.candidates.empty());
  const Candidate& c = d.candidates.front();
  REQUIRE(c.memory);
  CHECK(launch_runs::run_of(c).find(" -mode chatml ") != std::string::npos);
}

TEST_CASE("launch: a checkpoint that runs its own code gets --trust-remote-code; a file a flag names is said", "[rules][launch]") {
  const Graph& g = embedded_graph();
  Deliberation d = launch_runs::ask_engine(g, "b300", "kimi-k2", 8, "sglang");
  REQUIRE_FALSE(d.candidates.empty());
  REQUIRE(d.candidates.front().memory);
  CHECK(launch_runs::run_of(d.candidates.front()).find(" --trust-remote-code") != std::string::npos);
  Deliberation e = launch_runs::ask_engine(g, "h100-sxm", "llama-3.1-8b", 1, "trtllm", "fp8-kv");
  REQUIRE_FALSE(e.candidates.empty());
  const Candidate& c = e.candidates.front();
  REQUIRE(c.memory);
  CHECK(launch_runs::run_of(c).find("--extra_llm_api_options kv_cache_fp8.yaml") != std::string::npos);
  CHECK(launch_runs::all_notes(c).find("kv_cache_fp8.yaml holds: kv_cache_config: {dtype: fp8}") != std::string::npos);
  // A model with no such code: no flag.
  Deliberation f = launch_runs::ask_engine(g, "h100-sxm", "llama-3.1-8b", 1, "vllm");
  REQUIRE_FALSE(f.candidates.empty());
  REQUIRE(f.candidates.front().memory);
  CHECK(launch_runs::run_of(f.candidates.front()).find("trust-remote-code") == std::string::npos);
}

// A kernel the engine takes only when named (kernel_selection launch_flags): vllm-gaudi's GPTQ and AWQ methods answer
// only to --quantization gptq_hpu / awq_hpu (vllm_gaudi/platform.py lists those, not gptq/awq); the printed command
// says so, and its other words are the plugin's recorded flags. A kernel with none adds nothing.
TEST_CASE("launch: a kernel the engine takes only when named gets its flag in the command (Gaudi GPTQ/AWQ)", "[rules][launch]") {
  const Graph& g = embedded_graph();
  Deliberation d = launch_runs::ask_engine(g, "gaudi3", "llama-3.3-70b", 1, "vllm-gaudi");
  int seen = 0;
  for (const Candidate& c : d.candidates) {
    if (!c.memory || !c.memory->fits || !c.kernel) continue;
    std::string run = launch_runs::run_of(c);
    INFO(c.format->id << ": " << run);
    if (c.format->id == "gptq") {
      CHECK(run.find(" --quantization gptq_hpu") != std::string::npos);
      ++seen;
    }
    if (c.format->id == "awq") {
      CHECK(run.find(" --quantization awq_hpu") != std::string::npos);
      ++seen;
    }
    if (c.format->id == "fp8-e4m3") CHECK(run.find("--quantization") == std::string::npos);
    CHECK(unknown_flags(*c.engine, run).empty());
  }
  CHECK(seen == 2);
}

TEST_CASE("launch: --kv-cache fp8 --engine sglang is offered and runs with its own --kv-cache-dtype flag", "[rules][launch]") {
  const Graph& g = embedded_graph();
  CHECK(kv_cache_flags(*g.find("sglang"), g.find("fp8-kv")) == std::string("--kv-cache-dtype fp8_e4m3"));
  Deliberation d = launch_runs::ask_engine(g, "h100-sxm", "llama-3.1-8b", 1, "sglang", "fp8");
  REQUIRE_FALSE(d.candidates.empty());
  const Candidate& c = d.candidates.front();
  REQUIRE(c.memory);
  CHECK(c.memory->kv_dtype == "fp8-kv");
  CHECK(launch_runs::run_of(c).find(" --kv-cache-dtype fp8_e4m3") != std::string::npos);
}

// TPU (audits 5 and 6: no command printed): the TPU plugin runs inside `vllm serve`, and every printed word is one of its
// recorded flags, with the context the plan sized.
TEST_CASE("launch: a TPU answer prints vLLM's serve command with the plan's context", "[rules][launch]") {
  const Graph& g = embedded_graph();
  Deliberation d = launch_runs::ask_engine(g, "tpu-v6e", "llama-3.1-8b", 1, "vllm-tpu");
  int printed = 0;
  for (const Candidate& c : d.candidates) {
    if (!c.memory || !c.memory->fits) continue;
    std::string run = launch_runs::run_of(c);
    INFO(c.format->id << ": " << run);
    CHECK(run.rfind("vllm serve ", 0) == 0);
    CHECK(run.find(" --max-model-len 8192") != std::string::npos);
    CHECK(unknown_flags(*c.engine, run).empty());
    ++printed;
  }
  CHECK(printed >= 3);
}

TEST_CASE("launch: a plan on more GPUs than one host drives starts on each host, as the engine launches across hosts",
          "[rules][launch]") {
  const Graph& g = embedded_graph();
  auto notes_say = [](const Candidate& c, const std::string& text) {
    return std::any_of(c.memory->notes.begin(), c.memory->notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  // SGLang over two 8-GPU nodes: the run line carries its node flags (host 0's), the note the others.
  Query q = launch_grid::grid_query(g, *g.find("h100-sxm"), "deepseek-r1");
  q.count = 16, q.nodes = 2, q.engines = {"sglang"};
  Deliberation d = deliberate(g, q);
  REQUIRE(!d.candidates.empty());
  const Candidate& top = d.candidates[0];
  std::string run = launch_runs::run_of(top);
  INFO(run);
  CHECK(run.find(" --nnodes 2 --node-rank 0 --dist-init-addr HEAD_IP:20000") != std::string::npos);
  CHECK(unknown_flags(*top.engine, run).empty());
  CHECK(notes_say(top, "the plan spans 2 hosts of 8 GPUs: run the same line on every host with --node-rank 0 to 1"));
  // A GB200 NVL72 tray drives 4 GPUs: eight are two hosts, one MPI world for TensorRT-LLM.
  Deliberation trt = launch_runs::ask_engine(g, "gb200-nvl72", "qwen3-coder-480b-a35b", 8, "trtllm");
  REQUIRE(!trt.candidates.empty());
  CHECK(notes_say(trt.candidates[0], "the plan spans 2 hosts of 4 GPUs: TensorRT-LLM starts a model that spans hosts as one MPI world"));
  // Four GB200 GPUs are one host: no note.
  Deliberation one = launch_runs::ask_engine(g, "gb200-nvl72", "llama-3.1-70b", 4, "trtllm");
  REQUIRE(!one.candidates.empty());
  CHECK_FALSE(notes_say(one.candidates[0], "the plan spans"));
}

// Audit 16 #44: on Instinct MI300/MI350 the engine's guidance turns AMD's kernels on with an environment variable
// (launch.environment); it goes before the program, and only on the targets it names (AITER fails to start on Radeon).
TEST_CASE("launch: an engine's environment for a target goes before the program there, and nowhere else", "[rules][launch]") {
  const Graph& g = embedded_graph();
  for (const std::string gpu : {"mi300x", "mi355x"}) {
    Deliberation d = launch_runs::ask_engine(g, gpu, "llama-3.1-8b", 1, "vllm");
    int printed = 0;
    for (const Candidate& c : d.candidates) {
      if (!c.memory || c.memory->commands.empty()) continue;
      INFO(gpu << " " << c.format->id << ": " << launch_runs::run_of(c));
      CHECK(launch_runs::run_of(c).rfind("VLLM_ROCM_USE_AITER=1 vllm serve ", 0) == 0);
      CHECK(unknown_env(*c.engine, launch_runs::run_of(c)).empty());
      ++printed;
    }
    CHECK(printed > 0);
  }
  for (const std::string gpu : {"rx-7900-xtx", "h100-sxm"}) {
    Deliberation d = launch_runs::ask_engine(g, gpu, "llama-3.1-8b", 1, "vllm");
    for (const Candidate& c : d.candidates)
      if (c.memory && !c.memory->commands.empty()) CHECK(launch_runs::run_of(c).find("VLLM_ROCM_USE_AITER") == std::string::npos);
  }
}

TEST_CASE("launch: a GGUF over the Hub's file limit says how the engine takes its parts: beside the first, merged, or unrecorded",
          "[rules][launch]") {
  const Graph& g = embedded_graph();
  auto parts_note = [](const Candidate& c) {
    for (const auto& n : c.memory->notes)
      if (n.find("comes in parts") != std::string::npos) return n;
    return std::string();
  };
  Deliberation sg = launch_runs::ask_engine(g, "h100-sxm", "llama-3.1-70b", 2, "sglang");
  bool seen = false;
  for (const Candidate& c : sg.candidates)
    if (c.memory && c.format->id == "gguf-q8-0") {
      seen = true;
      CHECK_THAT(parts_note(c), Catch::Contains("sglang loads one file, so merge them first (llama-gguf-split --merge"));
    }
  CHECK(seen);
  Deliberation lc = launch_runs::ask_engine(g, "h100-sxm", "llama-3.1-70b", 2, "llama-cpp");
  for (const Candidate& c : lc.candidates)
    if (c.memory && c.format->id == "gguf-q8-0" && !parts_note(c).empty())
      CHECK_THAT(parts_note(c), Catch::Contains("llama-cpp loads the others from beside it"));
}

TEST_CASE("launch: MLC runs its own converted builds: a published mlc-ai build from HF://, anything else a folder to convert",
          "[rules][launch]") {
  // Blind audits 38 #8-10 (no command) and 39 #6, #7, #9 (the publisher's 16-bit repository, which MLC cannot open).
  const Graph& g = embedded_graph();
  auto run_of = [&](const std::string& gpu, const std::string& model, const std::string& format) {
    Query q = launch_grid::grid_query(g, *g.find(gpu), model);
    q.engines = {"mlc-llm"};
    q.formats = {format};
    Deliberation d = deliberate(g, q);
    REQUIRE_FALSE(d.candidates.empty());
    const Candidate& c = d.candidates.front();
    REQUIRE(c.memory);
    REQUIRE_FALSE(c.memory->commands.empty());
    return std::pair(c.memory->commands.back().text, fmt::format("{}", fmt::join(c.memory->notes, "\n")));
  };
  auto [built, built_notes] = run_of("rtx-3060-12gb", "llama-3.1-8b", "mlc-llm-q4f16");
  CHECK(built == "mlc_llm serve HF://mlc-ai/Llama-3.1-8B-Instruct-q4f16_1-MLC --overrides 'context_window_size=8192'");
  auto [plain, plain_notes] = run_of("rx-7900-xtx", "llama-3.1-8b", "bf16");
  CHECK(plain == "mlc_llm serve ./Llama-3.1-8B-Instruct-bf16 --overrides 'context_window_size=8192'");
  CHECK(plain.find("meta-llama") == std::string::npos);
  CHECK(plain_notes.find("is a folder you convert yourself (mlc_llm convert_weight and mlc_llm gen_config") != std::string::npos);
}
