// `qsel inspect` as text: what was read, the model, the format and the sizes.
#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/inspect_report.h"
#include "qsel/report/table.h"

namespace qsel {
namespace {

using json = ojson;

std::string str(const json& v) { return printable(v.is_string() ? v.get<std::string>() : v.dump()); }

std::string gb(double bytes) { return bytes >= 1e9 ? fmt::format("{:.2f} GB", bytes / 1e9) : fmt::format("{:.1f} MB", bytes / 1e6); }
std::string billions(double params) {
  if (params >= 1e9) return fmt::format("{:.2f}B", params / 1e9);
  if (params >= 1e6) return fmt::format("{:.1f}M", params / 1e6);
  return fmt::format("{:.1f}K", params / 1e3);
}

std::string joined(const json& list, const char* sep) {
  std::vector<std::string> parts;
  for (const auto& v : list) parts.push_back(str(v));
  return fmt::format("{}", fmt::join(parts, sep));
}

std::string line(const Style& st, const char* label, const std::string& text) {
  std::size_t n = std::string_view(label).size();
  return st.bold(label) + std::string(n < 12 ? 12 - n : 1, ' ') + text + "\n";
}

}  // namespace

std::string render_inspect_text(const json& r, const Style& st) {
  std::string out;
  std::vector<std::string> read;
  for (const auto& f : r["read"]) read.push_back(str(f));
  std::string shown = read.size() > 4 ? fmt::format("{}, … ({} files)", fmt::join(read.begin(), read.begin() + 3, ", "), read.size())
                                      : fmt::format("{}", fmt::join(read, ", "));
  out += line(st, "Read", shown.empty() ? "nothing" : shown);
  if (r.contains("source") && r["source"].is_string()) out += line(st, "From", str(r["source"]));
  if (r["model"].is_object()) {
    const auto& m = r["model"];
    out += line(st, "Model", str(m["description"]) + (m["architecture"].is_string() ? " — " + str(m["architecture"]) : ""));
  } else if (r.contains("model_error")) {
    out += line(st, "Model", "shape unknown: " + str(r["model_error"]));
  }
  if (r["format"].is_object()) {
    const auto& f = r["format"];
    std::string also = f["also"].empty() ? "" : fmt::format(" (also matches {})", joined(f["also"], ", "));
    out += line(st, "Format", fmt::format("{} — {} [{}]{}", st.cyan(str(f["id"])), str(f["name"]), str(f["regime"]), also));
    out += line(st, "", "matched by " + str(f["matched_by"]));
  } else {
    out += line(st, "Format", st.yellow("no format record matches"));
  }
  if (!r["settings"].empty()) out += line(st, "Settings", joined(r["settings"], "; "));
  double params = r["params"].get<double>(), bytes = r["bytes"].get<double>();
  if (params > 0)
    out += line(st, "Size", fmt::format("{} in {} tensors, {} parameters: {:.2f} bits per weight overall", gb(bytes), r["tensors"].get<std::size_t>(),
                                        billions(params), r["bpw"].get<double>()));
  const auto& q = r["quantized"];
  if (q["params"].get<double>() > 0) {
    std::string group = q["group"].is_number() ? fmt::format("; group {:g} weights per scale", q["group"].get<double>()) : "";
    if (q.contains("group_range")) group += fmt::format(" (layers range {:g} to {:g})", q["group_range"][0].get<double>(), q["group_range"][1].get<double>());
    out += line(st, "Quantized", fmt::format("{} parameters in {}: {:.3f} bits per weight with scales{}", billions(q["params"].get<double>()),
                                             gb(q["bytes"].get<double>()), q["bpw"].get<double>(), group));
  }
  if (!r["kept"].empty() && r["format"].is_object() && r["quantized"]["params"].get<double>() > 0) {
    std::vector<std::string> kept;
    for (const auto& k : r["kept"])
      kept.push_back(fmt::format("{} {} ({} tensor{})", str(k["category"]), billions(k["params"].get<double>()), k["tensors"].get<std::size_t>(),
                                 k["tensors"] == 1 ? "" : "s"));
    out += line(st, "Unquantized", fmt::format("{}", fmt::join(kept, ", ")));
  }
  if (!r["by_dtype"].empty()) {
    Table t({"dtype", "tensors", "parameters", "bytes", "bpw", "group"});
    for (const auto& s : r["by_dtype"])
      t.add({str(s["dtype"]), std::to_string(s["tensors"].get<std::size_t>()), billions(s["params"].get<double>()), gb(s["bytes"].get<double>()),
             s["bpw"].is_number() ? fmt::format("{:.3f}", s["bpw"].get<double>()) : "-", s["group"].is_number() ? std::to_string(s["group"].get<int>()) : "-"});
    out += "\n" + t.render();
  }
  if (!r["notes"].empty()) {
    out += "\n";
    bool first = true;
    for (const auto& n : r["notes"]) {
      out += line(st, first ? "Notes" : "", str(n));
      first = false;
    }
  }
  return out;
}

}  // namespace qsel
