// Aligned text tables and wrapped text for a terminal of a given width. Cells may
// carry ANSI colour; widths count visible characters (UTF-8 code points).
#pragma once
#include <string>
#include <vector>

namespace qsel {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }
  // A column fit() may cut (its cells marked "…"), to no fewer than `min` characters.
  struct Shrink {
    std::size_t column, min;
  };
  // Fit the table, rendered with `indent`, in `width` columns: leave out the
  // columns of `drop` (indexes, in that order) while it is wider, then cut the
  // columns of `shrink` in turn. A table that still does not fit is left wider.
  // Nothing is fitted without a call.
  void fit(std::size_t width, std::size_t indent, std::vector<std::size_t> drop, std::vector<Shrink> shrink);
  // Fit the table, rendered with `indent`, in `width` columns by wrapping cells at
  // spaces over several lines: the widest column narrows first, none below its
  // longest word or `min` characters; the first column keeps nine in ten of its
  // words whole and takes at most a third of the width (a longer id there sits
  // alone on its line, the row going on under it).
  // While that is still wider, leave out the columns of `drop` in order (dropped()
  // names them, wrap_width() says from how many columns all are shown). Nothing
  // is cut; a table of long words stays wider. Use it or fit(), not both.
  void wrap_to(std::size_t width, std::size_t indent, std::vector<std::size_t> drop = {}, std::size_t min = 8);
  // The narrowest width wrap_to() fits every column in (0 before wrap_to()).
  std::size_t wrap_width() const { return wrap_width_; }
  // Columns the whole table takes, rendered with `indent`, before fit().
  std::size_t natural_width(std::size_t indent) const;
  // The header names of the columns fit() left out.
  std::vector<std::string> dropped() const;
  // `indent` spaces before each line; the last column is never padded.
  std::string render(std::size_t indent = 0, bool show_header = true) const;

 private:
  std::vector<std::size_t> widths(bool show_header) const;
  // Columns the rendered table takes: as fit() left it (`fitted`), or whole.
  std::size_t span(std::size_t indent, bool fitted) const;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> hidden_;
  std::vector<std::size_t> cut_;  // per column: the width fit() cut it to, 0 when whole
  std::vector<std::size_t> wrap_;  // per column: the width wrap_to() wraps it at, 0 when whole
  std::size_t wrap_width_ = 0;
  // Wraps the shown columns for `width`; the width the table then takes.
  std::size_t wrap_shown(std::size_t width, std::size_t indent, std::size_t min);
};

// Characters a terminal shows for `s` (UTF-8 code points, ANSI escapes excluded).
std::size_t visible_width(const std::string& s);
// `s` cut to `width` visible characters, the last one "…" when cut.
std::string cut_visible(const std::string& s, std::size_t width);
// `text` in lines of at most `width` visible characters, broken at spaces; the
// first line starts with `first`, the others with `rest` (a hanging indent). A
// word longer than a line stays whole.
std::string wrap(const std::string& text, std::size_t width, const std::string& first, const std::string& rest);
// `text` with every line wider than `width` broken at spaces by wrap(): a line
// continues under the text after its label (the first gap of two spaces or more
// past its indent, when that is in the first half of the width), else under its
// indent, two more after a "- " or "* " bullet. What precedes the hanging indent is
// kept as it is. Lines inside ``` fences and lines that fit are left alone; a word
// longer than a line stays whole (a URL, a path), and a line whose only word past
// the width would not fit a line of its own either is left as it is. The one rule
// that fits prose, labelled lines and --help to the terminal.
std::string fit_lines(const std::string& text, std::size_t width);

}  // namespace qsel
