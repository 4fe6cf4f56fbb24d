// `qsel verify` as text: the engine, what the log shows, what was predicted,
// the three checks of Rule 2 and the verdict.
#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/report/verify_report.h"
#include "qsel/report/render.h"

namespace qsel {
namespace {

// Labels in an 11-column field.
std::string verify_line(const Style& st, const std::string& label, const std::string& text) { return labelled_line(st, label, text, 11); }

}  // namespace

std::string render_verify_text(const ojson& r, const Style& st) {
  std::string out;
  std::string read = fmt::format("{} lines", r["lines"].get<std::size_t>());
  if (r.contains("lines_cut")) read += fmt::format(", {} cut at 64 KiB", r["lines_cut"].get<std::size_t>());
  if (r.contains("stopped_at_bytes"))
    read += fmt::format("; reading stopped at the 4 GiB cap (byte {}): lines past it were not checked", r["stopped_at_bytes"].get<std::uint64_t>());
  if (r.contains("stopped_after_s"))
    read += fmt::format("; reading stopped after {} s (a stream that did not end): lines past it were not checked", r["stopped_after_s"].get<long>());
  out += verify_line(st, "Log", fmt::format("{} ({})", printable_value(r["log"]), read));
  if (r["engine"].is_object()) out += verify_line(st, "Engine", fmt::format("{} — {}", printable_value(r["engine"]["id"]), printable_value(r["engine"]["detected_by"])));
  if (r.contains("target") && r["target"].is_object()) out += verify_line(st, "Target", fmt::format("{} — {}", printable_value(r["target"]["id"]), printable_value(r["target"]["from"])));
  if (r.contains("format") && r["format"].is_object()) out += verify_line(st, "Format", fmt::format("{} — {}", printable_value(r["format"]["id"]), printable_value(r["format"]["from"])));
  bool first = true;
  for (const auto& o : r.value("observed", ojson::array())) {
    out += verify_line(st, first ? "Observed" : "", fmt::format("{} ({}) — line {}: {}", st.cyan(printable_value(o["kernel"])), o["mode"].is_string() ? printable_value(o["mode"]) : "?",
                                                     o["line"].get<std::size_t>(), printable_value(o["text"])));
    first = false;
  }
  if (r.contains("predicted") && r["predicted"].is_object()) {
    const auto& p = r["predicted"];
    out += verify_line(st, "Predicted", p["kernel"].is_string() ? fmt::format("{} ({} path)", st.cyan(printable_value(p["kernel"])), printable_value(p["path"]))
                                                         : fmt::format("no kernel: {}", printable_value(p["why"])));
  }
  first = true;
  for (const auto& c : r["checks"]) {
    std::string res = c["result"] == "pass" ? st.green("ok  ") : c["result"] == "fail" ? st.red("FAIL") : st.dim("--  ");
    // A check's text wraps under itself, past its ok/FAIL mark.
    std::string label = first ? "Checks" : "";
    out += wrap(fmt::format("{}: {}", printable_value(c["check"]), printable_value(c["text"])), st.width,
                st.bold(label) + std::string(11 - label.size(), ' ') + res + " ", std::string(16, ' '));
    first = false;
  }
  std::string v = printable_value(r["verdict"]);
  out += verify_line(st, "Verdict", v == "match" ? st.green(v) : st.red(v));
  return out;
}

}  // namespace qsel
