#include "qsel/report/table.h"

#include <algorithm>
#include <unistd.h>
#include <cstdlib>
#include <string>

#include "qsel/report/style.h"

namespace qsel {

bool want_color(const std::string& mode, bool is_tty, const char* no_color, const char* force_color, const char* term) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (no_color && *no_color) return false;
  if (force_color && *force_color && std::string(force_color) != "0") return true;
  if (term && std::string(term) == "dumb") return false;
  return is_tty;
}

bool want_color(const std::string& mode, int fd) {
  return want_color(mode, isatty(fd) != 0, std::getenv("NO_COLOR"), std::getenv("FORCE_COLOR"), std::getenv("TERM"));
}

std::size_t visible_width(const std::string& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string Table::render(std::size_t indent, bool show_header) const {
  std::vector<std::size_t> width(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], visible_width(row[c]));
  };
  if (show_header) measure(header_);
  for (const auto& r : rows_) measure(r);
  std::string out;
  auto line = [&](const std::vector<std::string>& row) {
    std::string l(indent, ' ');
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      l += row[c];
      if (c + 1 < row.size()) l += std::string(width[c] - visible_width(row[c]) + 2, ' ');
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  if (show_header) line(header_);
  for (const auto& r : rows_) line(r);
  return out;
}

}  // namespace qsel
