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

namespace {

// The lines wrap() breaks `text` into, without their line ends.
std::vector<std::string> wrapped_lines(const std::string& text, std::size_t width) {
  std::vector<std::string> out;
  std::string all = wrap(text, width, "", "");
  for (std::size_t at = 0, end; (end = all.find('\n', at)) != std::string::npos; at = end + 1) out.push_back(all.substr(at, end - at));
  return out;
}

// Visible columns of the longest space-separated word of `text`.
std::size_t longest_word(const std::string& text) {
  std::size_t most = 0;
  for (std::size_t i = 0; i <= text.size();) {
    std::size_t j = std::min(text.find(' ', i), text.size());
    most = std::max(most, visible_width(text.substr(i, j - i)));
    i = j + 1;
  }
  return most;
}

std::string fit_line(const std::string& line, std::size_t width) {
  if (visible_width(line) <= width) return line + "\n";
  std::size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos) return line + "\n";
  std::size_t body = lead, hang = lead;
  std::size_t gap = line.find("  ", lead);
  std::size_t after = gap == std::string::npos ? std::string::npos : line.find_first_not_of(' ', gap);
  if (after != std::string::npos && visible_width(line.substr(0, after)) <= width / 2) {
    body = after;
    hang = visible_width(line.substr(0, after));
  } else if (line.compare(lead, 2, "- ") == 0 || line.compare(lead, 2, "* ") == 0) {
    body = lead + 2;
    hang = lead + 2;
  }
  // Only a last word runs past, and it would not fit a line of its own either (a URL,
  // a path): breaking before it gains nothing.
  std::size_t at = 0;
  for (std::size_t n = 0; at < line.size(); ++at) {
    if (line[at] == '\x1b') {
      while (at < line.size() && line[at] != 'm') ++at;
      continue;
    }
    if ((static_cast<unsigned char>(line[at]) & 0xC0) != 0x80 && n++ == width) break;
  }
  if (line.find(' ', at) == std::string::npos) {
    std::size_t start = line.rfind(' ', at);
    start = start == std::string::npos ? 0 : start + 1;
    if (start <= body || hang + visible_width(line.substr(start)) > width) return line + "\n";
  }
  return wrap(line.substr(body), width, line.substr(0, body), std::string(hang, ' '));
}

}  // namespace

std::string fit_lines(const std::string& text, std::size_t width) {
  std::string out;
  bool fenced = false;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    bool last = end == std::string::npos;
    std::string line = text.substr(at, last ? std::string::npos : end - at);
    std::size_t lead = line.find_first_not_of(' ');
    bool fence = lead != std::string::npos && line.compare(lead, 3, "```") == 0;
    std::string fitted = fenced || fence ? line + "\n" : fit_line(line, width);
    if (fence) fenced = !fenced;
    if (last) fitted.pop_back();  // the text's last line had no line end
    out += fitted;
    at = last ? text.size() : end + 1;
  }
  return out;
}

void Table::wrap_to(std::size_t width, std::size_t indent, std::vector<std::size_t> drop, std::size_t min) {
  hidden_.assign(header_.size(), false);
  // The narrowest width every column fits in, wrapped: a binary search between the
  // columns' floors and their natural width.
  std::size_t lo = 1, hi = std::max<std::size_t>(1, span(indent, false));
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    if (wrap_shown(mid, indent, min) <= mid) hi = mid;
    else lo = mid + 1;
  }
  wrap_width_ = lo;
  std::size_t taken = wrap_shown(width, indent, min);
  for (std::size_t c : drop) {
    if (taken <= width) break;
    if (c >= hidden_.size()) continue;
    hidden_[c] = true;
    taken = wrap_shown(width, indent, min);
  }
}

std::size_t Table::wrap_shown(std::size_t width, std::size_t indent, std::size_t min) {
  std::vector<std::size_t> cur = widths(true), floor(cur.size(), 0);
  wrap_.assign(header_.size(), 0);
  auto shown = [&](std::size_t c) { return hidden_.empty() || !hidden_[c]; };
  std::size_t first = 0;
  while (first < cur.size() && !shown(first)) ++first;
  for (std::size_t c = 0; c < cur.size(); ++c) {
    if (c < cut_.size() && cut_[c] > 0) cur[c] = std::min(cur[c], cut_[c]);
    std::vector<std::size_t> words{longest_word(header_[c])};
    for (const auto& r : rows_)
      if (c < r.size()) words.push_back(longest_word(r[c]));
    std::sort(words.begin(), words.end());
    std::size_t word = words.back();
    // The first column's long words sit alone on their lines: it takes nine in ten
    // whole, and no more than a third of the width.
    if (c == first) word = std::min(words[words.size() * 9 / 10], std::max(min, (width > indent ? width - indent : 0) / 3));
    floor[c] = std::min(cur[c], std::max(min, word));
  }
  auto total = [&] {
    std::size_t t = indent, n = 0;
    for (std::size_t c = 0; c < cur.size(); ++c)
      if (shown(c)) t += cur[c], ++n;
    return t + (n > 0 ? 2 * (n - 1) : 0);
  };
  for (std::size_t t = total(); t > width; t = total()) {
    std::size_t widest = cur.size(), second = 0;
    for (std::size_t c = 0; c < cur.size(); ++c) {
      if (!shown(c) || cur[c] <= floor[c]) continue;
      if (widest == cur.size() || cur[c] > cur[widest]) widest = c;
    }
    if (widest == cur.size()) break;
    for (std::size_t c = 0; c < cur.size(); ++c)
      if (shown(c) && c != widest) second = std::max(second, cur[c]);
    std::size_t target = std::max({floor[widest], second, cur[widest] - std::min(cur[widest], t - width)});
    if (target >= cur[widest]) target = cur[widest] - 1;
    cur[widest] = target;
    wrap_[widest] = target;
  }
  return total();
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
  auto cut = [&](std::size_t c) { return c < cut_.size() && cut_[c] > 0; };
  auto wrapped = [&](std::size_t c) { return c < wrap_.size() && wrap_[c] > 0; };
  for (std::size_t c = 0; c < width.size(); ++c) {
    if (cut(c)) width[c] = std::min(width[c], cut_[c]);
    if (wrapped(c)) width[c] = std::min(width[c], wrap_[c]);
  }
  std::string out;
  auto line = [&](const std::vector<std::string>& row) {
    // Each cell as its lines: cut to one, wrapped to several, or whole.
    std::vector<std::vector<std::string>> cells(row.size());
    std::size_t height = 1;
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      if (!hidden_.empty() && hidden_[c]) continue;
      cells[c] = cut(c) ? std::vector<std::string>{cut_visible(row[c], cut_[c])}
                 : wrapped(c) && visible_width(row[c]) > wrap_[c] ? wrapped_lines(row[c], wrap_[c])
                                                                 : std::vector<std::string>{row[c]};
      height = std::max(height, cells[c].size());
    }
    // A first-column line wider than its column (one long word) sits alone; the row goes on under it.
    std::size_t first = 0;
    while (first < row.size() && !hidden_.empty() && hidden_[first]) ++first;
    if (first < row.size() && first < width.size() && row.size() > first + 1 && !cells[first].empty() &&
        visible_width(cells[first][0]) > width[first]) {
      out += std::string(indent, ' ') + cells[first][0] + "\n";
      cells[first].erase(cells[first].begin());
      height = 1;
      for (const auto& cell : cells) height = std::max(height, cell.size());
    }
    for (std::size_t k = 0; k < height; ++k) {
      std::string l(indent, ' ');
      for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
        if (!hidden_.empty() && hidden_[c]) continue;
        std::string text = k < cells[c].size() ? cells[c][k] : "";
        l += text;
        if (c + 1 < row.size()) l += std::string(width[c] - std::min(width[c], visible_width(text)) + 2, ' ');
      }
      while (!l.empty() && l.back() == ' ') l.pop_back();
      out += l + "\n";
    }
  };
  if (show_header) line(header_);
  for (const auto& r : rows_) line(r);
  return out;
}

}  // namespace qsel
