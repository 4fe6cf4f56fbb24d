// QS022: a benchmark that calls its own figure a vendor claim but is graded otherwise.
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS022", "ungraded-vendor-claim", Severity::Warning, false,
    "A benchmark describes its figure as vendor-reported but is not graded vendor-claim.",
    {R"~(A benchmark record whose `grade` is not `vendor-claim` although its own text says the number is a vendor's: its `name`, `metric`, `notes`, or a source's `title` or `quote` contains "vendor-reported", "vendor claim", "vendor marketing", "vendor figure", "vendor-stated" (with a space or a hyphen), "(vendor)" or "marketing" — unless the phrase is negated ("not a vendor claim", "no vendor"). It is a heuristic on the record's own words, hence a warning.)~",
     R"(Every number qsel shows carries its evidence grade; a vendor's accuracy or speed claim shown as `controlled` or `paper` evidence is exactly what the grading exists to prevent (doc 23: the NVFP4 accuracy comparison is "vendor-reported").)",
     R"(# benchmarks/bench-nvfp4-deepseek-r1-0528-mmlu-pro.yaml
id: bench-nvfp4-deepseek-r1-0528-mmlu-pro
name: DeepSeek-R1-0528 NVFP4 vs FP8, MMLU-Pro (vendor-reported)
grade: controlled)",
     R"(benchmarks/bench-nvfp4-deepseek-r1-0528-mmlu-pro.yaml:4:8: warning: grade is "controlled" but the record calls the figure vendor-reported (name); grade it vendor-claim [QS022 ungraded-vendor-claim])",
     R"(Set `grade: vendor-claim`. If the record's words are wrong — the number was in fact reproduced independently — reword them and cite the independent source.)"}};

constexpr std::array<std::string_view, 10> kPhrases = {
    "vendor-reported", "vendor reported", "vendor-claim", "vendor claim", "vendor marketing",
    "vendor figure",   "vendor-stated",   "vendor stated", "(vendor)",    "marketing"};

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// True when the phrase at `pos` starts a word and is not negated ("not a vendor claim").
bool affirmed(std::string_view text, std::size_t pos) {
  if (pos > 0 && std::isalpha(static_cast<unsigned char>(text[pos - 1]))) return false;
  std::string_view before = text.substr(0, pos);
  return !ends_with(before, "not ") && !ends_with(before, "not a ") && !ends_with(before, "no ");
}

// The first affirmed vendor phrase in `text`, or "".
std::string vendor_phrase(const std::string& text) {
  std::string lower = to_lower(text);
  for (std::string_view phrase : kPhrases)
    for (std::size_t pos = lower.find(phrase); pos != std::string::npos; pos = lower.find(phrase, pos + 1))
      if (affirmed(lower, pos)) return std::string(phrase);
  return "";
}

std::vector<std::pair<std::string, std::string>> texts(const Record& r) {
  std::vector<std::pair<std::string, std::string>> out = {
      {"name", r.str("name")}, {"metric", r.str("metric")}, {"notes", r.str("notes")}};
  for (const json& s : r.data.value("sources", json::array())) {
    out.emplace_back("sources", s.value("title", ""));
    out.emplace_back("sources", s.value("quote", ""));
  }
  return out;
}

void check_record(CheckContext& c, const Record& r) {
  std::string grade = r.str("grade");
  if (grade == "vendor-claim") return;
  for (const auto& [where, text] : texts(r)) {
    std::string phrase = vendor_phrase(text);
    if (phrase.empty()) continue;
    c.report(r, "/grade", fmt::format("grade is {} but the record calls the figure {} ({}); grade it vendor-claim",
                                      quote_value(grade), phrase == "(vendor)" ? "a vendor's" : phrase, where));
    return;
  }
}

void run(CheckContext& c) {
  for (const Record* r : c.graph().of_kind(Kind::Benchmark)) check_record(c, *r);
}

}  // namespace

Check ungraded_vendor_claim() { return {&kInfo, run}; }

}  // namespace qsel::lint_checks
