#include "qsel/lint/snippet.h"

#include <algorithm>
#include <map>
#include <vector>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/core/text_file.h"
#include "qsel/loader/yaml_reader.h"

namespace qsel {
namespace {

// Bytes in the character at `i`: a valid UTF-8 sequence, else one byte.
std::size_t char_length(std::string_view s, std::size_t i) {
  return utf8_at(s, i).length;
}

// Walks a line's characters forward, so that many findings on one long line
// (sorted by column) cost one pass over it, not one each.
class CharCursor {
 public:
  explicit CharCursor(std::string_view s) : s_(s) {}
  std::size_t byte_of(std::size_t n) {  // offset of character n (the line's size past the end)
    if (n < n_) i_ = n_ = 0;
    for (; n_ < n && i_ < s_.size(); ++n_) i_ += char_length(s_, i_);
    return i_;
  }
 private:
  std::string_view s_;
  std::size_t i_ = 0, n_ = 0;
};

// One line with its length in characters and cursors for the window's ends.
std::string_view without_cr(std::string_view l) { return !l.empty() && l.back() == '\r' ? l.substr(0, l.size() - 1) : l; }

struct LineWalk {
  explicit LineWalk(std::string_view l) : line(without_cr(l)), begin(line), end(line) {
    for (std::size_t i = 0; i < line.size(); i += char_length(line, i)) ++chars;
  }
  std::string_view line;
  std::size_t chars = 0;
  CharCursor begin, end;
};

Snippet cut(LineWalk& w, int column, std::size_t max_chars) {
  Snippet s;
  s.column = column;
  if (w.chars <= max_chars) {  // short enough: the whole line
    s.text = std::string(w.line);
    return s;
  }
  // A window of max_chars characters with the column in its middle, moved
  // inwards at either end of the line.
  std::size_t at = column > 1 ? static_cast<std::size_t>(column - 1) : 0;
  std::size_t first = at > max_chars / 2 ? at - max_chars / 2 : 0;
  first = std::min(first, w.chars - max_chars);
  std::size_t begin = w.begin.byte_of(first), end = w.end.byte_of(first + max_chars);
  s.text = std::string(w.line.substr(begin, end - begin));
  s.column = column - static_cast<int>(first);
  s.cut_before = first > 0;
  s.cut_after = end < w.line.size();
  return s;
}

}  // namespace

Snippet snippet_of_line(std::string_view line, int column, std::size_t max_chars) {
  LineWalk w(line);
  return cut(w, column, max_chars);
}

void attach_snippets(Findings& findings, const FileOverlay* overlay) {
  std::map<std::string, std::vector<Finding*>> by_file;
  for (Finding& f : findings)
    if (f.mark.known() && !f.file.empty()) by_file[f.file].push_back(&f);
  for (auto& [file, list] : by_file) {
    std::string text;
    if (overlay && overlay->is(file)) {
      text = overlay->text.substr(0, kMaxRecordFileBytes);
    } else {
      try {
        text = read_text_file(file, kMaxRecordFileBytes, "record file");
      } catch (const UsageError&) {
        continue;  // gone, unreadable or not a file: the finding stands without its line
      }
    }
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts.push_back(i + 1);
    std::stable_sort(list.begin(), list.end(), [](const Finding* a, const Finding* b) {
      return a->mark.line != b->mark.line ? a->mark.line < b->mark.line : a->mark.column < b->mark.column;
    });
    std::string_view all = text;
    std::optional<LineWalk> walk;
    int walk_line = 0;
    for (Finding* f : list) {
      auto n = static_cast<std::size_t>(f->mark.line);
      if (n > starts.size()) continue;
      if (walk_line != f->mark.line) {
        std::size_t from = starts[n - 1];
        std::size_t to = n < starts.size() ? starts[n] - 1 : all.size();
        walk.emplace(all.substr(from, to - from));
        walk_line = f->mark.line;
      }
      f->snippet = cut(*walk, f->mark.column, kSnippetChars);
    }
  }
}

}  // namespace qsel
