// --fix and --diff: edits a file's text at the marked scalar only. Every other
// byte — comments, key order, quoting, blank lines — is left as it was.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qsel/lint/finding.h"
#include "qsel/loader/loader.h"

namespace qsel {

// Byte range [begin, end) of the scalar token written at `at`, quotes included.
struct Span {
  std::size_t begin = 0, end = 0;
};
// The token at `at`, or nothing when `at` is past the text.
std::optional<Span> scalar_span(std::string_view text, Mark at);

// `text` with each fix applied whose token still reads `old_text`; `applied` counts them.
std::string apply_fixes(std::string_view text, std::vector<Fix> fixes, std::size_t& applied);

struct FileEdit {
  std::string file;
  std::string before, after;
  std::size_t fixes = 0;
};
// One edit per file that has fixable findings (nothing is written). Throws
// LintInputError when a file cannot be read. With `overlay` (lint -), only the
// overlay's text is edited and nothing is read from disk.
std::vector<FileEdit> plan_fixes(const Findings& findings, const FileOverlay* overlay = nullptr);
// A file --fix did not write, and why (it is left exactly as it was).
struct FixFailure {
  std::string file, reason;
};
// Writes every edit atomically (a temporary file beside it, fsync, rename),
// keeping mode and owner; refuses a symlink and a file that changed since it
// was linted. Each file ends up untouched or fully fixed; failures are returned.
std::vector<FixFailure> write_edits(const std::vector<FileEdit>& edits);

// A unified diff (3 lines of context) of `before` -> `after`, labelled a/FILE b/FILE.
std::string unified_diff(const std::string& file, std::string_view before, std::string_view after);

}  // namespace qsel
