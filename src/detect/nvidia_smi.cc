// nvidia-smi output: the CSV of --query-gpu, and the plain table older drivers
// (without the compute_cap field) fall back to. A GPU comes only from a line of
// exactly the shape nvidia-smi prints, every field it names well-formed (a table
// row needs its Bus-Id and persistence mode too); output
// that is mostly something else (500 KB of random bytes once read as four GPUs)
// is not read at all.
#include <algorithm>

#include "detect_text.h"
#include "qsel/detect/gpu_probe.h"

namespace qsel {
namespace {

using namespace detect_text;

// "24576 MiB", "24576", "[N/A]" → MiB (0 when not a number).
double mib_of(std::string_view field) {
  std::string_view unit;
  auto v = leading_number(field, &unit);
  if (!v) return 0;
  std::string u = lower(unit);
  if (u.empty() || u == "mib" || u == "mb") return *v;
  if (u == "gib" || u == "gb") return *v * 1024;
  return 0;
}

bool has_letter(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// A header cell without its unit hint: "memory.total [MiB]" → "memory.total".
std::string column_key(std::string_view cell) {
  std::string k = lower(trim(cell.substr(0, cell.find('['))));
  return k;
}

bool digits(std::string_view s, std::size_t min, std::size_t max) {
  return s.size() >= min && s.size() <= max && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool not_available(std::string_view cell) { return cell == "[N/A]" || cell == "N/A" || cell == "[Not Supported]" || cell == "Not Supported"; }

// A product name as nvidia-smi prints one: printable ASCII, a letter, at most 96 characters.
bool gpu_name(std::string_view s) {
  return !s.empty() && s.size() <= 96 && has_letter(s) &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

// "24576 MiB", "24576" (nounits), or not available.
bool memory_cell(std::string_view cell) {
  if (not_available(cell)) return true;
  if (cell.ends_with(" MiB")) cell.remove_suffix(4);
  return digits(cell, 1, 9);
}

// "8.6", "12.0", or not available.
bool compute_cap_cell(std::string_view cell) {
  if (not_available(cell)) return true;
  std::size_t dot = cell.find('.');
  return dot != std::string_view::npos && digits(cell.substr(0, dot), 1, 2) && digits(cell.substr(dot + 1), 1, 2);
}

bool well_formed(const std::vector<std::string>& columns, const std::vector<std::string_view>& cells) {
  if (cells.size() != columns.size()) return false;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (columns[i] == "name" && !gpu_name(cells[i])) return false;
    if (columns[i] == "memory.total" && !memory_cell(cells[i])) return false;
    if (columns[i] == "compute_cap" && !compute_cap_cell(cells[i])) return false;
    if (columns[i] == "index" && !digits(cells[i], 1, 4)) return false;
  }
  return true;
}

// Output mostly made of lines that are not GPUs is not nvidia-smi's (a tool prints a
// warning or two around its rows, not pages of them): nothing is read from it.
constexpr std::size_t kStrayLines = 16;

}  // namespace

std::string target_of_compute_cap(std::string_view cap) {
  cap = trim(cap);
  std::size_t dot = cap.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 2 || dot + 1 >= cap.size() || cap.size() > 5) return "";
  std::string digits;
  for (std::size_t i = 0; i < cap.size(); ++i) {
    if (i == dot) continue;
    if (!std::isdigit(static_cast<unsigned char>(cap[i]))) return "";
    digits += cap[i];
  }
  return "sm" + digits;
}

std::vector<ReportedGpu> parse_nvidia_smi_csv(std::string_view text) {
  std::vector<ReportedGpu> out;
  std::vector<std::string> columns = {"name", "memory.total", "compute_cap"};
  bool first = true;
  std::size_t stray = 0;
  for (std::string_view line : lines(text)) {
    if (trim(line).empty()) continue;
    auto cells = split(line, ',');
    if (first) {
      first = false;
      std::string head = lower(line);
      if (head.find("name") != std::string::npos && (head.find("memory.total") != std::string::npos ||
                                                      head.find("compute_cap") != std::string::npos)) {
        columns.clear();
        for (auto c : cells) columns.push_back(column_key(c));
        continue;
      }
    }
    if (!well_formed(columns, cells)) {  // an error line or a warning, not a row
      ++stray;
      continue;
    }
    ReportedGpu g;
    g.tool = "nvidia-smi";
    g.index = std::to_string(out.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (columns[i] == "name") g.name = std::string(cells[i]);
      else if (columns[i] == "memory.total") g.memory_mib = mib_of(cells[i]);
      else if (columns[i] == "compute_cap") g.target = target_of_compute_cap(cells[i]);
      else if (columns[i] == "index") g.index = std::string(cells[i]);
    }
    out.push_back(std::move(g));
  }
  if (stray > out.size() + kStrayLines) out.clear();
  return out;
}

namespace {

// "00000000:01:00.0 Off" (or "N/A N/A" on a Jetson): the GPU row's Bus-Id and Disp.A.
bool bus_field(std::string_view f) {
  std::size_t space = f.rfind(' ');
  if (space == std::string_view::npos) return false;
  std::string_view bus = trim(f.substr(0, space)), disp = f.substr(space + 1);
  if (disp != "On" && disp != "Off" && disp != "N/A") return false;
  if (bus == "N/A") return true;
  // domain:bus:device.function in hex
  std::size_t c1 = bus.find(':'), c2 = bus.rfind(':'), dot = bus.rfind('.');
  auto hex = [](std::string_view s, std::size_t min, std::size_t max) {
    return s.size() >= min && s.size() <= max && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  };
  return c1 != c2 && dot > c2 && dot != std::string_view::npos && hex(bus.substr(0, c1), 4, 8) && hex(bus.substr(c1 + 1, c2 - c1 - 1), 2, 2) &&
         hex(bus.substr(c2 + 1, dot - c2 - 1), 2, 2) && hex(bus.substr(dot + 1), 1, 1);
}

}  // namespace

std::vector<ReportedGpu> parse_nvidia_smi_table(std::string_view text) {
  std::vector<ReportedGpu> out;
  auto ls = lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    auto fields = split(ls[i], '|');
    if (fields.size() < 5 || !fields[0].empty() || !bus_field(fields[2])) continue;
    // "0  NVIDIA GeForce RTX 4060 Ti     Off": index, name, persistence mode.
    std::string_view row = fields[1];
    std::size_t k = 0;
    while (k < row.size() && std::isdigit(static_cast<unsigned char>(row[k]))) ++k;
    if (k == 0 || k > 4 || k >= row.size() || row[k] != ' ') continue;
    std::string_view name = trim(row.substr(k));
    bool mode_shown = false;
    for (std::string_view mode : {" On", " Off", " N/A"})
      if (!mode_shown && name.size() > mode.size() && name.substr(name.size() - mode.size()) == mode) {
        name = trim(name.substr(0, name.size() - mode.size()));
        mode_shown = true;
      }
    if (!mode_shown || !gpu_name(name)) continue;  // a MIG or process row
    // The line below carries "used MiB / total MiB" in its second field.
    auto below = i + 1 < ls.size() ? split(ls[i + 1], '|') : std::vector<std::string_view>{};
    double total = 0;
    if (below.size() >= 3) {
      std::size_t slash = below[2].find('/');
      if (slash != std::string_view::npos) total = mib_of(below[2].substr(slash + 1));
    }
    ReportedGpu g;
    g.tool = "nvidia-smi";
    g.index = std::string(row.substr(0, k));
    g.name = std::string(name);
    g.memory_mib = total;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace qsel
