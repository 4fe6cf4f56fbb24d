// QS030: a log pattern qsel verify could never match as meant.
#include "checks.h"
#include "util.h"

#include <fmt/format.h>

#include "qsel/core/pattern.h"
#include "qsel/core/json_number.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS030", "malformed-log-pattern", Severity::Error, false,
    "An engine's log pattern is malformed: an unclosed or nested {capture}, or no literal text.",
    {R"(A pattern under an engine's `log` (detect, facts, notices) or a `kernel_selection` entry's `log.patterns` that has an unclosed `{`, a `}` without `{`, nested braces, or nothing but wildcards.)",
     R"(`qsel verify` matches these patterns against every line of a stranger's log: literal text, `*` for any text, `{name}` for a captured value. A malformed pattern matches nothing, or everything, and the verification silently says the wrong thing. A `fact` pattern must also capture the fact it names (`{compute_capability}`).)",
     R"(# engines/vllm.yaml
kernel_selection:
- kernel: marlin
  log:
    patterns:
    - 'Using MarlinLinearKernel for {method'
    observed: true)",
     R"(engines/vllm.yaml:6:7: error: log pattern "Using MarlinLinearKernel for {method": unclosed '{' [QS030 malformed-log-pattern])",
     R"(Close the capture (`{method}`), or write `*` where the text does not matter.)"}};

void check_one(CheckContext& c, const Record& r, const std::string& pointer, const nlohmann::json& p, const std::string& must_capture = "") {
  if (!p.is_string()) return;
  std::string text = p.get<std::string>();
  if (std::string problem = pattern_problem(text); !problem.empty())
    c.report(r, pointer, fmt::format("log pattern \"{}\": {}", text, problem));
  else if (!must_capture.empty() && text.find("{" + must_capture + "}") == std::string::npos)
    c.report(r, pointer, fmt::format("log pattern \"{}\" names fact {} but captures no {{{}}}", text, must_capture, must_capture));
}

void each(CheckContext& c, const Record& r) {
  if (r.kind != Kind::Engine) return;
  const auto& d = r.data;
  if (d.contains("log") && d["log"].is_object()) {
    const auto& log = d["log"];
    for (std::size_t i = 0; log.contains("detect") && i < log["detect"].size(); ++i)
      check_one(c, r, fmt::format("/log/detect/{}", i), log["detect"][i]);
    for (std::size_t i = 0; log.contains("facts") && i < log["facts"].size(); ++i)
      check_one(c, r, fmt::format("/log/facts/{}/pattern", i), log["facts"][i]["pattern"], log["facts"][i].value("fact", ""));
    for (std::size_t i = 0; log.contains("notices") && i < log["notices"].size(); ++i)
      check_one(c, r, fmt::format("/log/notices/{}/pattern", i), log["notices"][i]["pattern"]);
  }
  const auto& ks = array_field(d, "kernel_selection");
  for (std::size_t k = 0; k < ks.size(); ++k) {
    if (!ks[k].contains("log")) continue;
    const auto& ps = ks[k]["log"].value("patterns", nlohmann::json::array());
    for (std::size_t i = 0; i < ps.size(); ++i) check_one(c, r, fmt::format("/kernel_selection/{}/log/patterns/{}", k, i), ps[i]);
  }
}

}  // namespace

Check malformed_log_pattern() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
