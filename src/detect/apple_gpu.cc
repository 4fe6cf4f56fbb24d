// macOS: the Apple-silicon GPU is the chip (sysctl's brand string, or
// system_profiler's "Chip:"), its memory the unified memory (hw.memsize or
// "Memory: 16 GB"); an Intel Mac's discrete GPU is a "Chipset Model" with "VRAM (Total)".
#include "detect_text.h"
#include "qsel/detect/gpu_probe.h"

namespace qsel {
namespace {

using namespace detect_text;

// "Apple M1 Pro" → "apple-m1"; empty unless the name is an Apple M-series chip.
std::string apple_target(std::string_view chip) {
  std::string s = lower(trim(chip));
  if (!starts_with(s, "apple m") || s.size() < 8 || !std::isdigit(static_cast<unsigned char>(s[7]))) return "";
  std::size_t end = 7;
  while (end < s.size() && end < 9 && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
  if (end < s.size() && s[end] != ' ') return "";
  return "apple-m" + s.substr(7, end - 7);
}

// "16 GB" → MiB (Apple's GB here is GiB: unified memory is binary-sized).
double mib_of_label(std::string_view v) {
  std::string_view unit;
  auto n = leading_number(v, &unit);
  if (!n) return 0;
  std::string u = lower(unit);
  if (u == "gb" || u == "gib") return *n * 1024;
  if (u == "tb") return *n * 1024 * 1024;
  if (u == "mb" || u == "mib") return *n;
  return 0;
}

}  // namespace

std::vector<ReportedGpu> parse_apple(std::string_view sysctl, std::string_view profiler) {
  std::string brand;
  double memsize_mib = 0;
  for (std::string_view line : lines(sysctl)) {
    auto v = value_after_colon(line);
    if (!v) continue;
    std::string key = lower(trim(line.substr(0, line.find(':'))));
    if (key == "machdep.cpu.brand_string") brand = std::string(*v);
    else if (key == "hw.memsize")
      if (auto b = leading_number(*v); b) memsize_mib = *b / 1048576.0;
  }
  std::string chip;
  double memory_mib = 0;
  std::vector<ReportedGpu> discrete;
  for (std::string_view line : lines(profiler)) {
    auto v = value_after_colon(line);
    if (!v) continue;
    std::string key = lower(trim(line.substr(0, line.find(':'))));
    if (key == "chip") chip = std::string(*v);
    else if (key == "memory") memory_mib = mib_of_label(*v);
    else if (key == "chipset model" && apple_target(*v).empty()) {
      ReportedGpu g;
      g.tool = "system_profiler";
      g.index = std::to_string(discrete.size());
      g.name = std::string(*v);
      discrete.push_back(std::move(g));
    } else if ((key == "vram (total)" || key == "vram") && !discrete.empty() && discrete.back().memory_mib == 0) {
      discrete.back().memory_mib = mib_of_label(*v);
    }
  }
  std::vector<ReportedGpu> out;
  bool brand_names_chip = !apple_target(brand).empty();
  if (brand_names_chip || !apple_target(chip).empty()) {
    ReportedGpu g;
    g.tool = brand_names_chip ? "sysctl" : "system_profiler";
    g.index = "0";
    g.name = brand_names_chip ? brand : chip;
    g.memory_mib = memsize_mib > 0 ? memsize_mib : memory_mib;
    g.target = apple_target(g.name);
    out.push_back(std::move(g));
    return out;
  }
  for (auto& g : discrete)
    if (g.memory_mib > 0) out.push_back(std::move(g));  // integrated Intel graphics report no VRAM (Total)
  return out;
}

}  // namespace qsel
