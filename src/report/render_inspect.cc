// `qsel inspect` as text: what was read, the model, the format and the sizes.
#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/inspect_report.h"
#include "qsel/report/table.h"
#include "qsel/report/render.h"

namespace qsel {
namespace {

std::string size_text(double bytes) { return bytes >= 1e9 ? fmt::format("{:.2f} GB", bytes / 1e9) : fmt::format("{:.1f} MB", bytes / 1e6); }
std::string billions(double params) {
  if (params >= 1e9) return fmt::format("{:.2f}B", params / 1e9);
  if (params >= 1e6) return fmt::format("{:.1f}M", params / 1e6);
  return fmt::format("{:.1f}K", params / 1e3);
}

std::string joined_with(const ojson& list, const char* sep) {
  std::vector<std::string> parts;
  for (const auto& v : list) parts.push_back(printable_value(v));
  return fmt::format("{}", fmt::join(parts, sep));
}

// Labels in a 12-column field.
std::string inspect_line(const Style& st, const char* label, const std::string& text) { return labelled_line(st, label, text, 12); }

}  // namespace

std::string render_inspect_text(const ojson& r, const Style& st) {
  std::string out;
  std::vector<std::string> read;
  for (const auto& f : r["read"]) read.push_back(printable_value(f));
  std::string shown = read.size() > 4 ? fmt::format("{}, … ({} files)", fmt::join(read.begin(), read.begin() + 3, ", "), read.size())
                                      : fmt::format("{}", fmt::join(read, ", "));
  out += inspect_line(st, "Read", shown.empty() ? "nothing" : shown);
  if (r.contains("source") && r["source"].is_string()) out += inspect_line(st, "From", printable_value(r["source"]));
  if (r["model"].is_object()) {
    const auto& m = r["model"];
    out += inspect_line(st, "Model", printable_value(m["description"]) + (m["architecture"].is_string() ? " — " + printable_value(m["architecture"]) : ""));
  } else if (r.contains("model_error")) {
    out += inspect_line(st, "Model", "shape unknown: " + printable_value(r["model_error"]));
  }
  if (r["format"].is_object()) {
    const auto& f = r["format"];
    std::string also = f["also"].empty() ? "" : fmt::format(" (also matches {})", joined_with(f["also"], ", "));
    out += inspect_line(st, "Format", fmt::format("{} — {} [{}]{}", st.cyan(printable_value(f["id"])), printable_value(f["name"]), printable_value(f["regime"]), also));
    out += inspect_line(st, "", "matched by " + printable_value(f["matched_by"]));
  } else {
    out += inspect_line(st, "Format", st.yellow("no format record matches"));
  }
  if (!r["settings"].empty()) out += inspect_line(st, "Settings", joined_with(r["settings"], "; "));
  double params = r["params"].get<double>(), bytes = r["bytes"].get<double>();
  if (params > 0)
    out += inspect_line(st, "Size", fmt::format("{} in {} tensors, {} parameters: {:.2f} bits per weight overall", size_text(bytes), r["tensors"].get<std::size_t>(),
                                        billions(params), r["bpw"].get<double>()));
  const auto& q = r["quantized"];
  if (q["params"].get<double>() > 0) {
    std::string group = q["group"].is_number() ? fmt::format("; group {:g} weights per scale", q["group"].get<double>()) : "";
    if (q.contains("group_range")) group += fmt::format(" (layers range {:g} to {:g})", q["group_range"][0].get<double>(), q["group_range"][1].get<double>());
    out += inspect_line(st, "Quantized", fmt::format("{} parameters in {}: {:.3f} bits per weight with scales{}", billions(q["params"].get<double>()),
                                             size_text(q["bytes"].get<double>()), q["bpw"].get<double>(), group));
  }
  if (!r["kept"].empty() && r["format"].is_object() && r["quantized"]["params"].get<double>() > 0) {
    std::vector<std::string> kept;
    for (const auto& k : r["kept"])
      kept.push_back(fmt::format("{} {} ({} tensor{})", printable_value(k["category"]), billions(k["params"].get<double>()), k["tensors"].get<std::size_t>(),
                                 k["tensors"] == 1 ? "" : "s"));
    out += inspect_line(st, "Unquantized", fmt::format("{}", fmt::join(kept, ", ")));
  }
  if (!r["by_dtype"].empty()) {
    Table t({"dtype", "tensors", "parameters", "bytes", "bpw", "group"});
    for (const auto& s : r["by_dtype"])
      t.add({printable_value(s["dtype"]), std::to_string(s["tensors"].get<std::size_t>()), billions(s["params"].get<double>()), size_text(s["bytes"].get<double>()),
             s["bpw"].is_number() ? fmt::format("{:.3f}", s["bpw"].get<double>()) : "-", s["group"].is_number() ? std::to_string(s["group"].get<int>()) : "-"});
    t.wrap_to(st.width, 0);
    out += "\n" + t.render();
  }
  if (!r["notes"].empty()) {
    out += "\n";
    bool first = true;
    for (const auto& n : r["notes"]) {
      out += inspect_line(st, first ? "Notes" : "", printable_value(n));
      first = false;
    }
  }
  return out;
}

}  // namespace qsel
