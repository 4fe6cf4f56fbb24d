// qsel verify --log FILE [--gpu G] [--model PATH | --quant F] [--engine E]:
// did the engine run the kernel the rules predict? Exit 0 on a match, 1 on a
// mismatch or when the log cannot settle it, 2 on unreadable input.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "browse_args.h"
#include "commands.h"
#include "qsel/detect/resolve_gpu.h"
#include "qsel/artifact/checkpoint.h"
#include "qsel/cli/context.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/verify_report.h"
#include "qsel/model/checkpoint_format.h"
#include "qsel/model/resolve.h"
#include "qsel/verify/verify.h"

namespace qsel {
namespace {

struct VerifyArgs {
  std::string log, gpu, model, format, engine;
  std::vector<std::string> flags;
};

}  // namespace

Runner setup_verify(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<VerifyArgs>();
  sub.add_option("--log", a->log, "The engine's start-up log; - reads standard input")->required();
  sub.add_option("--gpu", a->gpu, "The GPU it ran on (id, spelling, target, or auto); default: the compute capability the log prints");
  sub.add_option("--model", a->model, "The checkpoint it served (folder, config.json, .gguf, or a Hugging Face repo): its format is the one expected");
  sub.add_option("--quant", a->format, "The quantization format it served, when no checkpoint is at hand (awq, nvfp4, gguf-q4-k-m …)");
  sub.add_option("--engine", a->engine, "The engine (vllm, sglang, trtllm, llama-cpp …); default: detected from the log");
  sub.add_option("--flag", a->flags, "A serving fact, KEY[=VALUE] (checkpoint=w4a16)");
  return [a, &ctx]() {
    require_format(ctx, "verify");
    const Graph& g = ctx.graph();
    if (!a->model.empty() && !a->format.empty()) throw UsageError("give one of --model and --quant");
    VerifyRequest r;
    r.log = a->log;
    r.flags = a->flags;
    if (!a->engine.empty()) r.engine = &resolve_engine(g, a->engine);
    std::optional<GpuArg> gpu;
    if (!a->gpu.empty()) {
      gpu = resolve_gpu(g, a->gpu, true);
      r.accelerator = gpu->accelerator;
      r.target = gpu->target;
      if (!r.target) throw UsageError(fmt::format("{} names no target record", gpu->accelerator->id));
    }
    if (!a->model.empty()) {
      ModelReading m = read_model(g, a->model, ctx.hub());
      const CheckpointAnalysis& an = m.analysis;
      if (!an.format) throw UsageError(fmt::format("{}: its quantization matches no format record (qsel inspect {} shows what was read)", a->model, a->model));
      r.format = an.format;
      r.format_source = fmt::format("{} is {} ({})", a->model, an.format->id, an.matched_by);
      for (const auto& f : an.flags) r.flags.push_back(f);
    } else if (!a->format.empty()) {
      Resolution f = g.resolve(a->format, Kind::Format);
      if (!f) throw_unknown("format", a->format, f);
      r.format = f.record;
      r.format_source = "--quant " + f.record->id;
    }
    auto result = verify_log(g, r);
    if (ctx.json()) ctx.print_json(versioned(result));
    else *ctx.out << render_verify_text(result, ctx.style());
    // 0 match, 1 mismatch, 3 unverified: CI can tell "wrong kernel" from "the log does not say".
    const std::string verdict = result["verdict"].get<std::string>();
    return verdict == "match" ? 0 : verdict == "unverified" ? 3 : 1;
  };
}

}  // namespace qsel
