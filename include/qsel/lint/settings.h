// Which findings a lint run keeps: --select/--ignore (by code or name), strict
// mode, and per-file ignores from the config file.
#pragma once
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "qsel/lint/check_options.h"
#include "qsel/lint/finding.h"

namespace qsel {

// "QS004,contested-bpw" items (comma-separated, repeatable) -> codes.
// Throws LintInputError naming an unknown code or name, with a did-you-mean.
std::vector<std::string> parse_rule_list(const std::vector<std::string>& items);

struct PerFileIgnore {
  std::string pattern;           // glob relative to LintSettings::base_dir ("formats/gguf-*.yaml")
  std::vector<std::string> codes;
};

struct LintSettings {
  std::vector<std::string> select;  // codes; empty keeps every rule
  std::vector<std::string> ignore;  // codes
  bool strict = false;
  std::filesystem::path base_dir;   // where the config file sits
  std::vector<PerFileIgnore> per_file_ignores;
  std::string baseline;             // baseline file from the config (resolved), or empty
  CheckOptions check_options;       // --stale-after (or the config's stale-after) and the day it counts from

  bool rule_enabled(const std::string& code) const;
  // False when the finding's rule is off, or a per-file ignore covers its file.
  bool keeps(const Finding& f) const;
};

// --stale-after / `stale-after:` as whole months: "12", "12m", "2y" or "400d"
// (days count as 365/12 per month, rounded down), 1 to 600 months. Throws
// LintInputError naming what was expected.
int parse_stale_after(const std::string& text);

// True when `path` (relative, '/'-separated) matches `pattern`; a pattern
// without '/' also matches the file name alone.
bool path_matches(const std::string& pattern, const std::string& path);

}  // namespace qsel
