// recommend as text and as Markdown, from its JSON result.
#include <fmt/format.h>

#include "qsel/report/advice_report.h"
#include "qsel/report/render.h"
#include "qsel/report/table.h"

namespace qsel {
namespace {

using ojson = nlohmann::ordered_json;

std::string gb(const ojson& v) { return v.is_number() ? fmt::format("{:.1f} GB", v.get<double>()) : "-"; }

std::string capacity(const ojson& v) { return v.is_number() ? fmt::format("{:g} GB", v.get<double>()) : "memory unknown"; }

std::string tbs(const ojson& gbs) { return gbs.is_number() ? fmt::format("{:.2f} TB/s", gbs.get<double>() / 1000) : "bandwidth unknown"; }

std::string ceiling(const ojson& c) {
  double m = c.value("decode_ceiling_tok_s", 0.0), k = c.value("compute_ceiling_tok_s", 0.0);
  double v = k > 0 && m > 0 ? std::min(m, k) : m;
  return v > 0 ? fmt::format("~{:.0f} tok/s", v) : "-";
}

std::string header(const ojson& r) {
  const auto& a = r["accelerator"];
  std::string count = a["count"].get<int>() > 1 ? fmt::format("{} x ", a["count"].get<int>()) : "";
  std::string gpu = fmt::format("GPU    {}{} ({}, {}, {}, {})", count, a["name"].get<std::string>(), a["id"].get<std::string>(),
                                a["target"].get<std::string>(), capacity(a["memory_gb"]), tbs(a["memory_bandwidth_gbs"]));
  if (a.contains("resolved")) gpu += "   " + a["resolved"].get<std::string>();
  const auto& q = r["query"];
  std::string model = fmt::format("Model  {}; context {}, batch {}", r["model"]["description"].get<std::string>(),
                                  q["context"].get<long>(), q["batch"].get<int>());
  std::string engines = q["engines"].empty() ? "every engine" : fmt::format("{}", fmt::join(q["engines"].get<std::vector<std::string>>(), ", "));
  std::string serving = fmt::format("Query  {}; KV cache {}; speculative decoding {}; prefix caching {}{}", engines,
                                    q["kv_cache"].get<std::string>(), q["spec_decode"].get<std::string>(),
                                    q["prefix_caching"].get<bool>() ? "on" : "off", q["portable"].get<bool>() ? "; portable" : "");
  return gpu + "\n" + model + "\n" + serving + "\n";
}

std::vector<std::string> row(const ojson& c, const Style& st) {
  bool fits = c.value("fits", true);
  std::string fit = c.contains("fits") ? (fits ? st.green("yes") : st.red("no")) : "-";
  std::string path = c["path"].get<std::string>() + (c["contested"].get<bool>() ? "?" : "");
  return {std::to_string(c["rank"].get<std::size_t>()), fmt::format("{} ({})", c["format"].get<std::string>(), c["regime"].get<std::string>()),
          cell_text(c["engine"]), cell_text(c["kernel"]), path, gb(c.value("weights_gb", ojson())),
          gb(c.value("kv_cache_gb", ojson())), gb(c.value("total_gb", ojson())), fit, ceiling(c), c["evidence_grade"]};
}

std::string section(const std::string& title, const std::vector<std::string>& lines, const Style& st) {
  if (lines.empty()) return "";
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    out += fmt::format("{:<10} {}\n", i == 0 ? st.bold(title) + std::string(title.size() < 10 ? 0 : 0, ' ') : "", lines[i]);
  return out;
}

std::string warning_line(const ojson& w, std::size_t rank, const Style& st) {
  std::string tag = severity_text(w, st);
  std::string cond = w.contains("condition") ? fmt::format(" — if {}", w["condition"].get<std::string>()) : "";
  return fmt::format("#{} {}  {}{} [{}]", rank, tag, w["message"].get<std::string>(), cond, w["id"].get<std::string>());
}

std::vector<std::string> warnings_of_top(const ojson& cands, std::size_t top, const Style& st) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < cands.size() && i < std::min<std::size_t>(top, 3); ++i)
    for (const auto& w : cands[i]["warnings"]) out.push_back(warning_line(w, i + 1, st));
  return out;
}

std::vector<std::string> exclusions(const ojson& r) {
  std::vector<std::string> out;
  for (const auto& e : r["excluded"]) {
    std::string who = e["engine"].is_null() ? e["format"].get<std::string>()
                                             : fmt::format("{} on {}", e["format"].get<std::string>(), e["engine"].get<std::string>());
    std::string rule = e["rule"];
    rule[0] = 'R';
    out.push_back(fmt::format("{} — {}: {}", who, rule.replace(4, 1, " "), e["reason"].get<std::string>()));
  }
  return out;
}

std::vector<std::string> strings(const ojson& a) { return a.get<std::vector<std::string>>(); }

}  // namespace

std::string severity_text(const ojson& w, const Style& st) {
  std::string sev = w["severity"];
  std::string tag = sev == "blocker" ? st.red(sev) : sev == "major" ? st.yellow(sev) : sev;
  return w["silent"].get<bool>() ? tag + " (silent)" : tag;
}

std::string render_recommend_text(const ojson& r, const Style& st, std::size_t top) {
  std::string out = header(r) + "\n";
  const auto& cands = r["candidates"];
  Table t({"#", "format", "engine", "kernel", "path", "weights", "KV", "total", "fits", "decode ceiling", "evidence"});
  for (std::size_t i = 0; i < cands.size() && i < top; ++i) t.add(row(cands[i], st));
  out += t.render(1);
  if (cands.size() > top) out += st.dim(fmt::format(" … {} more (--all, or --format json)\n", cands.size() - top));
  out += "\n";
  if (!cands.empty()) {
    std::vector<std::string> why = strings(cands[0]["why"]);
    if (!cands[0]["evidence"].empty())
      why.push_back(fmt::format("[{}]", fmt::join(strings(cands[0]["evidence"]), ", ")));
    out += section("Why #1", why, st);
  }
  out += section("Warnings", warnings_of_top(cands, top, st), st);
  out += section("Excluded", exclusions(r), st);
  std::vector<std::string> unknowns = strings(r["unknowns"]);
  for (std::size_t i = 0; i < cands.size() && i < top; ++i)
    for (const auto& c : cands[i]["conflicts"]) unknowns.push_back(fmt::format("#{} {}", i + 1, c.get<std::string>()));
  out += section("Unknowns", unknowns, st);
  std::vector<std::string> notes = strings(r["notes"]);
  for (const auto& n : strings(r["model"]["notes"])) notes.push_back(n);
  if (!cands.empty() && cands[0].contains("memory_notes"))
    for (const auto& n : strings(cands[0]["memory_notes"])) notes.push_back("#1: " + n);
  notes.push_back("decode ceiling = memory bandwidth / bytes read per step (and the dense compute bound): a ceiling, not a forecast");
  out += section("Notes", notes, st);
  if (!cands.empty() && !cands[0]["checks"].empty()) {
    out += "\n" + st.bold("After deploying, verify (Rule 2):") + "\n";
    for (const auto& c : cands[0]["checks"]) out += "  - " + c.get<std::string>() + "\n";
  }
  return out;
}

std::string render_recommend_markdown(const ojson& r, std::size_t top) {
  Style plain;
  std::string out = "# qsel recommendation\n\n";
  const auto& a = r["accelerator"];
  out += fmt::format("- **GPU**: {} ({}, {})\n", a["name"].get<std::string>(), a["id"].get<std::string>(), a["target"].get<std::string>());
  out += fmt::format("- **Model**: {}\n", r["model"]["description"].get<std::string>());
  out += fmt::format("- **Context**: {}, **batch**: {}, **KV cache**: {}\n\n", r["query"]["context"].get<long>(),
                     r["query"]["batch"].get<int>(), r["query"]["kv_cache"].get<std::string>());
  out += "| # | format | engine | kernel | path | weights | KV | total | fits | decode ceiling | evidence |\n";
  out += "|---|---|---|---|---|---|---|---|---|---|---|\n";
  const auto& cands = r["candidates"];
  for (std::size_t i = 0; i < cands.size() && i < top; ++i) {
    auto cells = row(cands[i], plain);
    out += "| " + fmt::format("{}", fmt::join(cells, " | ")) + " |\n";
  }
  auto list = [&](const char* title, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    out += fmt::format("\n## {}\n\n", title);
    for (const auto& l : lines) out += "- " + l + "\n";
  };
  if (!cands.empty()) list("Why #1", strings(cands[0]["why"]));
  list("Warnings", warnings_of_top(cands, top, plain));
  list("Excluded", exclusions(r));
  list("Unknowns", strings(r["unknowns"]));
  list("Notes", strings(r["notes"]));
  if (!cands.empty()) list("After deploying, verify (Rule 2)", strings(cands[0]["checks"]));
  return out;
}

}  // namespace qsel
