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
};

// Characters a terminal shows for `s` (UTF-8 code points, ANSI escapes excluded).
std::size_t visible_width(const std::string& s);
// `s` cut to `width` visible characters, the last one "…" when cut.
std::string cut_visible(const std::string& s, std::size_t width);
// `text` in lines of at most `width` visible characters, broken at spaces; the
// first line starts with `first`, the others with `rest` (a hanging indent). A
// word longer than a line stays whole.
std::string wrap(const std::string& text, std::size_t width, const std::string& first, const std::string& rest);

}  // namespace qsel
