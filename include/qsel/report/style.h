// Terminal styling: ANSI colour when writing to a TTY, nothing otherwise.
#pragma once
#include <string>
#include <string_view>

namespace qsel {

struct Style {
  bool color = false;
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

// Colour only for a terminal, never when NO_COLOR is set or --no-color given.
bool want_color(int fd, bool no_color_flag);

}  // namespace qsel
