#include "qsel/lint/registry.h"

#include <algorithm>

#include "checks/checks.h"
#include "qsel/core/text.h"

namespace qsel {

const std::vector<Check>& checks() {
  using namespace lint_checks;
  static const std::vector<Check> table = {
      dangling_reference(),         kquant_group_size(),          contested_bpw(),
      file_name_mismatch(),         native_software_dequant(),    native_and_emulated(),
      native_without_tensor_core(), training_only_marked_ptq(),   matrix_unknown_column(),
      matrix_unknown_footnote(),    quality_delta_other_format(), ungraded_vendor_claim(),
      unreachable_kernel_selection(), selector_matches_nothing(), census_mismatch(),
      baseline_mismatch(),          reviewed_without_url(),       unknown_ggml_type(),
      severity_exceeds_evidence(),  malformed_log_pattern(),      name_collision(),
      missing_native_part(),        unpinned_code_citation(),     quote_commit_conflict(),
      fp64_rate_mismatch(),         contested_outranks_record(),  stale_engine_fact(),
      release_url_mismatch(),       duplicate_release_repo(),     param_count_mismatch(),
      rounded_rate(),               unattributed_measurement(),   checkpoint_format_mismatch(),
      unknown_command_flag(),       unknown_environment_variable(), unified_memory_budget(),
  };
  return table;
}

const std::vector<RuleInfo>& rules() {
  static const std::vector<RuleInfo> table = [] {
    std::vector<RuleInfo> all = lint_checks::loader_rules();
    for (const Check& c : checks()) all.push_back(*c.info);
    std::sort(all.begin(), all.end(), [](const RuleInfo& a, const RuleInfo& b) { return a.code < b.code; });
    return all;
  }();
  return table;
}

const RuleInfo* find_rule(std::string_view code_or_name) {
  std::string key = to_lower(code_or_name);
  for (const RuleInfo& r : rules())
    if (key == to_lower(r.code) || key == r.name) return &r;
  return nullptr;
}

std::vector<std::string> suggest_rules(std::string_view code_or_name) {
  std::vector<std::string> names;
  for (const RuleInfo& r : rules()) {
    names.emplace_back(r.code);
    names.emplace_back(r.name);
  }
  std::string key(code_or_name);
  if (key.size() >= 2 && (key[0] == 'q' || key[0] == 'Q')) key = "QS" + key.substr(2);
  return nearest(key, names, 1);
}

}  // namespace qsel
