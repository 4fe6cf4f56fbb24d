#include "qsel/detect/host_ram.h"

#include <cctype>

#include "qsel/core/errors.h"
#include "qsel/core/run_command.h"
#include "qsel/core/text_file.h"

namespace qsel {

std::optional<double> parse_meminfo_total_gb(std::string_view text) {
  constexpr std::string_view key = "MemTotal:";
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    std::string_view line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    at = end == std::string_view::npos ? text.size() : end + 1;
    if (line.substr(0, key.size()) != key) continue;
    std::size_t i = key.size();
    while (i < line.size() && line[i] == ' ') ++i;
    std::size_t digits = 0;
    double kib = 0;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) && digits < 15) {
      kib = kib * 10 + (line[i] - '0');
      ++i;
      ++digits;
    }
    while (i < line.size() && line[i] == ' ') ++i;
    if (digits == 0 || line.substr(i) != "kB") return std::nullopt;
    double gb = kib * 1024 / 1e9;
    if (gb < 1 || gb > 64000) return std::nullopt;
    return gb;
  }
  return std::nullopt;
}

std::optional<double> parse_sysctl_memsize_gb(std::string_view text) {
  std::size_t i = text.find("hw.memsize");
  i = i == std::string_view::npos ? 0 : i + std::string_view("hw.memsize").size();
  while (i < text.size() && (text[i] == ':' || text[i] == ' ' || text[i] == '=')) ++i;
  std::size_t digits = 0;
  double bytes = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits < 18) {
    bytes = bytes * 10 + (text[i] - '0');
    ++i;
    ++digits;
  }
  if (digits == 0 || (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))) return std::nullopt;
  double gb = bytes / 1e9;
  if (gb < 1 || gb > 64000) return std::nullopt;
  return gb;
}

std::optional<double> installed_ram_gb(const std::string& path) {
  try {
    return parse_meminfo_total_gb(read_text_file(path, 1 << 20, "meminfo"));
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

std::optional<InstalledRam> detect_installed_ram(int timeout_ms) {
  if (auto gb = installed_ram_gb()) return InstalledRam{*gb, "/proc/meminfo"};
  CommandOptions o;
  o.timeout_ms = timeout_ms;
  auto r = run_command({"sysctl", "-n", "hw.memsize"}, o);
  if (!r || r->timed_out || r->truncated) return std::nullopt;
  if (auto gb = parse_sysctl_memsize_gb(r->out)) return InstalledRam{*gb, "sysctl hw.memsize"};
  return std::nullopt;
}

}  // namespace qsel