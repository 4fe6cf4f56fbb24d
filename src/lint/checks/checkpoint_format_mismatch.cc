// QS044: a benchmark measured a checkpoint its format's definition does not cover.
#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS044", "checkpoint-format-mismatch", Severity::Error, false,
    "A benchmark's measured checkpoint has a group size its format's definition does not have.",
    {R"(A benchmark whose `checkpoint.group_size` (a number, or `channel` for one scale per output channel, `tensor` for one per tensor) differs from the `weight_group_size` of the format its `format_id` names.)",
     R"(A format record is a definition: GPTQ and AWQ are INT4 with a scale per 128 weights, and Rule 4 says the group size is the scheme — other sizes change quality and which kernels accept the file. A row measured on a per-channel INT4 checkpoint and filed under a group-128 format lends that format a quality it was not measured at, and the quality model fits the format's line through it.)",
     R"(# benchmarks/quality-gptq-llama-3.1-405b-humaneval.yaml
format_id: gptq   # weight_group_size: 128
checkpoint:
  repo: RedHatAI/Meta-Llama-3.1-405B-Instruct-quantized.w4a16
  group_size: channel)",
     R"(benchmarks/quality-gptq-llama-3.1-405b-humaneval.yaml:5:15: error: the measured checkpoint has group size channel, but gptq is defined by group 128: file the row under the format the checkpoint is [QS044 checkpoint-format-mismatch])",
     R"(Point `format_id` at the format the checkpoint is (a per-channel INT4 W4A16 compressed-tensors checkpoint is `llmcompressor-quant`, not `gptq`), or measure a checkpoint of the format's definition.)"}};

std::string group_text(const json& g) {
  if (g.is_number_integer()) return std::to_string(g.get<long long>());
  return g.is_string() ? g.get<std::string>() : "";
}

void check_row(CheckContext& c, const Record& b) {
  const json& cp = field(b, "checkpoint");
  if (!cp.is_object() || !cp.contains("group_size")) return;
  const Record* f = c.graph().find(b.str("format_id"));
  if (!f || f->kind != Kind::Format) return;
  const json& defined = field(*f, "weight_group_size");
  if (!defined.is_number_integer()) return;
  std::string measured = group_text(cp["group_size"]), def = group_text(defined);
  if (measured.empty() || measured == def) return;
  c.report(b, "/checkpoint/group_size",
           fmt::format("the measured checkpoint has group size {}, but {} is defined by group {}: file the row under the format the "
                       "checkpoint is",
                       measured, f->id, def));
}

constexpr KeptField kReads[] = {{Kind::Benchmark, "/checkpoint"}, {Kind::Benchmark, "/format_id"}, {Kind::Format, "/weight_group_size"}};

void run(CheckContext& c) {
  for (const Record* b : c.graph().of_kind(Kind::Benchmark)) check_row(c, *b);
}

}  // namespace

Check checkpoint_format_mismatch() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
