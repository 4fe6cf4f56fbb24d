// QS025: an accelerator's census figures differ from the tally of the format records.
#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS025", "census-mismatch", Severity::Error, false,
    "An accelerator's census count differs from the number of formats that list it.",
    {R"(An accelerator record with a `census` block whose `native` (or `emulated`) count differs from the number of format records whose `native_support` (or `emulated_support`) lists that accelerator.)",
     R"(The census figures are what doc 04 §3 states per part ("13 native formats on H100 SXM, 6 on the RTX 4090"), and the support lists are where they live in the corpus. When an edit to a format's lists moves a tally, one of the two is now wrong, and the per-hardware guidance built on it is too.)",
     R"(# accelerators/rtx-4090.yaml
id: rtx-4090
census:
  native: 6     # but only 5 format records list rtx-4090 in native_support
  source: doc 04 §3.2)",
     R"(accelerators/rtx-4090.yaml:4:11: error: census.native is 6, but 5 format records list rtx-4090 in native_support [QS025 census-mismatch])",
     R"(Find the format whose list changed (`qsel show ID` lists every edge into the accelerator) and restore it, or — if the census itself moved — update the count and its `source`.)"}};

std::size_t tally(const Graph& g, const std::string& id, const char* list) {
  std::size_t n = 0;
  for (const Record* f : g.of_kind(Kind::Format)) {
    auto ids = f->strings(std::string("/") + list);
    n += static_cast<std::size_t>(std::count(ids.begin(), ids.end(), id));
  }
  return n;
}

void compare(CheckContext& c, const Record& r, const char* key, const char* list) {
  const json& stated = field(r, "census").value(key, json());
  if (!stated.is_number_integer()) return;
  std::size_t actual = tally(c.graph(), r.id, list);
  if (stated.get<std::size_t>() == actual) return;
  c.report(r, fmt::format("/census/{}", key),
           fmt::format("census.{} is {}, but {} format record{} list {} in {}", key, stated.get<std::size_t>(), actual,
                       actual == 1 ? "" : "s", r.id, list));
}

void run(CheckContext& c) {
  for (const Record* r : c.graph().of_kind(Kind::Accelerator)) {
    if (!field(*r, "census").is_object()) continue;
    compare(c, *r, "native", "native_support");
    compare(c, *r, "emulated", "emulated_support");
  }
}

}  // namespace

Check census_mismatch() { return {&kInfo, run}; }

}  // namespace qsel::lint_checks
