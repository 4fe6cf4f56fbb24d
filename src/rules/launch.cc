// Launch commands from a plan (include/qsel/rules/launch.h). Every flag comes
// from the engine's `launch` templates, which lint QS045 checks against the
// engine's recorded release; no engine, format or model id appears here.
#include "qsel/rules/launch.h"
#include "qsel/core/json_number.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/core/units.h"
#include "qsel/graph/engine_cli.h"
#include "qsel/model/resolve.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

// A launch entry's `targets` list names this part's target (an entry for some targets only).
bool lists_target(const json& entry, const Record* target) {
  const json& targets = array_field(entry, "targets");
  return target && std::any_of(targets.begin(), targets.end(), [&](const json& x) { return x == target->id; });
}

// How the engine takes a GGUF published in parts (launch.gguf_parts), as the clause after the parts are named;
// `named` when the command already names the first part.
std::string parts_note(const Record& engine, const json& launch, bool named = false) {
  const std::string how = object_field(launch, "gguf_parts").value("how", std::string());
  if (how == "beside") return fmt::format(": {}{} loads the others from beside it", named ? "" : "name the first, ", engine.id);
  if (how == "merge")
    return fmt::format(": {} loads one file, so merge them first (llama-gguf-split --merge FIRST-PART OUT.gguf)", engine.id);
  return fmt::format(": whether {} loads the others from beside the first is not recorded", engine.id);
}

// Hugging Face's per-file limit: publishers upload larger GGUFs in parts ("Upload in splits of max 50GB due to HF 50GB limit").
constexpr double kHubFileCapGB = 50;

std::string replace_all(std::string s, const std::string& key, const std::string& value) {
  for (std::size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size())) s.replace(at, key.size(), value);
  return s;
}

// The last path component of a repo id ("Qwen/Qwen3-32B" -> "Qwen3-32B").
std::string repo_name(const std::string& repo) {
  auto slash = repo.rfind('/');
  return slash == std::string::npos ? repo : repo.substr(slash + 1);
}

bool gguf_format(const Record& f) { return f.str("scheme") == "gguf"; }

// A repo's name without the "-GGUF" publishers add to a repository of GGUF files.
std::string without_gguf(std::string name) {
  if (name.size() > 5 && to_lower(name.substr(name.size() - 5)) == "-gguf") name.resize(name.size() - 5);
  return name;
}

// The name part of a GGUF file ("Q2_K/Qwen3-32B-Q2_K-00001-of-00003.gguf" -> "Qwen3-32B") when
// its stem ends in "-TYPE" or ".TYPE" (any case); empty otherwise.
std::string name_before_type(const std::string& file, const std::string& type) {
  std::string stem = gguf_stem(file);
  stem = stem.substr(stem.rfind('/') == std::string::npos ? 0 : stem.rfind('/') + 1);
  std::size_t n = type.size();
  if (stem.size() > n + 1 && to_lower(stem.substr(stem.size() - n)) == to_lower(type) && (stem[stem.size() - n - 1] == '-' || stem[stem.size() - n - 1] == '.'))
    return stem.substr(0, stem.size() - n - 1);
  return "";
}

// The model's own name as publishers put it in file names: what the named Hub repo's files
// start with ("Qwen3-32B" of Qwen3-32B-Q8_0.gguf), else its shipped repo's name, else its id.
std::string model_name(const Graph& g, const ModelSpec& m) {
  for (const auto& r : m.releases) {
    const Record* f = g.find(r.format);
    if (!r.listed || r.file.empty() || !f) continue;
    for (const auto& type : gguf_type_names(*f))
      if (std::string name = name_before_type(r.file, type); !name.empty()) return name;
  }
  if (const Release* r = m.shipped(); r && !r->repo.empty()) return without_gguf(repo_name(r->repo));
  for (const auto& r : m.releases)
    if (r.official && !r.repo.empty()) return without_gguf(repo_name(r.repo));
  return m.id.empty() ? std::string("model") : m.id;
}

// The repo the unquantized model is published in, when one is recorded.
std::string base_repo(const Deliberation& d) {
  for (const auto& r : d.query.model->releases) {
    const Record* f = d.graph.find(r.format);
    if (f && is_baseline(*f) && !r.repo.empty()) return r.repo;
  }
  const Release* r = d.query.model->shipped();
  return r ? r->repo : "";
}

std::string number(double v) { return fmt::format("{:g}", std::round(v * 1000) / 1000); }

struct Builder {
  const json& launch;
  std::vector<std::string> words;
  bool add(const char* key, const std::vector<std::pair<std::string, std::string>>& values = {}) {
    if (!launch.contains(key) || !launch[key].is_string()) return false;
    std::string t = launch[key].get<std::string>();
    for (const auto& [k, v] : values) t = replace_all(t, k, v);
    words.push_back(t);
    return true;
  }
  std::string text() const { return fmt::format("{}", fmt::join(words, " ")); }
};

const Record* kv_format_of(const Deliberation& d, const Memory& m) {
  const Record* f = d.graph.find(m.kv_dtype);
  return f && f->str("regime") == "kv-cache" ? f : nullptr;
}

// What the plan assumes about the GPUs' free memory, said beside the engine's own fitting.
std::string fit_note(const Memory& m, int planned, bool experts) {
  const std::string& src = m.budget.total_source;
  std::string what = experts ? "the expert layers to keep in RAM" : "the layers to put on the GPU";
  if (src.find("free") != std::string::npos)
    return fmt::format("the alternative lets llama.cpp choose {} itself (--fit on): sized from the same free memory ({}); the "
                       "one published --fit run qsel could size landed on qsel's count, but --fit measures its own compute "
                       "buffer and may place a partial layer (docs/placement.md), so it can differ from the plan's {}",
                       what, src, planned);
  return fmt::format("the alternative lets llama.cpp choose {} itself (--fit on) from the memory free when it starts; the plan sized "
                     "from {}, and a desktop keeps part of a card for itself, so --fit may {} than the plan's {} (give "
                     "--vram-free GiB, what nvidia-smi shows free, and the plan is sized as --fit sizes)",
                     what, src, experts ? "keep more expert layers in RAM" : "put fewer layers on the GPU", planned);
}

// A plan on more GPUs than one host drives (the layout's nodes, or the part's gpus_per_host) starts on each host:
// the engine's multi_host flags go on the run line (host 0's, --node-rank 0), and its note says what else to run;
// an engine with none recorded is said to start one host's share only.
void add_multi_host(const Deliberation& d, Candidate& c, const json& launch, std::string& run) {
  Memory& m = *c.memory;
  int per_host = d.query.accelerator ? d.query.accelerator->data.value("gpus_per_host", 0) : 0;
  int gpus = m.layout.gpus();
  int hosts = std::max(1, m.layout.nodes);
  if (per_host > 0) hosts = std::max(hosts, (gpus + per_host - 1) / per_host);
  // Replicas that do not all fit on one host are separate launches (layout.cc keeps the data-parallel flag only when
  // they do): the line below is one replica's.
  int host_gpus = per_host > 0 ? per_host : m.layout.per_node;
  if (hosts <= 1 && m.layout.dp > 1 && gpus * m.layout.dp > host_gpus) {
    m.notes.push_back(fmt::format("the plan is {} replicas of {} GPUs, more than one host holds: the line below starts one replica; "
                                  "start it once per replica on its own host (or set of GPUs), with a load balancer or the "
                                  "engine's router in front — a data-parallel flag would look for every replica's GPUs on one host",
                                  m.layout.dp, gpus));
    return;
  }
  if (hosts <= 1) return;
  int each = per_host > 0 ? std::min(per_host, gpus) : m.layout.per_node;
  const json mh = launch.value("multi_host", json());
  auto fill = [&](std::string t) {
    t = replace_all(replace_all(t, "{hosts}", std::to_string(hosts)), "{last}", std::to_string(hosts - 1));
    return replace_all(replace_all(replace_all(t, "{rank}", "0"), "{head}", "HEAD_IP"), "{gpus}", std::to_string(gpus));
  };
  if (!mh.is_object()) {
    m.notes.push_back(fmt::format("the plan spans {} hosts of {} GPUs; {} has no multi-host launch recorded, so the line below starts "
                                  "one host's share only: start it on every host in one distributed launch (the engine's own docs)",
                                  hosts, each, c.engine->id));
    return;
  }
  if (mh.contains("flags")) run += " " + fill(mh.value("flags", ""));
  m.notes.push_back(fmt::format("the plan spans {} hosts of {} GPUs: {}", hosts, each, fill(mh.value("note", ""))));
  if (m.layout.dp > 1)
    m.notes.push_back(fmt::format("that starts one replica of {}: each replica is its own launch on its own {} hosts (its own "
                                  "HEAD_IP), {} in all, with a load balancer or the engine's router in front; a data-parallel "
                                  "flag would place the replicas on the same hosts", m.layout.dp, hosts, m.layout.dp * hosts));
}

// A context past the model's native one, inside what the publisher's RoPE scaling reaches (model context_extension): the
// engine's flags for it (launch.context_extension), with the factor the context needs, as the publisher advises ("if the
// typical context length ... is 65,536 tokens, it would be better to set factor as 2.0"); else what to set, said.
void add_context_extension(const Deliberation& d, Candidate& c, const json& launch, Builder& b) {
  const ModelSpec& model = *d.query.model;
  long ctx = d.query.context;
  if (model.max_context <= 0 || ctx <= model.max_context || model.extended_context < ctx || model.extension_original <= 0) return;
  Memory& m = *c.memory;
  double factor = std::ceil(static_cast<double>(ctx) / static_cast<double>(model.extension_original));
  const json ext = object_field(launch, "context_extension");
  std::string flags = ext.value("flags", "");
  if (!ext.is_object() || ext.value("method", "") != model.extension_method || flags.empty()) {
    m.notes.push_back(fmt::format("--context {} needs {}'s {} RoPE scaling (factor {:g} over {} tokens), and {} has no command-line "
                                  "flag for it recorded: set rope_scaling in the model's config.json before loading",
                                  ctx, model.id, model.extension_method, factor, model.extension_original, c.engine->id));
    return;
  }
  if (flags.find("{theta}") != std::string::npos && model.rope_theta <= 0) {
    m.notes.push_back(fmt::format("--context {} needs {}'s {} RoPE scaling (factor {:g} over {} tokens); {}'s override replaces the "
                                  "whole RoPE block and {}'s rope_theta is not recorded: copy it from the model's config.json into "
                                  "the override ({})", ctx, model.id, model.extension_method, factor, model.extension_original,
                                  c.engine->id, model.id, flags));
    return;
  }
  flags = replace_all(flags, "{factor}", fmt::format("{:.1f}", factor));
  flags = replace_all(flags, "{original}", std::to_string(model.extension_original));
  flags = replace_all(flags, "{extended}", std::to_string(static_cast<long>(factor) * model.extension_original));
  flags = replace_all(flags, "{theta}", model.rope_theta == std::floor(model.rope_theta) && model.rope_theta < 1e15 ? fmt::format("{:.0f}", model.rope_theta) : fmt::format("{}", model.rope_theta));
  b.words.push_back(flags);
  m.notes.push_back(fmt::format("{} RoPE scaling, factor {:g} over {}'s original {} tokens, for --context {} ({}; static scaling can "
                                "cost quality on short prompts, so use it only where prompts are that long)",
                                model.extension_method, factor, model.id, model.extension_original, ctx, ext.value("note", "")));
}

void build(Deliberation& d, Candidate& c) {
  Memory& m = *c.memory;
  const json launch = c.engine->data.value("launch", json());
  if (!launch.is_object() || !launch.contains("program")) return;
  std::string program = launch.value("program", "");
  const ModelSpec& model = *d.query.model;
  Builder b{launch, {program}};
  ModelArg arg = model_arg(d, c);
  // A loader that reads a folder, never a repo id (ExLlama's -m): a published repository is fetched to a folder first.
  std::string download;
  if (launch.contains("model_download") && launch["model_download"].is_string() && arg.template_key == "model" &&
      !c.release.empty() && arg.value == shell_word(c.release)) {
    std::string dir = shell_word("./" + repo_name(c.release));
    download = replace_all(replace_all(launch["model_download"].get<std::string>(), "{repo}", arg.value), "{dir}", dir);
    arg.value = dir;
  }
  // A local file the engine imports under a name first (model_import): the name is the file's, lower-case.
  std::string imported = arg.value.size() > 5 && arg.value.compare(arg.value.size() - 5, 5, ".gguf") == 0 ? arg.value.substr(0, arg.value.size() - 5) : arg.value;
  imported = to_lower(imported.substr(imported.rfind('/') == std::string::npos ? 0 : imported.rfind('/') + 1));
  b.add(arg.template_key.c_str(), {{"{file}", arg.value}, {"{repo}", arg.value}, {"{name}", imported}, {"{tag}", arg.value}});
  if (!arg.note.empty()) m.notes.push_back(arg.note);
  std::string import_cmd;
  if (arg.template_key == "model" && launch.contains("model_import") && launch["model_import"].is_string()) {
    import_cmd = replace_all(replace_all(launch["model_import"].get<std::string>(), "{name}", imported), "{file}", arg.value);
    if (launch.contains("model_import_note") && launch["model_import_note"].is_string())
      m.notes.push_back(replace_all(launch["model_import_note"].get<std::string>(), "{file}", arg.value));
  }
  std::size_t model_word = b.words.size() - 1;
  b.add("always");
  if (!model.remote_code.empty() && b.add("remote_code"))
    m.notes.push_back(fmt::format("{}: {}", launch.value("remote_code", ""), model.remote_code));
  // A chat program that needs the model's prompt format named (ExLlama's chat.py exits without -mode).
  if (launch.contains("prompt_mode")) {
    const json& modes = object_field(launch, "prompt_modes");  // the model's own entry wins over its family's
    std::string mode = modes.value(model.id, modes.value(model.family, std::string()));
    if (mode.empty()) {
      mode = launch.value("prompt_mode_default", "raw");
      m.notes.push_back(fmt::format("-mode {}: no prompt mode of {} is recorded for the {} family (the program's -modes lists them)",
                                    mode, program, model.family.empty() ? "model's" : model.family));
    }
    b.add("prompt_mode", {{"{mode}", mode}});
  }
  if (d.query.context > 0) b.add("context", {{"{context}", std::to_string(d.query.context)}});
  add_context_extension(d, c, launch, b);
  // What the engine needs to take the kernel the plan runs on (kernel_selection launch_flags: the Gaudi plugin's GPTQ method
  // answers only to --quantization gptq_hpu).
  for (const auto& w : command_words(c.kernel_launch_flags)) b.words.push_back(w);
  if (!c.online_flags.empty()) b.words.push_back(c.online_flags);  // the engine quantizes the 16-bit checkpoint as it loads
  // The flags the model card gives this engine for the publisher's own repository (Mistral's consolidated format).
  if (!base_repo(d).empty() && arg.value == shell_word(base_repo(d)))
    for (const auto& [engine, flags] : model.engine_flags)
      if (engine == c.engine->id) b.words.push_back(flags);
  if (auto kv = kv_cache_flags(*c.engine, kv_format_of(d, m), d.query.target); kv && !kv->empty()) {
    b.words.push_back(*kv);
    // Flags that name a file the user writes (TensorRT-LLM's --extra_llm_api_options kv_cache_fp8.yaml): what it holds.
    for (const auto& e : array_field(launch, "kv_cache"))
      if (e.value("flags", "") == *kv && e.contains("file") && e["file"].is_object())
        m.notes.push_back(fmt::format("{} holds: {}", e["file"].value("name", ""), e["file"].value("text", "")));
  }
  if (m.budget.kind != "whole-device" && m.budget.fraction > 0 && m.budget.fraction < 1)
    b.add("memory_fraction", {{"{fraction}", number(m.budget.fraction)}});
  if (m.max_num_seqs > 0) {
    // The sequences setting the fit needs ("--max-num-seqs 16"): the sequences template with its number.
    if (!b.add("sequences", {{"{n}", std::to_string(m.max_num_seqs)}}))
      b.words.push_back(fmt::format("{} {}", object_field(object_field(c.engine->data, "memory"), "activation_peak").value("flag", ""), m.max_num_seqs));
  }
  bool several = m.parts > 1 || m.layout.layer_gpus > 1;
  std::size_t before_layers = b.words.size();
  int layers = std::max(1, model.layers);
  if (m.placement) {
    const Placement& p = *m.placement;
    if (p.kind == "experts") {
      b.add("gpu_layers", {{"{n}", std::to_string(layers + 1)}});
      b.add("cpu_moe", {{"{n}", std::to_string(p.cpu_moe_layers)}});
    } else {
      b.add("gpu_layers", {{"{n}", std::to_string(p.gpu_layers)}});
    }
  } else {
    b.add("gpu_layers", {{"{n}", std::to_string(layers + 1)}});  // everything, the output layer included
  }
  // A partial offload's layers per GPU (placement.h: split) belong to the plan: the engine's own fit chooses its own.
  const bool planned_split = m.placement && !m.placement->split.empty();
  if (planned_split) b.add("tensor_split", {{"{split}", fmt::format("{}", fmt::join(m.placement->split, ","))}});
  std::size_t after_layers = b.words.size();
  if (!planned_split && several && m.layout.layer_split) {  // the layers spread over the GPUs evenly (identical parts)
    std::vector<std::string> even(static_cast<std::size_t>(std::max(m.layout.layer_gpus, m.parts)), "1");
    b.add("tensor_split", {{"{split}", fmt::format("{}", fmt::join(even, ","))}});
  }
  if (!m.layout.flags.empty()) b.words.push_back(m.layout.flags);  // tensor, pipeline, expert, data parallel (engine tensor_parallel.flags)
  // NAME=value words are the server's environment (launch.server: the server started with them), the rest the run line.
  // The environment the engine's guidance sets on this target (launch.environment: AITER on Instinct).
  std::vector<std::string> target_env;
  for (const auto& e : array_field(launch, "environment")) {
    if (!lists_target(e, d.query.target)) continue;
    target_env.push_back(e.value("set", ""));
    if (!e.value("note", "").empty()) m.notes.push_back(fmt::format("{}: {}", e.value("set", ""), e.value("note", "")));
  }
  std::string run = b.text();
  if (!target_env.empty() && !launch.contains("server")) run = fmt::format("{} {}", fmt::join(target_env, " "), run);
  else for (const auto& w : target_env) b.words.push_back(w);  // a server's environment, set when it starts (below)
  if (launch.contains("server")) {
    std::vector<std::string> env, args;
    for (const auto& w : b.words)
      for (const auto& x : command_words(w)) (env_assignment(x) ? env : args).push_back(x);
    std::string server = launch.value("server", "");
    m.commands.push_back({"serve", server, env.empty() ? server : fmt::format("{} {}", fmt::join(env, " "), server)});
    run = fmt::format("{}", fmt::join(args, " "));
  }
  if (!import_cmd.empty()) {
    const json* importer = cli_program(*c.engine, import_cmd);
    m.commands.push_back({"import", importer ? importer->value("program", "") : import_cmd, import_cmd});
  }
  if (!download.empty()) {
    const json* fetcher = cli_program(*c.engine, download);
    m.commands.push_back({"download", fetcher ? fetcher->value("program", "") : download, download});
  }
  add_multi_host(d, c, launch, run);
  m.commands.push_back({"run", program, run});
  if (!arg.make.empty()) m.commands.push_back({"quantize", arg.make_program, arg.make});
  if (m.placement) m.placement->command = run;
  if (m.placement && !launch.contains("gpu_layers")) {  // the engine takes no layer count: it fits the layers itself
    int planned = m.placement->kind == "experts" ? m.placement->cpu_moe_layers : m.placement->gpu_layers;
    m.notes.push_back(fmt::format("the command sets no layer count ({}'s launch takes none): the engine fits the layers to the memory "
                                  "free when it loads, and the plan's {} {} is qsel's estimate of that fit",
                                  c.engine->id, planned, m.placement->kind == "experts" ? "expert layers in RAM" : "layers on the GPU"));
  }
  // The same file fetched by the engine from the Hub (llama.cpp -hf ORG/NAME:QUANT): the line as it runs, download included.
  if (!arg.hub_value.empty() && model_word > 0) {
    Builder h{launch, {}};
    if (h.add("model_repo", {{"{repo}", arg.hub_value}})) {
      std::vector<std::string> words = b.words;
      words[model_word] = h.words.front();
      m.commands.push_back({"hub", program, fmt::format("{}", fmt::join(words, " "))});
    }
  }
  // The engine fits the layers itself: the same line without the layer flags, with its fitting margin.
  if (launch.contains("fit") && after_layers > before_layers) {
    Builder f{launch, {}};
    for (std::size_t i = 0; i < b.words.size(); ++i)
      if (i < before_layers || i >= after_layers) f.words.push_back(b.words[i]);
    double margin_mib = (m.parts > 0 ? m.margin_gb / m.parts : m.margin_gb) * kBytesPerGB / kBytesPerMiB;
    f.add("fit", {{"{mib}", std::to_string(static_cast<long>(std::lround(margin_mib)))}});
    m.commands.push_back({"fit", program, f.text()});
    int planned = m.placement ? (m.placement->kind == "experts" ? m.placement->cpu_moe_layers : m.placement->gpu_layers) : layers + 1;
    m.notes.push_back(fit_note(m, planned, m.placement && m.placement->kind == "experts"));
  }
  // A bitrate no repository publishes is a file you make: the engine's converter at that bitrate.
  if (m.chosen_bpw > 0 && !m.chosen_published) {
    for (const auto& p : array_field(c.engine->data, "cli")) {
      std::string name = p.value("program", "");
      if (name.find("convert") == std::string::npos) continue;
      m.commands.push_back({"quantize", name, fmt::format("{} -i {} -o {}-{:.2f}bpw -b {:.2f}", name, base_repo(d).empty() ? "MODEL_DIR" : repo_name(base_repo(d)),
                                                          model_name(d.graph, model), m.chosen_bpw, m.chosen_bpw)});
      m.notes.push_back(fmt::format("-b {:.2f} is a custom bitrate you quantize yourself (no repository publishes it)", m.chosen_bpw));
      break;
    }
  }
}

}  // namespace

const json* kv_cache_refusal(const Record& engine, const Record* kv_format, const Record* target) {
  if (!kv_format || !target) return nullptr;
  const json& launch = object_field(engine.data, "launch");
  for (const auto& e : array_field(launch, "kv_cache")) {
    if (e.value("format", "") == kv_format->id && e.value("refused", false) && lists_target(e, target)) return &e;
  }
  return nullptr;
}

std::optional<std::string> kv_cache_flags(const Record& engine, const Record* kv_format, const Record* target) {
  const json launch = engine.data.value("launch", json());
  if (!kv_format) return std::string();
  if (!launch.is_object()) return std::string();
  if (kv_cache_refusal(engine, kv_format, target)) return std::nullopt;  // no backend takes it there
  for (const auto& e : array_field(launch, "kv_cache")) {
    if (e.value("format", "") != kv_format->id || e.value("refused", false)) continue;
    // An entry for some targets only (vLLM's FP8 cache on Ampere needs FlashInfer pinned) is the line there; another entry
    // of the format serves the rest.
    if (!array_field(e, "targets").empty() && !lists_target(e, target)) continue;
    return e.value("flags", "");
  }
  return std::nullopt;
}

std::string gguf_quant_name(const Record& f) {
  std::vector<std::string> names = gguf_type_names(f);
  return names.empty() ? f.id : names.front();
}

std::string shell_word(const std::string& w) {
  bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char ch) {
    return std::isalnum(ch) || std::strchr("._/+:@,=-", ch) != nullptr;
  });
  if (plain) return w;
  std::string out = "'";
  for (char ch : w) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

ModelArg model_arg(const Deliberation& d, const Candidate& c) {
  const ModelSpec& model = *d.query.model;
  const json launch = c.engine ? c.engine->data.value("launch", json()) : json();
  bool gguf = gguf_format(*c.format);
  const HubListing* hub = model.hub && model.hub->problem.empty() ? &*model.hub : nullptr;
  if (gguf && !model.hub && model.checkpoint && !model.checkpoint->path.empty() && model.checkpoint->format == c.format->id) {
    std::string path = model.checkpoint->path;  // a file here or at a URL: its name
    return {"model", shell_word(path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1)), "", ""};
  }
  if (gguf) {
    std::string quant = gguf_quant_name(*c.format);
    // The file the named Hub repo's list holds (or the record names) for this type.
    const Release* rel = nullptr;
    for (const auto& r : model.releases)
      if (!c.release.empty() && r.repo == c.release && r.format == c.format->id) rel = &r;
    if (rel && !rel->registry.empty() && launch.contains("model_library"))
      return {"model_library", rel->repo,
              fmt::format("{} is {}'s own library tag for {} ({}): pulled on first run, no file to fetch or import", rel->repo,
                          rel->registry, model_name(d.graph, model), quant),
              ""};
    if (rel && !rel->file.empty()) {
      if (!rel->listed) return {"model", shell_word(rel->file), fmt::format("{} is the file {} publishes", rel->file, rel->repo), ""};
      int parts = 1;
      if (std::string stem = gguf_stem(rel->file); stem.size() + 5 != rel->file.size())
        parts = std::atoi(rel->file.substr(rel->file.size() - 10, 5).c_str());
      // -hf REPO:QUANT fetches this file when it is the only one the type names at main, spelled as qsel spells the type.
      bool one = hub && hub->revision == "main" && !name_before_type(rel->file, quant).empty() &&
                 std::find(hub->ambiguous.begin(), hub->ambiguous.end(), quant) == hub->ambiguous.end();
      return {"model", shell_word(rel->file),
              fmt::format("{} is the {} file {} holds (its file list at commit {}){}{}", rel->file, quant, rel->repo,
                          hub ? hub->sha.substr(0, 12) : std::string("?"),
                          parts > 1 ? fmt::format("; the first of {} parts{}", parts, parts_note(*c.engine, launch, true)) : "",
                          one && launch.contains("model_repo")
                              ? fmt::format("; -hf {}:{} fetches the same file from the Hub (llama.cpp matches the type case-insensitively)",
                                            rel->repo, quant)
                              : ""),
              one ? fmt::format("{}:{}", rel->repo, quant) : ""};
    }
    bool listed_lacks = hub && (c.release.empty() || to_lower(c.release) == to_lower(hub->repo));
    if (!listed_lacks && !c.release.empty() && launch.contains("model_repo")) return {"model_repo", fmt::format("{}:{}", c.release, quant), "", ""};
    std::string name = fmt::format("{}-{}.gguf", model_name(d.graph, model), quant);
    if (listed_lacks)
      return {"model", shell_word(name),
              fmt::format("{} holds no {} file ({}): {} is a file you quantize yourself (llama-quantize writes it from the 16-bit GGUF)",
                          hub->repo, quant, hub->types.empty() ? std::string("no GGUF type qsel knows") : fmt::format("it holds {}", fmt::join(hub->types, ", ")),
                          name),
              ""};
    // The Hub caps a file at 50 GB, so publishers split a larger GGUF (NAME-00001-of-0000N.gguf); llama-quantize writes one file.
    bool split = c.memory && c.memory->weights_gb > kHubFileCapGB;
    return {"model", shell_word(name),
            c.release.empty() && split
                ? fmt::format("no published {} file of {} is recorded: llama-quantize writes {} from the 16-bit GGUF as one file; a "
                              "published one of {:.0f} GB comes in parts under the Hub's 50 GB file limit ({}-00001-of-0000N.gguf{})",
                              quant, model_name(d.graph, model), name, c.memory->weights_gb, name.substr(0, name.size() - 5),
                              parts_note(*c.engine, launch))
            : c.release.empty() ? fmt::format("no published {} file of {} is recorded: {} is the name the common publishers "
                                              "give one (llama-quantize writes it from the 16-bit GGUF)", quant, model_name(d.graph, model), name)
                                : "",
            ""};
  }
  // An engine that loads one file ({file}: llama.cpp's -m) runs the 16-bit weights from a file its converter makes from
  // the checkpoint folder, never from the repo id it cannot open.
  const json convert = launch.value("convert", json());
  const std::string outtype = convert.is_object() ? object_field(convert, "outtype").value(c.format->id, "") : "";
  if (launch.value("model", "").find("{file}") != std::string::npos && is_baseline(*c.format) && !outtype.empty()) {
    std::string upper = outtype;
    for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    std::string file = fmt::format("{}-{}.gguf", model_name(d.graph, model), upper);
    bool local = model.checkpoint && !model.checkpoint->path.empty() && model.checkpoint->format == c.format->id;
    std::string dir = local ? shell_word(model.checkpoint->path) : base_repo(d).empty() ? "MODEL_DIR" : "./" + repo_name(base_repo(d));
    std::string line = replace_all(replace_all(replace_all(convert.value("line", ""), "{dir}", dir), "{outtype}", outtype), "{file}", file);
    return {"model", shell_word(file),
            fmt::format("{} holds the 16-bit weights as one file: {} writes it from the checkpoint folder{}", file,
                        convert.value("program", ""), local || base_repo(d).empty() ? "" : fmt::format(" ({} downloaded)", base_repo(d))),
            "", convert.value("program", "") + " " + line, convert.value("program", "")};
  }
  if (model.checkpoint && !model.checkpoint->path.empty() && model.checkpoint->format == c.format->id)
    return {"model", shell_word(model.checkpoint->path), "", ""};
  // An engine that runs only checkpoints converted to its own layout (launch own_builds; MLC reads tensor-cache.json and
  // mlc-chat-config.json): the publisher's repository is no input to it, only a release in one of the engine's formats.
  if (const json own = launch.value("own_builds", json()); own.is_object() && (c.release.empty() || !contains(served_formats(*c.engine), c.format->id))) {
    std::string folder = fmt::format("./{}-{}", model_name(d.graph, model), c.format->id);
    return {"model", shell_word(folder),
            fmt::format("{} runs only checkpoints converted to its own layout, and no such build of {} in {} is recorded: {} is a "
                        "folder you convert yourself ({})",
                        c.engine->id, model_name(d.graph, model), c.format->id, folder, own.value("convert", "")),
            ""};
  }
  // A published repository, where the engine names hub repositories its own way (MLC: HF://org/name).
  if (!c.release.empty()) return {launch.contains("model_hub") ? "model_hub" : "model", shell_word(c.release), "", ""};
  if ((is_baseline(*c.format) || !c.online_flags.empty()) && !base_repo(d).empty()) return {"model", shell_word(base_repo(d)), "", ""};
  std::string folder = fmt::format("./{}-{}", model_name(d.graph, model), c.format->id);
  // The engine's own quantizer where its launch names one for this format (mlx_lm.convert -q --q-bits N): the line that
  // makes the folder from the 16-bit repository, so the answer runs as printed (blind audits 20 #33, 21 #9).
  const json quantize = launch.value("quantize", json());
  std::string make, maker;
  if (quantize.is_object() && !base_repo(d).empty() && contains(array_field(quantize, "formats"), json(c.format->id))) {
    std::string line = quantize.value("line", "");
    line = replace_all(line, "{repo}", shell_word(base_repo(d)));
    line = replace_all(line, "{folder}", shell_word(folder));
    line = replace_all(line, "{bits}", fmt::format("{}", c.format->data.value("weight_bits", 0)));
    line = replace_all(line, "{group}", fmt::format("{}", c.format->data.value("weight_group_size", 0)));
    maker = quantize.value("program", "");
    make = maker + " " + line;
  }
  return {"model", shell_word(folder),
          fmt::format("no published {} checkpoint of {} is recorded: {} is a folder you quantize yourself{}", c.format->id,
                      model_name(d.graph, model), folder, maker.empty() ? std::string() : " (" + maker + ")"),
          "", make, maker};
}

void launch_commands(Deliberation& d) {
  if (!d.query.model) return;
  for (auto& c : d.candidates)
    if (c.memory && c.memory->fits && c.engine && c.memory->commands.empty()) build(d, c);
}

}  // namespace qsel
