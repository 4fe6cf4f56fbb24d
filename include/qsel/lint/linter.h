// One lint run from paths to the findings a user sees: load, check, keep what
// the settings select, set aside what the baseline knows, optionally fix.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qsel/lint/finding.h"
#include "qsel/loader/loader.h"
#include "qsel/lint/settings.h"
#include "qsel/loader/schema_set.h"

namespace qsel {

struct LintRequest {
  std::vector<std::string> paths;
  LintSettings settings;
  std::string baseline;        // --baseline (or the config's)
  std::string write_baseline;  // --write-baseline
  bool fix = false;
  bool diff = false;
  std::optional<FileOverlay> stdin_file;  // lint -: the text read from stdin, named by --stdin-filename
};

struct LintReport {
  Findings findings;        // what the user sees
  std::size_t files = 0;    // record files linted
  std::size_t records = 0;  // records loaded from them
  std::size_t baselined = 0;
  std::size_t fixed = 0, fixed_files = 0;
  std::string diff;         // --diff output
  std::size_t fix_failures = 0;  // files --fix left untouched (each also a QS031 finding)
  Findings applied;         // --fix: the findings whose fixes were written (--show-fixes lists them)
  std::size_t suppressed = 0;  // findings a `# qsel: noqa` comment suppressed
  std::optional<std::string> fixed_text;  // lint - --fix: stdin's text with the fixes applied (for stdout)
  std::size_t errors() const;
  std::size_t warnings() const;

  // Findings counted per code (--statistics): most first, then by code.
  struct CodeCount {
    std::string code, name;
    std::size_t count = 0, fixable = 0;
  };
  std::vector<CodeCount> by_code() const;
};

// Every finding in the paths, filtered by `settings` (no baseline, no fixes).
// `last`: nothing runs after this lint but rendering its report, so its graph
// may be left to the process exit (see core/disposal.h); --fix lints twice and
// frees the first graph before the second is built. `prune`: false keeps every
// record whole until the checks have run (the lint tests compare both ways).
LintReport lint_once(const std::vector<std::string>& paths, const LintSettings& settings, const SchemaSet& schemas,
                     bool last = false, bool prune = true, const FileOverlay* overlay = nullptr);

// The whole run: --fix / --diff / --write-baseline / --baseline included.
LintReport run_lint(const LintRequest& request, const SchemaSet& schemas);

// 0 no errors (warnings too when strict), 1 otherwise.
int lint_exit_code(const LintReport& report, bool strict);

}  // namespace qsel
