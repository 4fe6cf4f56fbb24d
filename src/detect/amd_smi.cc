// AMD's tools: rocm-smi (CSV, JSON or its plain "GPU[0] : key: value" log) and
// amd-smi static (an indented key: value tree per GPU).
#include <map>

#include <nlohmann/json.hpp>

#include "detect_text.h"
#include "qsel/detect/gpu_probe.h"

namespace qsel {
namespace {

using namespace detect_text;

// One GPU's fields, keys lower-cased: "card series", "vram total memory (b)", "gfx version".
using Fields = std::map<std::string, std::string>;

// "Arcturus GL-XL [AMD Instinct MI100]" → "AMD Instinct MI100": the bracket holds
// the marketing name when the series is a codename.
std::string marketing_name(std::string_view series) {
  std::size_t open = series.find('['), close = series.rfind(']');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open + 1)
    return std::string(trim(series.substr(open + 1, close - open - 1)));
  return std::string(trim(series));
}

std::string gfx_of(std::string_view v) {
  std::string s = lower(trim(v));
  if (s.size() < 6 || s.size() > 10 || !starts_with(s, "gfx")) return "";
  for (char c : s.substr(3))
    if (!std::isxdigit(static_cast<unsigned char>(c))) return "";
  return s;
}

ReportedGpu from_fields(const std::string& index, const Fields& f, const char* tool) {
  ReportedGpu g;
  g.tool = tool;
  g.index = index;
  auto get = [&](const char* k) -> std::string {
    auto it = f.find(k);
    return it == f.end() ? "" : it->second;
  };
  // Old ROCm prints PCI ids ("0x738c") where the names go: an id is not a name.
  for (const char* k : {"card series", "card model"})
    if (std::string n = marketing_name(get(k)); g.name.empty() && !n.empty() && !starts_with(n, "0x")) g.name = n;
  if (auto bytes = leading_number(get("vram total memory (b)")); bytes) g.memory_mib = *bytes / 1048576.0;
  g.target = gfx_of(get("gfx version"));
  return g;
}

std::vector<ReportedGpu> rocm_csv(const std::vector<std::string_view>& ls) {
  std::vector<ReportedGpu> out;
  std::vector<std::string> columns;
  for (std::string_view line : ls) {
    if (trim(line).empty()) continue;
    auto cells = split(line, ',');
    if (columns.empty()) {
      for (auto c : cells) columns.push_back(lower(c));
      continue;
    }
    if (cells.size() != columns.size()) continue;
    Fields f;
    for (std::size_t i = 1; i < cells.size(); ++i) f[columns[i]] = std::string(cells[i]);
    out.push_back(from_fields(std::string(cells[0]), f, "rocm-smi"));
  }
  return out;
}

std::vector<ReportedGpu> rocm_json(std::string_view text) {
  std::vector<ReportedGpu> out;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return out;
  for (const auto& [card, v] : j.items()) {
    if (!starts_with(card, "card") || !v.is_object()) continue;
    Fields f;
    for (const auto& [k, x] : v.items())
      if (x.is_string()) f[lower(k)] = x.get<std::string>();
    out.push_back(from_fields(card, f, "rocm-smi"));
  }
  return out;
}

// "GPU[0]		: Card series: 		0x738c"
std::vector<ReportedGpu> rocm_plain(const std::vector<std::string_view>& ls) {
  std::map<std::string, Fields> by_gpu;
  std::vector<std::string> order;
  for (std::string_view line : ls) {
    line = trim(line);
    if (!starts_with(line, "GPU[")) continue;
    std::size_t close = line.find(']');
    if (close == std::string_view::npos || close > 8) continue;
    std::string index(line.substr(4, close - 4));
    auto rest = value_after_colon(line.substr(close + 1));
    if (!rest) continue;
    std::size_t colon = rest->find(':');
    if (colon == std::string_view::npos) continue;
    if (!by_gpu.count(index)) order.push_back(index);
    by_gpu[index][lower(trim(rest->substr(0, colon)))] = std::string(trim(rest->substr(colon + 1)));
  }
  std::vector<ReportedGpu> out;
  for (const auto& i : order) out.push_back(from_fields(i, by_gpu[i], "rocm-smi"));
  return out;
}

}  // namespace

std::vector<ReportedGpu> parse_rocm_smi(std::string_view text) {
  std::string_view t = trim(text);
  if (starts_with(t, "{")) return rocm_json(t);
  auto ls = lines(t);
  if (!ls.empty() && starts_with(lower(ls[0]), "device,")) return rocm_csv(ls);
  return rocm_plain(ls);
}

std::vector<ReportedGpu> parse_amd_smi_static(std::string_view text) {
  std::vector<ReportedGpu> out;
  std::string section;
  for (std::string_view raw : lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty()) continue;
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string key = lower(trim(line.substr(0, colon)));
    std::string_view value = trim(line.substr(colon + 1));
    bool top = !raw.empty() && !std::isspace(static_cast<unsigned char>(raw[0]));
    if (top && key == "gpu") {
      ReportedGpu g;
      g.tool = "amd-smi";
      g.index = std::string(value);
      out.push_back(std::move(g));
      section.clear();
      continue;
    }
    if (out.empty()) continue;
    if (value.empty()) {
      section = key;
      continue;
    }
    ReportedGpu& g = out.back();
    if (key == "market_name") g.name = marketing_name(value);
    else if (key == "target_graphics_version") g.target = gfx_of(value);
    else if (section == "vram" && key == "size") {
      std::string_view unit;
      if (auto v = leading_number(value, &unit); v && (lower(unit) == "mb" || lower(unit) == "mib")) g.memory_mib = *v;  // amd-smi's "MB" is MiB
    }
  }
  std::erase_if(out, [](const ReportedGpu& g) { return g.name.empty() && g.target.empty(); });
  return out;
}

}  // namespace qsel
