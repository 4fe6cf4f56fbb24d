// QS035: one quoted passage of one file attributed to different commits.
#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/citation.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS035", "quote-commit-conflict", Severity::Error, false,
    "The same quote from the same file is attributed to different commits.",
    {R"(Two code citations (in one record or in two) of the same repository and path, pinned to different commits, whose `quote`s are the same text (compared with runs of white space as one space; quotes under 30 characters are left out). The finding is on every citation whose commit differs from the first one in file order, and names it.)",
     R"(A quote is evidence of what the file said at its commit. Copied from record to record with the commit changed, or copied while the commit stayed and the code moved, one of the attributions is false — which is how a runtime dispatch to sm120a came to be quoted from a commit whose file had only the sm100a call, in four records, and then read as a conflict with the engine's docs.)",
     R"(# kernels/vllm-cutlass-nvfp4.yaml
sources:
- url: https://github.com/vllm-project/vllm/blob/1111111111111111111111111111111111111111/csrc/quantization/fp4/nvfp4_scaled_mm_entry.cu
  quote: if (version_num >= 120) { cutlass_scaled_fp4_mm_sm120a(...); }
# kernels/sm120-vs-sm100a.yaml — the same quote, the same file, another commit)",
     R"(kernels/sm120-vs-sm100a.yaml:5:8: error: quote from vllm-project/vllm csrc/quantization/fp4/nvfp4_scaled_mm_entry.cu is attributed to 2222222 here and to 1111111 in kernels/vllm-cutlass-nvfp4.yaml:3 [QS035 quote-commit-conflict])",
     R"(Open the file at each commit and keep the attribution whose file holds the passage; change the other to that commit (or quote what its own commit says). If the passage really is at both commits, cite one.)"}};

std::string normalized(const std::string& quote) {
  std::string out;
  bool space = false;
  for (char ch : quote) {
    if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += ch;
  }
  return out;
}

struct Use {
  const Record* record;
  std::string pointer, commit;
};

constexpr KeptField kReads[] = {{std::nullopt, "/sources"}, {std::nullopt, "/contested_by"}, {Kind::Engine, ""},
                                {Kind::Format, "/checkpoint"}, {Kind::Format, "/not_native"}};

void run(CheckContext& c) {
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<Use>> uses;  // (repo, path, quote)
  for (const Record& rec : c.graph().records()) {
    const Record* r = &rec;
    for_each_source(r->data, [&](const std::string& pointer, const json& source) {
      Citation cite = read_citation(source);
      std::string quote = normalized(source.value("quote", std::string()));
      if (!cite.code || !is_commit(cite.commit) || quote.size() < 30) return;
      uses[{cite.repo, cite.path, quote}].push_back({r, pointer, cite.commit});
    });
  }
  for (auto& [key, list] : uses) {
    if (list.size() < 2) continue;
    std::stable_sort(list.begin(), list.end(), [](const Use& a, const Use& b) {
      return std::tie(a.record->file, a.pointer) < std::tie(b.record->file, b.pointer);
    });
    const Use& first = list.front();
    for (const Use& u : list) {
      if (u.commit == first.commit) continue;
      c.report(*u.record, u.pointer + (u.record->data.contains(json::json_pointer(u.pointer + "/url")) ? "/url" : "/commit"),
               fmt::format("quote from {} {} is attributed to {} here and to {} in {}:{}", std::get<0>(key), std::get<1>(key),
                           u.commit.substr(0, 7), first.commit.substr(0, 7), first.record->file,
                           first.record->mark_of(first.pointer).line));
    }
  }
}

}  // namespace

Check quote_commit_conflict() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
