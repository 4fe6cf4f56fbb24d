// explain as text, from its JSON result.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "qsel/report/advice_report.h"
#include "qsel/report/render.h"
#include "qsel/report/table.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

std::string join(const ojson& a, const char* sep = ", ") {
  std::vector<std::string> v;
  for (const auto& x : a) v.push_back(x.is_string() ? x.get<std::string>() : x.dump());
  return fmt::format("{}", fmt::join(v, sep));
}

std::string verdict_tag(const std::string& v, const Style& st) {
  std::string up;
  for (char c : v) up += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (v == "native") return st.green(up);
  if (v == "contested" || v == "differs") return st.yellow(up);
  if (v == "unsupported") return st.red(up);
  return up;
}

void add_row(Table& t, const std::string& label, const std::string& text) { t.add({label, text}); }

// "matrix cell Y (…); picks K → native", from the engine's Rule 1 and Rule 2 lines.
std::string engine_text(const ojson& e) {
  if (e["path"] == "excluded") return "excluded — " + join(e["why"], "; ");
  if (e["path"] == "unsupported" && e["kernel"].is_null() && !e["why"].empty()) return "unsupported — " + join(e["why"], "; ");
  std::string matrix;
  for (const auto& w : e["why"]) {
    std::string s = w;
    if (s.rfind("Rule 1 — ", 0) == 0) matrix = s.substr(std::string("Rule 1 — ").size()) + "; ";
  }
  std::string kernel = e["kernel"].is_null() ? "no recorded kernel" : "picks " + e["kernel"].get<std::string>();
  return fmt::format("{}{} → {}{}", matrix, kernel, e["path"].get<std::string>(), e.value("contested", false) ? (e.value("outranked", false) ? " (its docs disagree; the code outranks them)" : " (contested)") : "");
}

std::string warning_text(const ojson& w, const Style& st) {
  std::string cond = w["condition"].get<std::string>();
  return fmt::format("{} {} [{}; via {}]{}", severity_text(w, st), w["message"].get<std::string>(),
                     w["id"].get<std::string>(), join(w["engines"]), cond.empty() ? "" : " — if " + cond);
}

// Up to `limit` ids by name; past that the first `keep` and a count (JSON lists them all).
std::string abbreviated(const ojson& ids, std::size_t limit, std::size_t keep) {
  if (ids.size() <= limit) return join(ids);
  ojson few(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(keep));
  return fmt::format("{} and {} more", join(few), ids.size() - keep);
}

std::string format_on(const ojson& j, const Style& st) {
  // A whole generation: name a few, count the rest.
  std::string parts = j["parts"].empty() ? "no part recorded" : abbreviated(j["parts"], 4, 3);
  std::string as;  // the scheme in an engine's own container, when no engine asked serves this format's checkpoints
  if (j.contains("verdict_as"))
    as = fmt::format(" for {} checkpoints; {} as {} ({})", j["format"].get<std::string>(), verdict_tag(j["verdict_as"]["verdict"], st),
                     j["verdict_as"]["format"].get<std::string>(), fmt::join(j["verdict_as"]["engines"].get<std::vector<std::string>>(), ", "));
  std::string out = fmt::format("{} — {}\nOn {} ({}):   verdict: {}{}\n", st.bold(j["format"].get<std::string>()),
                                j["name"].get<std::string>(), j["target"].get<std::string>(), parts,
                                verdict_tag(j["verdict"], st), as);
  if (j.contains("resolved")) out += "  " + j["resolved"].get<std::string>() + "\n";
  Table t({"", ""});
  const auto& fr = j["format_record"];
  std::string target = j["target"];
  auto listed = [&](const ojson& ids) {
    if (ids.empty()) return "no " + target + " part";
    if (ids.size() == j["parts"].size() && ids.size() > 1) return fmt::format("every {} part ({})", target, ids.size());
    return abbreviated(ids, 6, 4);
  };
  add_row(t, "format record", fmt::format("native on {}; emulated on {}", listed(fr["native_on"]), listed(fr["emulated_on"])));
  for (const auto& c : j.value("contested_claims", ojson::array())) {
    std::string says = c.contains("parts")
                           ? fmt::format("{} {} in {}", join(c["parts"]), c["listed"].get<bool>() ? "belongs" : "does not belong",
                                         c["field"].get<std::string>())
                           : fmt::format("{} is {}", c["field"].get<std::string>(), c["value"].dump());
    add_row(t, st.yellow("contested"), fmt::format("{} ({}) says {}; the record follows {} ({})", c["source"].get<std::string>(),
                                                c["tier"].get<std::string>(), says, c["record_source"].get<std::string>(),
                                                c["record_tier"].get<std::string>()));
  }
  for (const auto& e : j["engines"]) {
    add_row(t, e["engine"], engine_text(e));
    if (e.contains("requires")) add_row(t, "  needs", e["requires"].get<std::string>());
  }
  if (j["engines"].empty())  // no engine runs it here: the verdict's own reasons say why
    for (const auto& r : j.value("verdict_reasons", ojson::array())) add_row(t, "why", r.get<std::string>());
  for (const auto& p : j.value("flagged_paths", ojson::array()))
    add_row(t, "with --flag", fmt::format("{} {}: picks {} ({} kernel){}", p["engine"].get<std::string>(), join(p["flags"]),
                                          p["kernel"].get<std::string>(), p["mode"].get<std::string>(),
                                          p.contains("requires") ? "; needs " + p["requires"].get<std::string>() : ""));
  for (const auto& m : j.value("moe_formats", ojson::array())) add_row(t, "MoE format", m["statement"].get<std::string>());
  for (const auto& m : j.value("container_formats", ojson::array())) add_row(t, "served as", m["statement"].get<std::string>());
  {
    std::vector<std::string> dates;
    for (const auto& e : j["engines"])
      if (!e.value("read_at", std::string()).empty())
        dates.push_back(fmt::format("{} {}", e["engine"].get<std::string>(), e["read_at"].get<std::string>()));
    std::sort(dates.begin(), dates.end());
    dates.erase(std::unique(dates.begin(), dates.end()), dates.end());
    if (!dates.empty()) add_row(t, "read at", fmt::format("engine facts up to {} (newest dated source per engine)", fmt::join(dates, ", ")));
  }
  for (const auto& k : j["kernel_constraints"]) add_row(t, "kernel records", fmt::format("{}: {}", k["kernel"].get<std::string>(), k["says"].get<std::string>()));
  for (const auto& c : j["conflicts"]) add_row(t, st.yellow("conflict"), c.get<std::string>() + " — unresolved: the records disagree, and both sides are kept");
  std::map<std::string, std::vector<std::string>> missing;
  for (const auto& m : j["also_missing"]) missing[m["engine"]].push_back(m["column"]);
  for (const auto& [engine, cols] : missing) add_row(t, "also here",
                                                     fmt::format("{}'s support table marks no {} (the table, not its code: explain "
                                                                 "one of them for the verdict)", engine, fmt::join(cols, ", ")));
  if (j.contains("quality")) add_row(t, "quality", j["quality"]["statement"].get<std::string>());
  // At most six rows of each kind on screen; --format json lists them all.
  std::map<std::string, int> shown, hidden;
  for (const auto& b : j["benchmarks"]) {
    std::string kind = b.value("kind", std::string(b["quality_evidence"].get<bool>() ? "quality" : "other"));
    if (++shown[kind] > 6) {
      ++hidden[kind];
      continue;
    }
    std::string on = b.contains("model") ? " on " + b["model"].get<std::string>() : "";
    if (b.contains("accelerator")) on += " (" + b["accelerator"].get<std::string>() + ")";
    add_row(t, kind == "speed" ? "speed" : "benchmark",
         fmt::format("{} {}{} = {} ({}){}", b["id"].get<std::string>(), b["metric"].get<std::string>(), on, b["value"].dump(),
                     b["grade"].get<std::string>(), kind == "other" ? " — not quality evidence" : ""));
  }
  for (const auto& [kind, n] : hidden) add_row(t, kind == "speed" ? "speed" : "benchmark", fmt::format("… {} more {} row(s) (--format json)", n, kind));
  for (const auto& w : j["warnings"]) add_row(t, "warning", warning_text(w, st));
  for (const auto& g : j["gotchas"]) add_row(t, "gotcha", warning_text(g, st));
  for (const auto& u : j["unknowns"]) add_row(t, "unknown", u.get<std::string>());
  add_row(t, "rules", j["rules"].empty() ? "-" : join(j["rules"]));
  if (j.contains("rests_on")) add_row(t, "rests on", "the first way to run it here " + j["rests_on"]["statement"].get<std::string>());
  t.wrap_to(st.width, 2);
  return fit_lines(out, st.width) + "\n" + t.render(2, false);
}

std::string family(const ojson& j, const Style& st) {
  std::string out = fmt::format("{} on {}: {}\n{}\n\n", st.bold(j["format"].get<std::string>()), j["family"].get<std::string>(),
                                verdict_tag(j["verdict"], st), j["note"].get<std::string>());
  out = fit_lines(out, st.width);
  for (const auto& p : j["per_target"]) out += format_on(p, st) + "\n";
  return out;
}

std::string generic(const ojson& j, const Style& st) {
  std::string out = heading_line(st, j["topic"].get<std::string>(), j["kind"].get<std::string>(), j.value("name", std::string()));
  ojson rest = ojson::object();
  for (const auto& [k, v] : j.items())
    if (k != "topic" && k != "kind" && k != "name" && k != "doc" && k != "text") rest[k] = v;
  return out + "\n" + render_fields(rest, st);
}

}  // namespace

std::string render_explain_text(const ojson& j, const Style& st) {
  const std::string kind = j["kind"];
  if (kind == "lint-rule") return fit_lines(j["text"].get<std::string>(), st.width);
  if (kind == "rule") {
    std::string out = j["doc"].get<std::string>();
    if (!j["records"].empty()) {
      std::map<std::string, std::vector<std::string>> by;
      for (const auto& r : j["records"]) by[r["kind"]].push_back(r["id"]);
      out += "\n## Records behind it\n\n";
      for (const auto& [k, ids] : by) out += fmt::format("- {}: {}\n", k, fmt::join(ids, ", "));
    }
    return fit_lines(out, st.width);
  }
  if (kind == "format" && j.contains("verdict")) return format_on(j, st);
  if (kind == "format-family") return family(j, st);
  return generic(j, st);
}

}  // namespace qsel
