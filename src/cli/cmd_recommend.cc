// qsel recommend: the seven rules over one GPU and one model, ranked and cited.
#include <cmath>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "browse_args.h"
#include "qsel/core/json_number.h"
#include "number_flags.h"
#include "qsel/detect/resolve_gpu.h"
#include "commands.h"
#include "qsel/report/render.h"
#include "qsel/cli/context.h"
#include "qsel/report/advice_report.h"
#include "qsel/report/advice_json.h"
#include "qsel/artifact/checkpoint.h"
#include "qsel/model/resolve.h"
#include "qsel/core/text.h"
#include "qsel/rules/choice_chart.h"
#include "qsel/rules/rules.h"

namespace qsel {
namespace {

struct RecommendArgs {
  std::string gpu, model_size, model, model_config, kv_cache = "auto", spec_decode = "none", context = "8192";
  std::string objective = "quality";
  std::string target;
  bool context_given = false;
  // Every number as typed (number_flags.h): "" or "-0" is an error, never the default.
  TypedNumber count, batch, top, vram, bandwidth, memory_fraction, headroom, ram, ram_bandwidth, min_tok_s, concurrency, nodes;
  TypedNumber vram_free;  // --vram-free: GiB free per GPU before the model loads
  std::vector<std::string> engines, backends, flags;
  bool portable = false, prefix_caching = false, all = false;
};

// "8192", "128k", "1m" → tokens, at most 2^30; anything else is a usage error.
long parse_context(const std::string& text) {
  constexpr long kMax = 1L << 30;
  auto fail = [&] {
    return UsageError(fmt::format("--context: expected a number of tokens from 1 to {} (8192, 128k, 1m), got {}", kMax, quote_value(text)));
  };
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  std::string rest = text.substr(digits);
  long scale = rest.empty() ? 1 : (rest == "k" || rest == "K") ? 1024 : (rest == "m" || rest == "M") ? 1024 * 1024 : 0;
  if (digits == 0 || digits > 10 || scale == 0) throw fail();
  long value = std::stol(text.substr(0, digits));  // at most 10 digits: fits
  if (value <= 0 || value > kMax / scale) throw fail();
  return value * scale;
}

// "--headroom 2" (GB per part), "2gb", "10%": checked, in range; writes one of the two.
void parse_headroom(const std::string& text, Query& q) {
  auto fail = [&] {
    return UsageError(fmt::format("--headroom: expected GB per GPU from 0 to 1024 (2, 2gb) or a percent from 0 to 50 (10%), got {}",
                                  quote_value(text)));
  };
  if (text.empty() || text.size() > 16 || text.front() == '-' || text.front() == '+') throw fail();
  std::string t = to_lower(text);
  bool percent = t.back() == '%';
  if (percent) t.pop_back();
  else if (t.size() > 2 && t.compare(t.size() - 2, 2, "gb") == 0) t.resize(t.size() - 2);
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    throw fail();
  }
  if (used != t.size() || !std::isfinite(v) || v < 0 || v > (percent ? 50 : 1024)) throw fail();
  if (percent) q.headroom_fraction = v / 100;
  else q.headroom_gb = v;
}


// A --backend value: one of the backends the engines are built for (engine `backends`) or
// the platforms the targets run (cuda, rocm …); a usage error with the nearest name otherwise.
std::string resolve_backend(const Graph& g, const std::string& value) {
  std::vector<std::string> known;
  auto add = [&](const std::string& id) {
    if (!id.empty() && std::find(known.begin(), known.end(), id) == known.end()) known.push_back(id);
  };
  for (const Record* e : g.of_kind(Kind::Engine))
    for (const auto& b : array_field(e->data, "backends")) add(b.value("id", std::string()));
  for (const Record* t : g.of_kind(Kind::Target)) add(t->str("platform"));
  std::string v = to_lower(value);
  if (std::find(known.begin(), known.end(), v) != known.end()) return v;
  auto near = nearest(v, known, 1);
  std::sort(known.begin(), known.end());
  throw UsageError(fmt::format("--backend: unknown backend {}{}; the backends are {}", quote_value(value),
                               near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near.front()), fmt::join(known, ", ")));
}

// --top: the rows shown; checked before any work is done.
std::size_t rows_shown(const RecommendArgs& a) {
  if (!a.top.given) return 8;
  return static_cast<std::size_t>(whole_number_flag(a.top, "--top", 1, 1000000, "a number of rows from 1 to 1000000 (--all shows every row)"));
}

double memory_fraction_of(const RecommendArgs& a) {
  auto fail = [&] { return UsageError(fmt::format("--memory-fraction must be a number in (0, 1], got {}", quote_value(a.memory_fraction.text))); };
  double v = 0;
  try {
    v = number_flag(a.memory_fraction, "--memory-fraction", 0, 1, "");
  } catch (const UsageError&) {
    throw fail();
  }
  if (!(v > 0)) throw fail();
  return v;
}

Query query_of(const Graph& g, const RecommendArgs& a, const HubSettings& hub) {
  int count = a.count.given ? static_cast<int>(whole_number_flag(a.count, "--count", 1, 1024, "a number of GPUs from 1 to 1024")) : 1;
  int batch = a.batch.given ? static_cast<int>(whole_number_flag(a.batch, "--batch", 1, 1 << 20, "a number of sequences from 1 to 1048576")) : 1;
  Query q;
  GpuSpec spec;
  if (a.vram.given) spec.vram_gb = number_flag(a.vram, "--vram", 0.5, 100000, "GiB from 0.5 to 100000");
  if (a.bandwidth.given) spec.bandwidth_gbs = number_flag(a.bandwidth, "--bandwidth", 1, 1000000, "GB/s from 1 to 1000000");
  spec.target = a.target;
  spec.describable = true;
  double ram_gib = a.ram.given ? number_flag(a.ram, "--ram", 1, 65536, "GiB of system RAM from 1 to 65536") : 0;
  double ram_bandwidth = a.ram_bandwidth.given ? number_flag(a.ram_bandwidth, "--ram-bandwidth", 1, 100000, "GB/s from 1 to 100000") : 0;
  double min_tok_s = a.min_tok_s.given ? number_flag(a.min_tok_s, "--min-tok-s", 0, 10000, "tokens per second from 0 to 10000") : 2;
  if (a.memory_fraction.given) q.memory_fraction = memory_fraction_of(a);
  if (a.headroom.given) parse_headroom(a.headroom.text, q);
  GpuArg gpu = resolve_gpu(g, a.gpu, false, spec);
  if (!gpu.target) throw UsageError(fmt::format("{} names no target record; the corpus cannot say what runs on it", gpu.accelerator->id));
  q.accelerator = gpu.accelerator;
  q.target = gpu.target;
  q.described_part = gpu.owned;
  if (a.vram_free.given || gpu.free_gib >= 0.5) {  // size from what is free, not the card's nominal memory (docs/placement.md)
    double cap_gib = capacity_gb(*gpu.accelerator) / kGiBInGB;
    double hi = cap_gib > 0 ? cap_gib : 100000;
    double free_gib = a.vram_free.given ? number_flag(a.vram_free, "--vram-free", 0.5, hi, fmt::format("GiB free per GPU from 0.5 to {:g}", hi))
                                        : cap_gib > 0 ? std::min(gpu.free_gib, cap_gib) : gpu.free_gib;
    auto r = std::make_shared<Record>(*gpu.accelerator);
    r->data["gpu_free_gb"] = free_gib * kGiBInGB;
    r->data["gpu_free_given"] = true;
    r->data["gpu_free_note"] = a.vram_free.given ? fmt::format("--vram-free {:g} GiB: as given", free_gib)
                                                 : fmt::format("{:.1f} GiB free as --gpu auto read it (nvidia-smi memory.free; --vram-free to override)", free_gib);
    q.described_part = r;
    q.accelerator = r.get();
  }
  q.gpu_note = gpu.note;
  q.count = count * gpu.devices;
  if (gpu.count > 0 && !a.count.given) q.count = gpu.count;
  else if (gpu.count > 0 && count != gpu.count) q.gpu_note += fmt::format("; --count {} as given", count);
  if (q.count > 1024)  // --gpu auto's count and a package's devices pass the --count cap too
    throw UsageError(fmt::format("{} GPUs ({}): qsel sizes at most 1024", q.count, gpu.count > 0 && !a.count.given ? "as --gpu auto found them" : "--count x devices per package"));
  q.model = resolve_model(g, {a.model_size, a.model, a.model_config}, hub);
  for (const auto& e : a.engines) q.engines.push_back(resolve_engine(g, e).id);
  for (const auto& b : a.backends) q.backends.push_back(resolve_backend(g, b));
  q.context = context_for(*q.model, parse_context(a.context), a.context_given);
  q.batch = batch;
  q.kv_cache = a.kv_cache;
  q.portable = a.portable;
  q.objective = a.objective;
  if (a.ram.given || a.ram_bandwidth.given) {
    Host h = default_host();
    if (a.ram.given) h.ram_gb = ram_gib * kGiBInGB;  // as sold: binary
    if (a.ram_bandwidth.given) h.ram_bandwidth_gbs = ram_bandwidth;
    h.source = fmt::format("{:g} GiB ({:.1f} GB) of RAM ({}) at {:g} GB/s ({})", h.ram_gb / kGiBInGB, h.ram_gb, a.ram.given ? "--ram" : "default",
                           h.ram_bandwidth_gbs, a.ram_bandwidth.given ? "--ram-bandwidth" : "default: dual-channel DDR5-5600");
    q.host = h;
  }
  if (!a.ram.given && gpu.host_ram) {  // --gpu auto read it, inside the detection's deadline
    q.host.ram_gb = gpu.host_ram->gb;
    q.host.source = fmt::format("{:.0f} GB of RAM (detected: {}) at {:g} GB/s ({})", gpu.host_ram->gb, gpu.host_ram->source,
                                q.host.ram_bandwidth_gbs, a.ram_bandwidth.given ? "--ram-bandwidth" : "default: dual-channel DDR5-5600");
  }
  q.min_tok_s = min_tok_s;
  if (a.concurrency.given)
    q.concurrency = static_cast<int>(whole_number_flag(a.concurrency, "--concurrency", 1, 4096, "sequences served at once from 1 to 4096"));
  if (a.nodes.given) {
    int nodes = static_cast<int>(whole_number_flag(a.nodes, "--nodes", 1, 128, "a number of nodes from 1 to 128"));
    if (q.count % nodes != 0)
      throw UsageError(fmt::format("--nodes {}: the {} GPUs must split evenly across the nodes (--count is the total)", nodes, q.count));
    q.nodes = nodes;
  }
  q.spec_decode = a.spec_decode;
  q.prefix_caching = a.prefix_caching;
  q.extra_flags = a.flags;
  if (q.model->checkpoint)  // what the user's files say, unless a --flag says otherwise
    for (const auto& f : q.model->checkpoint->flags)
      if (std::none_of(q.extra_flags.begin(), q.extra_flags.end(), [&](const std::string& x) { return x.substr(0, x.find('=')) == f.substr(0, f.find('=')); }))
        q.extra_flags.push_back(f);
  return q;
}

void add_options(CLI::App& sub, RecommendArgs& a) {
  sub.add_option("--gpu", a.gpu,
                 "GPU: id, alias or common spelling (h100, \"RTX 3090\", a100-40gb, m3-max-36gb); auto = this machine's "
                 "GPUs (nvidia-smi, amd-smi/rocm-smi, sysctl); custom = one you describe with --vram and --target")
      ->required();
  add_number(sub, "--vram", a.vram, "Memory of a part qsel does not know (or in place of a known part's), in GiB, the unit vendors mean by a card's \"24 GB\": 24",
             "FLOAT");
  add_number(sub, "--bandwidth", a.bandwidth, "Memory bandwidth of a described part, GB/s: 936", "FLOAT");
  sub.add_option("--target", a.target, "Architecture of a described part: a target id or alias (sm86, gfx1100, apple-m2, \"cc 8.9\")");
  add_number(sub, "--count", a.count, "Number of GPUs in all (laid out as the engine allows: tensor, pipeline, expert parallel, replicas); default 1, or as many identical GPUs as --gpu auto finds", "INT");
  sub.add_option("--model-size", a.model_size, "Model size: 70b, 8B, 1.5b, 8x7b, 235b-a22b");
  sub.add_option("--model", a.model, "A model record id (llama-3.1-70b), a Hugging Face repo (Qwen/Qwen3-32B-AWQ[@REV], "
                 "ORG/NAME-GGUF:Q4_K_M) or URL, or a checkpoint folder or .gguf file");
  sub.add_option("--model-config", a.model_config, "A Hugging Face config.json");
  sub.add_option("--engine", a.engines, "Restrict to an engine (repeatable: vllm, sglang, trtllm, llama-cpp …)")->delimiter(',');
  sub.add_option("--backend", a.backends,
                 "Restrict to a backend (repeatable: cuda, rocm, vulkan, metal, sycl, cpu): llama.cpp is built for one or several; "
                 "other engines run on the GPU's platform")
      ->delimiter(',');
  sub.add_option("--context", a.context, "Context length in tokens (8192, 128k, 1m); default 8192, or the model's maximum if shorter")
      ->each([&a](const std::string&) { a.context_given = true; });
  add_number(sub, "--batch", a.batch, "Concurrent sequences; default 1 (decode is memory-bound at 1)", "INT");
  sub.add_option("--kv-cache", a.kv_cache, "KV-cache dtype: auto (16-bit, 8-bit offered if needed), fp16, bf16, fp8, int8")
      ->check(CLI::IsMember({"auto", "fp16", "bf16", "fp8", "int8"}));
  sub.add_option("--objective", a.objective,
                 "What ranks the answers: quality (default: highest precision that fits, shipped format first), "
                 "speed (native paths, fewest bytes), memory (smallest footprint)")
      ->check(CLI::IsMember({"quality", "speed", "memory"}));
  add_number(sub, "--memory-fraction,--gpu-memory-utilization", a.memory_fraction,
             "Replace every engine's memory fraction (vLLM gpu_memory_utilization, SGLang mem_fraction_static, "
             "TensorRT-LLM free_gpu_memory_fraction); default: each engine's own",
             "FLOAT");
  add_number(sub, "--headroom", a.headroom,
             "Memory a fit must leave free per GPU: GB (2) or a percent of the part (10%); default: the engine's own "
             "fitting margin, else 1 GiB (llama.cpp's --fit-target). Inside it a fit is \"tight\"",
             "TEXT");
  add_number(sub, "--ram", a.ram, "System RAM in GiB, the unit it is sold in (a \"64 GB\" machine: 64), for plans that keep part of the "
                                  "model there (llama.cpp -ngl, --n-cpu-moe); default 32, or what --gpu auto reads",
             "FLOAT");
  add_number(sub, "--vram-free", a.vram_free,
             "GiB free on each GPU before the model loads (what nvidia-smi shows free; a desktop keeps part of a card): plans "
             "are sized from it instead of the card's nominal memory; --gpu auto reads it",
             "FLOAT");
  add_number(sub, "--ram-bandwidth", a.ram_bandwidth, "System RAM bandwidth in GB/s (dual-channel DDR4-3200: 51.2, DDR5-5600: 89.6; "
                                                       "default 89.6)",
             "FLOAT");
  add_number(sub, "--concurrency", a.concurrency,
             "Sequences of --context a serving engine must hold at once; fewer is a tight fit (default 2 on datacenter and "
             "cloud parts, 1 elsewhere)",
             "INT");
  add_number(sub, "--nodes", a.nodes,
             "Machines the --count GPUs are spread over (--count is the total); default: the part's GPUs per node, else 8 "
             "per node. Tensor parallel stays within a node; pipeline stages or replicas go across",
             "INT");
  add_number(sub, "--min-tok-s", a.min_tok_s, "Offload plans forecast below this many decode tokens per second rank as slow; default 2", "FLOAT");
  sub.add_flag("--portable", a.portable, "Portability matters (Rule 3: open MXFP4 ranks above NVFP4)");
  sub.add_option("--spec-decode", a.spec_decode, "Speculative decoding: none, draft, mtp, ngram; default none")
      ->check(CLI::IsMember({"none", "draft", "mtp", "ngram"}));
  sub.add_flag("--prefix-caching", a.prefix_caching, "Prefix caching is on");
  sub.add_option("--flag", a.flags, "A serving fact gotchas test, KEY[=VALUE] (checkpoint=w4a16, moe-backend=flashinfer_b12x)");
  add_number(sub, "--top", a.top, "Rows shown in text and markdown (html and svg draw every candidate); default 8", "INT");
  sub.add_flag("--all", a.all, "Show every candidate");
}

}  // namespace

Runner setup_recommend(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<RecommendArgs>();
  add_options(sub, *args);
  return [args, &ctx]() {
    require_format(ctx, "recommend");
    std::size_t rows = rows_shown(*args);
    const Graph& g = ctx.graph();
    Query q = query_of(g, *args, ctx.hub());
    spdlog::info("model: {} ({}); {:.1f}B parameters, {:.1f}B active", q.model->description, q.model->origin,
                 q.model->params_b, q.model->active_params_b);
    spdlog::info("query: {} x{} ({}), context {}, batch {}, objective {}", q.accelerator ? q.accelerator->id : "?", q.count,
                 q.target ? q.target->id : "?", q.context, q.batch, q.objective);
    Deliberation d = deliberate(g, q);
    auto result = recommend_json(d);
    std::size_t top = args->all ? d.candidates.size() : rows;
    if (ctx.json()) ctx.print_json(result);
    else if (ctx.format == "html") *ctx.out << render_recommend_html(result, choice_chart(chart_inputs(d)));  // escapes every string itself
    else if (ctx.format == "svg") *ctx.out << render_recommend_svg(result, choice_chart(chart_inputs(d)));
    else if (ctx.format == "markdown") *ctx.out << render_recommend_markdown(terminal_safe(result), top, ctx.verbosity > 0);
    else *ctx.out << render_recommend_text(terminal_safe(result), ctx.style(), top, ctx.verbosity > 0);
    bool viable = std::any_of(d.candidates.begin(), d.candidates.end(), [](const Candidate& c) { return !c.memory || c.memory->fits; });
    return viable && d.deployable ? 0 : 1;
  };
}

}  // namespace qsel
