#include "qsel/detect/host_ram.h"

#include <cctype>

#include "qsel/core/errors.h"
#include "qsel/core/run_command.h"
#include "qsel/core/text_file.h"

namespace qsel {
namespace {

// The run of at most `max_digits` decimal digits at text[i], advancing i past it;
// nothing when there is none.
std::optional<double> digits_at(std::string_view text, std::size_t& i, std::size_t max_digits) {
  std::size_t digits = 0;
  double v = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits < max_digits) {
    v = v * 10 + (text[i] - '0');
    ++i;
    ++digits;
  }
  return digits == 0 ? std::nullopt : std::optional<double>(v);
}

// Installed RAM a machine can have: 1 GB to 64 TB.
std::optional<double> plausible_gb(double gb) { return gb < 1 || gb > 64000 ? std::nullopt : std::optional<double>(gb); }

}  // namespace

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
    std::optional<double> kib = digits_at(line, i, 15);
    while (i < line.size() && line[i] == ' ') ++i;
    if (!kib || line.substr(i) != "kB") return std::nullopt;
    return plausible_gb(*kib * 1024 / 1e9);
  }
  return std::nullopt;
}

std::optional<double> parse_sysctl_memsize_gb(std::string_view text) {
  std::size_t i = text.find("hw.memsize");
  i = i == std::string_view::npos ? 0 : i + std::string_view("hw.memsize").size();
  while (i < text.size() && (text[i] == ':' || text[i] == ' ' || text[i] == '=')) ++i;
  std::optional<double> bytes = digits_at(text, i, 18);
  if (!bytes || (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))) return std::nullopt;
  return plausible_gb(*bytes / 1e9);
}

std::optional<double> installed_ram_gb(const std::string& path) {
  try {
    return parse_meminfo_total_gb(read_stream_file(path, 1 << 20, "meminfo"));  // a /proc file says its size is 0
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