// Aligned text tables. Cells may carry ANSI colour; widths count visible characters.
#pragma once
#include <string>
#include <vector>

namespace qsel {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }
  // `indent` spaces before each line; the last column is never padded.
  std::string render(std::size_t indent = 0, bool show_header = true) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// Characters a terminal shows for `s` (UTF-8 code points, ANSI escapes excluded).
std::size_t visible_width(const std::string& s);

}  // namespace qsel
