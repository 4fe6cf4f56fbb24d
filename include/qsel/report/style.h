// Terminal styling: ANSI colour when writing to a TTY, nothing otherwise.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace qsel {

struct Style {
  bool color = false;
  std::size_t width = 100;  // columns the text output fits in (terminal_width)
  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string red(std::string_view s) const { return wrap("31", s); }
  std::string green(std::string_view s) const { return wrap("32", s); }
  std::string yellow(std::string_view s) const { return wrap("33", s); }
  std::string cyan(std::string_view s) const { return wrap("36", s); }

 private:
  std::string wrap(const char* code, std::string_view s) const {
    if (!color || s.empty()) return std::string(s);
    return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
  }
};

// Whether to colour: `mode` is --color's value. "always" and "never" win;
// "auto" is off when NO_COLOR is set (non-empty), on when FORCE_COLOR is set
// (non-empty, not "0"), off for TERM=dumb, else on exactly when `is_tty`.
bool want_color(const std::string& mode, bool is_tty, const char* no_color, const char* force_color, const char* term);
// The same, reading the environment and whether `fd` is a terminal.
bool want_color(const std::string& mode, int fd);

}  // namespace qsel

namespace qsel {

// Columns to fit text output in: COLUMNS when it is a number (held to 40-1000),
// else the terminal's width when `fd` is one, else 100 (a file, a pipe, a test).
std::size_t terminal_width(const char* columns, int fd);

}  // namespace qsel
