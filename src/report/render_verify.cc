// `qsel verify` as text: the engine, what the log shows, what was predicted,
// the three checks of Rule 2 and the verdict.
#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/verify_report.h"

namespace qsel {
namespace {

using json = ojson;

std::string str(const json& v) { return printable(v.is_string() ? v.get<std::string>() : v.dump()); }

std::string line(const Style& st, const std::string& label, const std::string& text) {
  return st.bold(label) + std::string(label.size() < 11 ? 11 - label.size() : 1, ' ') + text + "\n";
}

}  // namespace

std::string render_verify_text(const json& r, const Style& st) {
  std::string out;
  std::string read = fmt::format("{} lines", r["lines"].get<std::size_t>());
  if (r.contains("lines_cut")) read += fmt::format(", {} cut at 64 KiB", r["lines_cut"].get<std::size_t>());
  if (r.contains("stopped_at_bytes"))
    read += fmt::format("; reading stopped at the 4 GiB cap (byte {}): lines past it were not checked", r["stopped_at_bytes"].get<std::uint64_t>());
  out += line(st, "Log", fmt::format("{} ({})", str(r["log"]), read));
  if (r["engine"].is_object()) out += line(st, "Engine", fmt::format("{} — {}", str(r["engine"]["id"]), str(r["engine"]["detected_by"])));
  if (r.contains("target") && r["target"].is_object()) out += line(st, "Target", fmt::format("{} — {}", str(r["target"]["id"]), str(r["target"]["from"])));
  if (r.contains("format") && r["format"].is_object()) out += line(st, "Format", fmt::format("{} — {}", str(r["format"]["id"]), str(r["format"]["from"])));
  bool first = true;
  for (const auto& o : r.value("observed", json::array())) {
    out += line(st, first ? "Observed" : "", fmt::format("{} ({}) — line {}: {}", st.cyan(str(o["kernel"])), o["mode"].is_string() ? str(o["mode"]) : "?",
                                                     o["line"].get<std::size_t>(), str(o["text"])));
    first = false;
  }
  if (r.contains("predicted") && r["predicted"].is_object()) {
    const auto& p = r["predicted"];
    out += line(st, "Predicted", p["kernel"].is_string() ? fmt::format("{} ({} path)", st.cyan(str(p["kernel"])), str(p["path"]))
                                                         : fmt::format("no kernel: {}", str(p["why"])));
  }
  first = true;
  for (const auto& c : r["checks"]) {
    std::string res = c["result"] == "pass" ? st.green("ok  ") : c["result"] == "fail" ? st.red("FAIL") : st.dim("--  ");
    out += line(st, first ? "Checks" : "", fmt::format("{} {}: {}", res, str(c["check"]), str(c["text"])));
    first = false;
  }
  std::string v = str(r["verdict"]);
  out += line(st, "Verdict", v == "match" ? st.green(v) : st.red(v));
  return out;
}

}  // namespace qsel
