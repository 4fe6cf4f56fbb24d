// QS016: one accelerator in both native_support and emulated_support of a format.
#include <algorithm>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS016", "native-and-emulated", Severity::Error, false,
    "An accelerator is listed as both native and emulated for the same format.",
    {R"(A format record that lists the same accelerator id in `native_support` and in `emulated_support`. The finding points at the entry in `emulated_support`.)",
     R"(Native and emulated are exclusive answers to "does this part run the format in hardware?". A part in both lists makes every consumer pick one arbitrarily — the advisor's verdict, the census tallies in doc 04 §3 and the per-accelerator counts all depend on which list wins.)",
     R"(# formats/fp8-e4m3.yaml
id: fp8-e4m3
native_support:
- h100-sxm
emulated_support:
- h100-sxm)",
     R"(formats/fp8-e4m3.yaml:6:3: error: "h100-sxm" is in both native_support and emulated_support; a part is one or the other for a format [QS016 native-and-emulated])",
     R"(Decide which it is — native means the format's operands reach the part's tensor cores (or its toolkit's kernels, for `hardware_path: toolkit-kernel`); emulated means the part runs it by upcasting — and delete the other entry. If the answer depends on the engine, say so in `notes` and keep the record to the hardware fact.)"}};

void check_record(CheckContext& c, const Record& r) {
  std::vector<std::string> native = r.strings("/native_support"), emulated = r.strings("/emulated_support");
  for (std::size_t i = 0; i < emulated.size(); ++i)
    if (std::find(native.begin(), native.end(), emulated[i]) != native.end())
      c.report(r, fmt::format("/emulated_support/{}", i),
               fmt::format("{} is in both native_support and emulated_support; a part is one or the other for a format",
                           quote_value(emulated[i])));
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Format) check_record(c, r);
}

}  // namespace

Check native_and_emulated() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
