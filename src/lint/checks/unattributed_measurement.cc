// QS043: a measured number no reader can trace: no public source at a fixed
// address quotes it, and the row is not graded unverified.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/json_number.h"
#include "qsel/core/citation.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS043", "unattributed-measurement", Severity::Error, false,
    "A benchmark rests on no public source at a fixed address, and the row is not graded unverified.",
    {R"(A benchmark record, graded anything but `unverified` or `derived`, none of whose sources is (1) public — not one of the two design notes (doc 04, doc 23: census notes no reader can open), (2) at a fixed address — a URL at a 40-hex commit, a comment permalink (`#issuecomment-…`, `#discussioncomment-…`, `#discussion_r…`), an arXiv or DOI address, or any URL with the `date` it was published or read — and (3) quoting what the figure was read from (a `quote`).)",
     R"(Every forecast and every quality estimate is fitted on these rows. A figure read from an unattributed copy of a discussion table — an anonymous transcription, an AI-written summary — may be right, but no reader can check it, and an error in it moves every answer it calibrates. A row either names where a reader can see the number, or says it cannot (`unverified`), and then stays out of the calibration until someone traces it.)",
     R"(# benchmarks/speed-llama-cpp-a30-llama-2-7b-q4-0-tg.yaml
value: 124.81
grade: controlled
sources:
- title: 'llama.cpp discussion #15013 — CUDA scoreboard'
  url: https://github.com/ggml-org/llama.cpp/discussions/15013
- title: Third-party transcription of the scoreboards; repository not identified
  quote: 'sourceDeviceName: ''NVIDIA A30'', generation: 124.81')",
     R"(benchmarks/speed-llama-cpp-a30-llama-2-7b-q4-0-tg.yaml:3:8: error: value 124.81 rests on no public source at a fixed address (a commit, a comment permalink, a paper, or a page with its date) quoting what it was read from: cite the one you read it in, or grade the row unverified [QS043 unattributed-measurement])",
     R"(Find the original — the comment that posted the figure (its permalink), the file at a commit, the dated page — and quote the figure from it. Where no such source can be read, set `grade: unverified` and say why in `notes`: the row stays visible, marked, and out of the speed calibration.)"}};

bool census_note(const json& s) {
  std::string title = s.value("title", std::string());
  return title.starts_with("doc 04") || title.starts_with("doc 23") || s.value("tier", std::string()) == "census";
}

bool fixed_address(const json& s) {
  std::string url = s.value("url", std::string());
  if (url.empty()) return false;
  if (!s.value("date", std::string()).empty()) return true;
  if (is_commit(read_citation(s).commit)) return true;
  for (const char* anchor : {"#issuecomment-", "#discussioncomment-", "#discussion_r", "#pullrequestreview-"})
    if (url.find(anchor) != std::string::npos) return true;
  for (const char* host : {"://arxiv.org/", "://doi.org/", "://dl.acm.org/doi/", "://openreview.net/"})
    if (url.find(host) != std::string::npos) return true;
  // A commit in the path of a Hub or GitHub address: /commit/<hex>, /blob|resolve|raw/<40 hex>/.
  for (const char* part : {"/blob/", "/resolve/", "/raw/", "/commit/"}) {
    std::size_t at = url.find(part);
    if (at == std::string::npos) continue;
    std::string ref = url.substr(at + std::string(part).size(), 40);
    if (is_commit(ref)) return true;
  }
  return false;
}

void each(CheckContext& c, const Record& r) {
  if (r.kind != Kind::Benchmark) return;
  std::string grade = r.str("grade");
  if (grade == "unverified" || grade == "derived") return;
  for (const json& s : array_field(r.data, "sources"))
    if (s.is_object() && !census_note(s) && fixed_address(s) && s.contains("quote") && s["quote"].is_string() &&
        !s["quote"].get<std::string>().empty())
      return;
  const json& value = field(r, "value");
  c.report(r, "/grade",
           fmt::format("{} rests on no public source at a fixed address (a commit, a comment permalink, a paper, or a page with its "
                       "date) quoting what it was read from: cite the one you read it in, or grade the row unverified",
                       value.is_number() ? "value " + fmt::format("{}", value.get<double>()) : std::string("this row")));
}

}  // namespace

Check unattributed_measurement() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
