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

// True when `text` holds `lower_word` in any case; no copy of the text is made.
bool has_word(std::string_view text, std::string_view lower_word) {
  for (std::size_t i = 0; i + lower_word.size() <= text.size(); ++i) {
    std::size_t k = 0;
    while (k < lower_word.size() && std::tolower(static_cast<unsigned char>(text[i + k])) == lower_word[k]) ++k;
    if (k == lower_word.size()) return true;
  }
  return false;
}

// The first affirmed vendor phrase in `text`, or "". Every phrase holds
// "vendor" or "marketing": a text with neither (most of them) is not lowered.
std::string vendor_phrase(std::string_view text) {
  if (!has_word(text, "vendor") && !has_word(text, "marketing")) return "";
  std::string lower = to_lower(text);
  for (std::string_view phrase : kPhrases)
    for (std::size_t pos = lower.find(phrase); pos != std::string::npos; pos = lower.find(phrase, pos + 1))
      if (affirmed(lower, pos)) return std::string(phrase);
  return "";
}

// The text at `key` of `object`, read in place ("" when absent or not text).
std::string_view text_at(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? std::string_view(it->get_ref<const std::string&>()) : std::string_view();
}

std::vector<std::pair<const char*, std::string_view>> texts(const Record& r) {
  std::vector<std::pair<const char*, std::string_view>> out = {
      {"name", text_at(r.data, "name")}, {"metric", text_at(r.data, "metric")}, {"notes", text_at(r.data, "notes")}};
  if (auto sources = r.data.find("sources"); sources != r.data.end() && sources->is_array())
    for (const json& s : *sources) {
      if (!s.is_object()) continue;
      out.emplace_back("sources", text_at(s, "title"));
      out.emplace_back("sources", text_at(s, "quote"));
    }
  return out;
}

void check_record(CheckContext& c, const Record& r) {
  std::string grade = r.str("grade");
  if (grade == "vendor-claim" || grade == "unverified") return;  // unverified: already marked as not to be trusted
  for (const auto& [where, text] : texts(r)) {
    std::string phrase = vendor_phrase(text);
    if (phrase.empty()) continue;
    c.report(r, "/grade", fmt::format("grade is {} but the record calls the figure {} ({}); grade it vendor-claim",
                                      quote_value(grade), phrase == "(vendor)" ? "a vendor's" : phrase, where));
    return;
  }
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Benchmark) check_record(c, r);
}

}  // namespace

Check ungraded_vendor_claim() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
