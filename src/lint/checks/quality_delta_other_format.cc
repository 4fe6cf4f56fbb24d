// QS021: a format's quality_delta cites a benchmark of another format.
#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS021", "quality-delta-other-format", Severity::Error, false,
    "A format's quality_delta cites a benchmark that measures a different format.",
    {R"(A format record whose `quality_delta` lists a benchmark record whose `format_id` is not this format's id.)",
     R"(`quality_delta` is the evidence the advisor prints next to a format ("+0.24 ppl, controlled"). A benchmark of another format — often a sibling mixture or the baseline the comparison was made against — attaches someone else's number to this format, which is worse than showing none.)",
     R"(# formats/gguf-q5-k-m.yaml
id: gguf-q5-k-m
quality_delta:
- bench-gguf-q4-k-m-llama-3-8b-ppl-delta   # format_id: gguf-q4-k-m)",
     R"(formats/gguf-q5-k-m.yaml:4:3: error: quality_delta cites bench-gguf-q4-k-m-llama-3-8b-ppl-delta, a benchmark of gguf-q4-k-m, not of gguf-q5-k-m [QS021 quality-delta-other-format])",
     R"(Cite the benchmark of this format, or none: an empty `quality_delta` with a `quality_note` saying that no controlled measurement exists is an honest answer. If the benchmark compares two formats, give each side its own record and link them with `baseline`.)"}};

void check_record(CheckContext& c, const Record& r) {
  std::vector<std::string> cited = r.strings("/quality_delta");
  for (std::size_t i = 0; i < cited.size(); ++i) {
    const Record* b = c.graph().find(cited[i]);
    if (!b || b->kind != Kind::Benchmark || b->str("format_id") == r.id) continue;
    c.report(r, fmt::format("/quality_delta/{}", i),
             fmt::format("quality_delta cites {}, a benchmark of {}, not of {}", b->id, b->str("format_id"), r.id));
  }
}

constexpr KeptField kReads[] = {{Kind::Format, "/quality_delta"}, {Kind::Benchmark, "/format_id"}};

void run(CheckContext& c) {
  for (const Record* r : c.graph().of_kind(Kind::Format)) check_record(c, *r);
}

}  // namespace

Check quality_delta_other_format() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
