// QS034: a source that cites a file in a repository without the 40-hex commit it
// was read at (or without the repository or the path).
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/citation.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS034", "unpinned-code-citation", Severity::Error, false,
    "A code citation names a branch or tag instead of the 40-hex commit it was read at, or lacks its repository or path.",
    {R"(A source (an entry of any `sources` list, or any `source` object) that cites a file or folder in a repository — a `https://github.com/OWNER/NAME/blob|tree/REF/PATH` URL of anything but documentation (.md, .rst, .txt, .pdf, .adoc, .html), or a source with `repo` or `path` — and has no 40-hex commit (in the URL or in `commit`), no repository or no path; or whose `commit` differs from the commit in its URL. In engine, kernel and matrix records (the engine facts) a pinned citation also needs `date`: the commit's date, or — with `dated: read` — the day the file was read where the commit's date could not be found.)",
     R"(Code moves. "vLLM's `supports_fp8()` checks capability 8.9" is true at one commit and may be false at the next; a citation of `blob/main` points at whatever main is when a reader clicks, so nobody can re-check the claim the record made — and the corpus once carried a quote attributed to a commit whose file did not hold it. Engine code at a commit is the highest source in docs/sources.md#order only when the commit is named.)",
     R"(# kernels/marlin.yaml
sources:
- title: vLLM marlin_utils.py
  url: https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/layers/quantization/utils/marlin_utils.py)",
     R"(kernels/marlin.yaml:4:8: error: code citation vllm-project/vllm vllm/model_executor/layers/quantization/utils/marlin_utils.py names "main", not the 40-hex commit it was read at [QS034 unpinned-code-citation])",
     R"(Find the commit whose file holds the quoted text (`git log -S 'quote' -- PATH`, or the file's history on GitHub), put it in the URL (`/blob/<commit>/PATH`) or in `commit:`, and add `date:` — the commit's date, which `qsel lint --stale-after` reads.)"}};

void check_source(CheckContext& c, const Record& r, const std::string& pointer, const json& source) {
  Citation cite = read_citation(source);
  if (!cite.code) return;
  std::string at = pointer + (source.contains("url") ? "/url" : source.contains("path") ? "/path" : "/repo");
  std::string what = fmt::format("code citation {} {}", cite.repo.empty() ? "(no repo)" : cite.repo, cite.path.empty() ? "(no path)" : cite.path);
  if (cite.repo.empty() || cite.path.empty()) {
    c.report(r, at, fmt::format("{} needs both repo and path (owner/name and the file inside it)", what));
    return;
  }
  std::string given = source.value("commit", std::string());
  if (!given.empty() && is_commit(cite.ref) && given != cite.ref) {
    c.report(r, pointer + "/commit", fmt::format("{}: commit {} differs from the URL's {}", what, given, cite.ref));
    return;
  }
  if (is_commit(cite.commit)) {
    if (holds_engine_facts(r.kind) && date_days(cite.date) < 0)
      c.report(r, at,
               fmt::format("{} at {} has no date: engine facts carry the date they were read at (the commit's date, or "
                           "`dated: read` and the day the file was read)",
                           what, cite.commit.substr(0, 7)));
    return;
  }
  c.report(r, at,
           fmt::format("{} names {}, not the 40-hex commit it was read at", what,
                       cite.ref.empty() ? std::string("no commit") : quote_value(cite.ref)));
}

void each(CheckContext& c, const Record& r) {
  for_each_source(r.data, [&](const std::string& pointer, const json& source) { check_source(c, r, pointer, source); });
}

}  // namespace

Check unpinned_code_citation() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
