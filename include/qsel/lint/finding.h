// A lint finding: one located problem with its rule code, plus the mechanical
// fix when the rule can make one. Findings are data; renderers print them.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "qsel/core/problem.h"

namespace qsel {

// Replace the scalar written at `at` — whose source text must read `old_text`
// (quotes excluded) — with `new_text`. Nothing else in the file changes.
// `verbatim` (QS046's fixes, which edit comments): replace exactly the bytes
// `old_text` found at `at`, whatever token they are part of.
struct Fix {
  Mark at;
  std::string old_text;
  std::string new_text;
  bool verbatim = false;
};

// The source line a finding points into, looked up by the linter (renderers
// read no files): the line without its line break, or, when the line is long,
// a window of it around the column.
struct Snippet {
  std::string text;         // raw bytes from the file: escape before printing
  int column = 0;           // 1-based character column of the finding within `text`
  bool cut_before = false;  // the line goes on before `text`
  bool cut_after = false;   // and after it
};

struct Finding {
  std::string code;     // "QS004"
  std::string name;     // "kquant-group-size"
  Severity severity = Severity::Error;
  std::string file;     // as shown to the user
  Mark mark;            // the offending value
  std::string record;   // record id when known
  std::string message;  // one line, no location prefix
  std::optional<Fix> fix;
  std::optional<Snippet> snippet;  // for findings with a position in a readable file
};

using Findings = std::vector<Finding>;

const char* severity_name(Severity s);  // "error" | "warning"

// Sorted by file, line, column, code: the order every renderer prints.
void sort_findings(Findings& findings);

}  // namespace qsel
