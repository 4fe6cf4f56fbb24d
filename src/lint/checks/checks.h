// The graph checks, one unit each (src/lint/checks/<name>.cc), and the docs of
// the rules whose findings come from the loader. registry.cc lists them.
#pragma once
#include <vector>

#include "qsel/lint/check.h"

namespace qsel::lint_checks {

Check dangling_reference();            // QS003
Check kquant_group_size();             // QS004
Check contested_bpw();                 // QS005
Check file_name_mismatch();            // QS012
Check native_software_dequant();       // QS015
Check native_and_emulated();           // QS016
Check native_without_tensor_core();    // QS017
Check training_only_marked_ptq();      // QS018
Check matrix_unknown_column();         // QS019
Check matrix_unknown_footnote();       // QS020
Check quality_delta_other_format();    // QS021
Check ungraded_vendor_claim();         // QS022
Check unreachable_kernel_selection();  // QS023
Check selector_matches_nothing();      // QS024
Check census_mismatch();               // QS025
Check baseline_mismatch();             // QS026
Check reviewed_without_url();          // QS027
Check unknown_ggml_type();             // QS028
Check severity_exceeds_evidence();     // QS029
Check malformed_log_pattern();         // QS030
Check name_collision();                // QS032
Check missing_native_part();           // QS033
Check unpinned_code_citation();        // QS034
Check quote_commit_conflict();         // QS035
Check fp64_rate_mismatch();            // QS036
Check contested_outranks_record();     // QS037
Check stale_engine_fact();             // QS038
Check release_url_mismatch();          // QS039
Check duplicate_release_repo();        // QS040
Check param_count_mismatch();          // QS041
Check rounded_rate();                  // QS042
Check unattributed_measurement();      // QS043
Check checkpoint_format_mismatch();    // QS044
Check unknown_command_flag();          // QS045
Check unknown_environment_variable();  // QS048
Check unified_memory_budget();         // QS049

// QS001, QS002, QS006-QS011, QS013, QS014: reported by the loader.
const std::vector<RuleInfo>& loader_rules();

}  // namespace qsel::lint_checks
