// QS037: a contested_by entry whose source outranks the one the record follows,
// or one that contests nothing.
#include <algorithm>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/citation.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS037", "contested-outranks-record", Severity::Error, false,
    "A record keeps a lower source's value over a higher one, or a contested_by entry contests nothing.",
    {R"(A `contested_by` entry whose `tier` ranks above its `record_tier` in the source order (engine-code > engine-docs > vendor-datasheet > vendor-blog > census > third-party); or an entry about a list field (`parts` with `listed: true|false`) that says what the record's list already says.)",
     R"(A record states what its highest source says; a lower source that disagrees is kept beside it as a contested claim (docs/sources.md#order). The corpus once did the opposite — "we follow the census and record the conflict" — and so `explain fp8-blockwise --on h100` printed "emulated on h100-sxm" above a native verdict from the engines' code. An entry in the wrong direction is that mistake written down; one that agrees with the record is noise a reader has to rule out.)",
     R"(# formats/fp8-blockwise.yaml
emulated_support: [h100-sxm]
contested_by:
- field: emulated_support
  parts: [h100-sxm]
  listed: false
  tier: engine-code           # vLLM scaled_mm_entry.cu: block FP8 on cc >= 90
  record_tier: census
  source: {title: vLLM scaled_mm_entry.cu, url: ...})",
     R"(formats/fp8-blockwise.yaml:4:3: error: contested_by[0] is engine-code, above the census source the record's emulated_support follows: make the record say what the engine-code source says and keep the census claim here instead [QS037 contested-outranks-record])",
     R"(Swap them: change the field to what the higher source says, and rewrite the entry as the lower source's claim (its `source`, `tier`, and `record_tier`/`record_source` naming the higher source now followed).)"}};

bool lists(const Record& r, const std::string& field_name, const std::string& id) {
  auto v = r.strings("/" + field_name);
  return std::find(v.begin(), v.end(), id) != v.end();
}

void each(CheckContext& c, const Record& r) {
  const json& list = field(r, "contested_by");
  if (!list.is_array()) return;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& e = list[i];
    if (!e.is_object()) continue;
    std::string at = fmt::format("/contested_by/{}", i);
    std::string tier = e.value("tier", std::string()), record_tier = e.value("record_tier", std::string());
    std::string name = e.value("field", std::string());
    if (tier_rank(tier) >= 0 && tier_rank(record_tier) >= 0 && tier_rank(tier) < tier_rank(record_tier)) {
      c.report(r, at,
               fmt::format("contested_by[{}] is {}, above the {} source the record's {} follows: make the record say what the {} "
                           "source says and keep the {} claim here instead",
                           i, tier, record_tier, name, tier, record_tier));
      continue;
    }
    if (!e.contains("parts") || !e["parts"].is_array() || !e.contains("listed") || !e["listed"].is_boolean()) continue;
    bool listed = e["listed"].get<bool>();
    std::vector<std::string> agree;
    for (const json& p : e["parts"])
      if (p.is_string() && lists(r, name, p.get<std::string>()) == listed) agree.push_back(p.get<std::string>());
    if (!agree.empty())
      c.report(r, at + "/parts",
               fmt::format("contested_by[{}] says {} {} in {}, and so does the record: there is nothing to contest for {}", i,
                           fmt::join(agree, ", "), listed ? "belong" : "do not belong", name, agree.size() == 1 ? "it" : "them"));
  }
}

}  // namespace

Check contested_outranks_record() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
