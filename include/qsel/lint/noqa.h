// Inline suppression, as ruff's `# noqa`: a YAML comment `# qsel: noqa: QS005, QS012`
// at the end of a line suppresses those codes' findings located on that line (a bare
// `# qsel: noqa` every code there); `# qsel: noqa-file` (or `# qsel: noqa-file: QS005`)
// anywhere in a file suppresses in the whole file. A directive that suppresses nothing
// is a QS046 unused-noqa finding (with a fix that removes exactly the unused part); a
// malformed one, or an unknown code in one, is a QS047 invalid-noqa finding.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "qsel/lint/finding.h"
#include "qsel/lint/settings.h"
#include "qsel/loader/loader.h"

namespace qsel {

// A YAML comment: bytes [begin, end) from its '#' to the end of its line (a CR and
// trailing blanks excluded). A '#' inside a quoted scalar, inside a block scalar
// (`|`, `>`), or not preceded by a blank (`a#b`, a URL's `#fragment`) is not one.
struct YamlComment {
  std::size_t begin = 0, end = 0;
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in characters
};
std::vector<YamlComment> yaml_comments(std::string_view text);

struct NoqaCode {
  std::string code;                // as written, upper-cased
  std::size_t begin = 0, end = 0;  // its bytes in the file
  int column = 0;                  // 1-based character column
  bool known = false;              // a rule code of the registry
};

struct NoqaDirective {
  int line = 0, column = 0;        // of its '#'
  std::size_t begin = 0, end = 0;  // the directive's bytes: its '#' to its last word or code
  bool file_level = false;         // noqa-file
  std::vector<NoqaCode> codes;     // empty: every code (a blanket directive)
  std::string problem;             // non-empty: malformed (it suppresses nothing), and why
  bool is_blanket() const { return codes.empty(); }
};

// Every `# qsel: …` directive in the comments of `text`, in file order.
std::vector<NoqaDirective> noqa_directives(std::string_view text);

// The file's text, by the name findings carry (stdin's overlay in place of the disk).
std::string noqa_file_text(const std::string& file, const FileOverlay* overlay);

// Applies the directives of `files` to `findings` (already filtered by `settings`):
// removes what they suppress and adds QS046/QS047 findings (where `settings` keeps them).
// Returns how many findings were suppressed.
std::size_t apply_noqa(Findings& findings, const std::vector<std::string>& files, const LintSettings& settings,
                       const FileOverlay* overlay);

// The same on one file's text (the unit the above runs per file).
std::size_t apply_noqa_to_file(Findings& findings, const std::string& file, std::string_view text,
                               const LintSettings& settings);

}  // namespace qsel
