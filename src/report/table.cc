#include "qsel/report/table.h"

#include <algorithm>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
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

std::size_t terminal_width(const char* columns, int fd) {
  if (columns && *columns) {
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(columns, &end, 10);
    if (errno == 0 && end && *end == '\0' && v > 0) return static_cast<std::size_t>(std::clamp(v, 40L, 1000L));
  }
  struct winsize ws {};
  if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return std::clamp<std::size_t>(ws.ws_col, 40, 1000);
  return 100;
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

std::string cut_visible(const std::string& s, std::size_t width) {
  if (visible_width(s) <= width) return s;
  if (width == 0) return "";
  std::string out;
  std::size_t n = 0;
  bool styled = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      std::size_t end = s.find('m', i);
      end = end == std::string::npos ? s.size() - 1 : end;
      out += s.substr(i, end - i + 1);
      styled = true;
      i = end;
      continue;
    }
    bool starts = (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
    if (starts && ++n == width) break;
    out += s[i];
  }
  return out + "…" + (styled ? "\x1b[0m" : "");
}

std::string wrap(const std::string& text, std::size_t width, const std::string& first, const std::string& rest) {
  std::string out, line = first;
  std::size_t used = visible_width(first);
  bool empty_line = true;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    std::string word = text.substr(i, j - i);
    i = j + 1;
    if (word.empty()) continue;
    std::size_t w = visible_width(word);
    if (!empty_line && used + 1 + w > width) {
      out += line + "\n";
      line = rest;
      used = visible_width(rest);
      empty_line = true;
    }
    if (!empty_line) line += ' ', ++used;
    line += word;
    used += w;
    empty_line = false;
  }
  return out + line + "\n";
}

void Table::fit(std::size_t width, std::size_t indent, std::vector<std::size_t> drop, std::vector<Shrink> shrink) {
  hidden_.assign(header_.size(), false);
  cut_.assign(header_.size(), 0);
  auto total = [&] { return span(indent, true); };
  auto shrinking = [&](std::size_t c) {
    return std::any_of(shrink.begin(), shrink.end(), [c](const Shrink& s) { return s.column == c; });
  };
  for (std::size_t c : drop) {
    if (total() <= width) break;
    if (c < hidden_.size() && !shrinking(c)) hidden_[c] = true;
  }
  for (const auto& s : shrink) {
    std::size_t t = total();
    if (t <= width) break;
    if (s.column >= header_.size()) continue;
    std::size_t w = widths(true)[s.column];
    cut_[s.column] = std::max(s.min, w - std::min(w, t - width));
  }
}

std::size_t Table::natural_width(std::size_t indent) const { return span(indent, false); }

std::size_t Table::span(std::size_t indent, bool fitted) const {
  std::vector<std::size_t> w = widths(true);
  std::size_t t = indent, shown = 0;
  for (std::size_t c = 0; c < w.size(); ++c) {
    if (fitted && c < hidden_.size() && hidden_[c]) continue;
    t += fitted && c < cut_.size() && cut_[c] > 0 ? std::min(w[c], cut_[c]) : w[c];
    ++shown;
  }
  return t + (shown > 0 ? 2 * (shown - 1) : 0);
}

std::vector<std::string> Table::dropped() const {
  std::vector<std::string> out;
  for (std::size_t c = 0; c < hidden_.size(); ++c)
    if (hidden_[c]) out.push_back(header_[c]);
  return out;
}

std::vector<std::size_t> Table::widths(bool show_header) const {
  std::vector<std::size_t> width(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], visible_width(row[c]));
  };
  if (show_header) measure(header_);
  for (const auto& r : rows_) measure(r);
  return width;
}

std::string Table::render(std::size_t indent, bool show_header) const {
  std::vector<std::size_t> width = widths(show_header);
  auto cell = [&](const std::vector<std::string>& row, std::size_t c) {
    return c < cut_.size() && cut_[c] > 0 ? cut_visible(row[c], cut_[c]) : row[c];
  };
  for (std::size_t c = 0; c < cut_.size() && c < width.size(); ++c)
    if (cut_[c] > 0) width[c] = std::min(width[c], cut_[c]);
  std::string out;
  auto line = [&](const std::vector<std::string>& row) {
    std::string l(indent, ' ');
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      if (!hidden_.empty() && hidden_[c]) continue;
      std::string text = cell(row, c);
      l += text;
      if (c + 1 < row.size()) l += std::string(width[c] - std::min(width[c], visible_width(text)) + 2, ' ');
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  if (show_header) line(header_);
  for (const auto& r : rows_) line(r);
  return out;
}

}  // namespace qsel
