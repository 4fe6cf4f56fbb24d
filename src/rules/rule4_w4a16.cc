// Rule 4 — W4A16: the group size is the scheme and the kernel is chosen for
// you. States the group size, the per-generation kernel the engine picked and
// the kernels it is numerically equivalent to (whose quality figures apply).
#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
namespace {

constexpr int kDefaultGroup = 128;  // doc 23 §4.1: the conventional W4A16 default

std::string equivalence(const Record& kernel) {
  auto eq = kernel.strings("/equivalent_to");
  if (eq.empty()) return "";
  return fmt::format("; numerically equivalent to {}, so its quality figures apply", fmt::join(eq, ", "));
}

void explain_w4a16(Candidate& c) {
  int group = c.format->data.value("weight_group_size", 0);
  std::string scheme = group > 0 ? fmt::format("W4A16 at group {} is the scheme", group) : "W4A16, group size not recorded";
  std::string kernel = c.kernel ? fmt::format("{} picks {}{}", c.engine->id, c.kernel->id, equivalence(*c.kernel))
                                : "no recorded kernel";
  c.rules.push_back("rule-4");
  c.why.push_back(fmt::format("Rule 4 — {}; {}", scheme, kernel));
  if (c.kernel)
    for (const auto& eq : c.kernel->strings("/equivalent_to")) rule_util::add_unique(c.evidence, eq);
  bool group_sensitive = c.kernel && !c.kernel->strings("/equivalent_to").empty();  // the Marlin/Machete family
  if (group > 0 && group != kDefaultGroup && group_sensitive)
    c.warnings.push_back({"rule-4", "minor",
                          fmt::format("group size {} is not the 128 default: quality and kernel eligibility both change", group),
                          false, ""});
}

}  // namespace

void apply_rule4(Deliberation& d) {
  for (auto& c : d.candidates)
    if (c.engine && c.format->str("regime") == "w4a16" && c.format->str("scheme") != "gguf") explain_w4a16(c);  // GGUF: Rule 5
}

}  // namespace qsel
