// Source lines for findings: `qsel lint` shows the offending line under each
// finding with a position. The lookup lives here, in the lint layer, so that
// renderers only format what a finding carries.
#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

#include "qsel/lint/finding.h"
#include "qsel/loader/loader.h"

namespace qsel {

// At most this many characters of a line are kept, centred on the column.
constexpr std::size_t kSnippetChars = 200;

// The snippet for `column` (1-based, in characters) of `line` (one line of a
// file, with or without its "\r"): the whole line, or a window of `max_chars`
// characters around the column when the line is longer. A byte that is not
// valid UTF-8 counts as one character, as the loader's marks count it.
Snippet snippet_of_line(std::string_view line, int column, std::size_t max_chars = kSnippetChars);

// Fills `snippet` for every finding with a position, reading each file once;
// a file that cannot be read (gone, too large, not a file) gives none.
// `overlay`: that file's text is taken from it, not from the disk.
void attach_snippets(Findings& findings, const FileOverlay* overlay = nullptr);

}  // namespace qsel
