// recommend as text and as Markdown, from its JSON result. Rows that differ only
// by engine are one row; each warning is printed once, naming the rows it
// applies to; warnings that hold only under a condition the user has not stated
// collapse to one line unless -v.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "qsel/core/units.h"
#include "qsel/report/advice_report.h"
#include "qsel/report/render.h"
#include "qsel/report/table.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

// A table cell under a "GB" header.
std::string num(const ojson& v) { return v.is_number() ? fmt::format("{:.1f}", v.get<double>()) : "-"; }

// The KV cache, and beside it a hybrid model's recurrent state ("0.3 +0.2 state").
std::string kv_cell(const ojson& c) {
  double state = c.value("recurrent_state_gb", 0.0);
  std::string kv = num(c.value("kv_cache_gb", ojson()));
  return state >= 0.05 ? fmt::format("{} +{:.1f} state", kv, state) : state > 0 ? fmt::format("{} +state", kv) : kv;
}

// A capacity as its vendor labels it, and in GB where the label is binary (docs/memory.md: one unit on
// screen, GB = 10^9 bytes; a vendor's "80 GB" of HBM is 80 GiB).
std::string capacity(const ojson& a) {
  const ojson& v = a["memory_gb"];
  if (!v.is_number()) return "memory unknown";
  if (a.value("memory_unit", std::string("GiB")) == "GB") return fmt::format("{:g} GB", v.get<double>());
  return fmt::format("{:g} GiB = {:.1f} GB", v.get<double>(), v.get<double>() * kGiBInGB);
}

std::string tbs(const ojson& gbs) { return gbs.is_number() ? fmt::format("{:.2f} TB/s", gbs.get<double>() / 1000) : "bandwidth unknown"; }

double ceiling_value(const ojson& c) {
  double m = c.value("decode_ceiling_tok_s", 0.0), k = c.value("compute_ceiling_tok_s", 0.0);
  return k > 0 && m > 0 ? std::min(m, k) : m;
}

// The calibrated forecast where one exists, else the ceiling marked as such (a cell under "tok/s").
std::string ceiling(const ojson& c) {
  if (c.contains("forecast")) return fmt::format("~{:.0f}", c["forecast"]["decode_tok_s"].get<double>());
  double v = ceiling_value(c);
  return v > 0 ? fmt::format("≤{:.0f}", v) : "-";
}

std::vector<std::string> strings(const ojson& a) { return a.get<std::vector<std::string>>(); }

// The estimated quality cost as a table cell ("≈0.021": KLD-equivalent nats, a footnote
// under the table says so), or the evidence grade when there is no estimate.
std::string quality_cell(const ojson& c) {
  if (!c.contains("quality")) return c["evidence_grade"].get<std::string>();
  return c["quality"]["summary"].get<std::string>();
}

// The candidates that share a row, as the rules grouped them (`row`: one format on several
// engines, or alike formats of one scheme; src/rules/rows.cc).
struct Group {
  std::vector<std::size_t> members;  // indexes into candidates
};

std::vector<Group> groups_of(const ojson& cands) {
  std::vector<Group> out;
  long last = -1;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    long k = cands[i].contains("row") ? cands[i]["row"].get<long>() : static_cast<long>(i);
    if (out.empty() || k != last) out.push_back({});
    out.back().members.push_back(i);
    last = k;
  }
  return out;
}

// A row's format cell: "awq (w4a16)", or for formats of one scheme sharing the row their
// common prefix once: "fp8 rowwise/per-tensor/e4m3 (w8a8)".
std::string format_cell(const ojson& cands, const Group& g) {
  std::vector<std::string> ids;
  for (auto i : g.members)
    if (std::string f = cands[i]["format"].get<std::string>(); std::find(ids.begin(), ids.end(), f) == ids.end()) ids.push_back(f);
  std::string regime = cands[g.members.front()]["regime"].get<std::string>();
  if (ids.size() == 1) return fmt::format("{} ({})", ids.front(), regime);
  std::size_t common = ids.front().size();
  for (const auto& id : ids) {
    std::size_t n = 0;
    while (n < common && n < id.size() && id[n] == ids.front()[n]) ++n;
    common = n;
  }
  std::string head = ids.front().substr(0, common);
  while (!head.empty() && head.back() != '-') head.pop_back();  // whole words: "fp8-", not "fp8-p"
  std::vector<std::string> tails;
  for (const auto& id : ids) tails.push_back(id.substr(head.size()));
  if (!head.empty()) head.pop_back();
  return head.empty() ? fmt::format("{} ({})", fmt::join(tails, "/"), regime) : fmt::format("{} {} ({})", head, fmt::join(tails, "/"), regime);
}

// "1", "2-4": the ranks of a group (members are consecutive).
std::string rank_label(const Group& g) {
  std::size_t a = g.members.front() + 1, b = g.members.back() + 1;
  return a == b ? std::to_string(a) : fmt::format("{}-{}", a, b);
}

// "#1-3, #6": a set of 0-based ranks, runs collapsed.
std::string ranks_text(const std::vector<std::size_t>& ranks) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    parts.push_back(i == j ? fmt::format("#{}", ranks[i] + 1) : fmt::format("#{}-{}", ranks[i] + 1, ranks[j] + 1));
    i = j + 1;
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// A candidate's engine as a cell: with its backend where that is not the part's own platform (llama-cpp:vulkan).
std::string engine_cell(const ojson& c) { return c.contains("engine_label") ? cell_text(c["engine_label"]) : cell_text(c["engine"]); }

// At most three names in a cell, each once; the rest are counted (JSON lists them all).
std::string names_of(const ojson& cands, const Group& g, const char* key) {
  std::vector<std::string> names;
  for (auto i : g.members)
    if (std::string n = std::string(key) == "engine" ? engine_cell(cands[i]) : cell_text(cands[i][key]);
        std::find(names.begin(), names.end(), n) == names.end())
      names.push_back(n);
  if (names.size() <= 3) return fmt::format("{}", fmt::join(names, "/"));
  return fmt::format("{} +{}", fmt::join(names.begin(), names.begin() + 3, "/"), names.size() - 3);
}

std::vector<std::string> row(const ojson& cands, const Group& g, const Style& st) {
  const ojson& c = cands[g.members.front()];
  std::string f = c.value("fit", std::string(c.value("fits", true) ? "yes" : "no"));
  std::string fit = !c.contains("fits")   ? "-"
                    : f == "yes"          ? st.green("yes")
                    : f == "no"           ? st.red("no")
                    : f == "slow"         ? st.red("slow")
                                          : st.yellow(f);
  std::string p = c["path"].get<std::string>();
  std::string path = (p == "native" ? st.green(p) : p == "emulated" ? st.yellow(p) : p) + (c["contested"].get<bool>() && !c.value("outranked", false) ? st.red("?") : "");
  return {rank_label(g), format_cell(cands, g),
          names_of(cands, g, "engine"), names_of(cands, g, "kernel"), path, num(c.value("weights_gb", ojson())),
          kv_cell(c), num(c.value("total_gb", ojson())), fit, ceiling(c), quality_cell(c)};
}

// The GPU, model and query lines, each wrapped under its label.
// The title of the answer's lead, by its kind (lead_kind).
std::string lead_title(const ojson& r) {
  ojson kind = r.value("lead_kind", ojson());
  return kind == "nothing-fits" ? "Nothing fits" : kind == "deprecated-engine" ? "Deprecated" : kind == "release-elsewhere" ? "Release" : "No deployment";
}

std::string header(const ojson& r, std::size_t width) {
  const auto& a = r["accelerator"];
  const std::string pad(7, ' ');
  std::string count = a["count"].get<int>() > 1 ? fmt::format("{} x ", a["count"].get<int>()) : "";
  std::string out = wrap(fmt::format("{}{} ({}, {}, {}, {})", count, a["name"].get<std::string>(), a["id"].get<std::string>(),
                                     a["target"].get<std::string>(), capacity(a), tbs(a["memory_bandwidth_gbs"])),
                         width, "GPU    ", pad);
  if (a.contains("resolved")) out += wrap(a["resolved"].get<std::string>(), width, pad, pad);
  const auto& q = r["query"];
  out += wrap(fmt::format("{}; context {}, batch {}{}", r["model"]["description"].get<std::string>(), q["context"].get<long>(),
                          q["batch"].get<int>(),
                          q.contains("concurrency") ? fmt::format("; a serving engine's KV cache sized for {} sequences",
                                                                  q["concurrency"].get<int>())
                                                    : std::string()),
              width, "Model  ", pad);
  std::string engines = q["engines"].empty() ? "every engine" : fmt::format("{}", fmt::join(strings(q["engines"]), ", "));
  out += wrap(fmt::format("objective {}; {}; KV cache {}; speculative decoding {}; prefix caching {}{}", q["objective"].get<std::string>(),
                          engines, q["kv_cache"].get<std::string>(), q["spec_decode"].get<std::string>(),
                          q["prefix_caching"].get<bool>() ? "on" : "off", q["portable"].get<bool>() ? "; portable" : ""),
              width, "Query  ", pad);
  return out;
}

// A titled block: the title in an 11-column gutter, each line wrapped under it.
std::string section(const std::string& title, const std::vector<std::string>& lines, const Style& st) {
  if (lines.empty()) return "";
  std::string out;
  const std::string gutter(11, ' ');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string label = i == 0 ? title : "";
    out += wrap(lines[i], st.width, st.bold(label) + std::string(label.size() < 10 ? 10 - label.size() : 0, ' ') + " ", gutter);
  }
  return out;
}

// What one GPU holds for a row, as figures: weights, KV cache, what the engine keeps for
// itself, against the GPU's size; past it, what lives in system RAM or does not fit.
struct Bar {
  double weights = 0, kv = 0, own = 0, device = 0;
  std::string tail;  // the figures in words
  bool sized = false, over = false;
};

Bar bar_of(const ojson& c) {
  Bar b;
  if (!c.contains("budget") || !c["weights_gb"].is_number()) return b.tail = "not sized", b;
  b.device = c["budget"].value("total_gb", 0.0);
  if (b.device <= 0) return b.tail = "GPU memory unknown", b;
  b.sized = true;
  int tp = std::max(1, c.value("parts", 1));  // GPUs one replica spreads over
  b.weights = c["weights_gb"].get<double>() / tp;
  b.kv = (c.value("kv_cache_gb", 0.0) + c.value("recurrent_state_gb", 0.0)) / tp;
  b.own = std::max(0.0, b.device - c["budget"].value("for_model_gb", 0.0) / tp);
  if (c.contains("placement") && c["placement"].is_object()) {  // part in system RAM: the GPU side drawn, the RAM side said
    double vram = c["placement"].value("vram_gb", 0.0), total = b.weights + b.kv;
    b.weights = total > 0 ? vram * b.weights / total : vram;
    b.kv = vram - b.weights;
    b.tail = fmt::format("{:.1f} GB on the GPU + {:.1f} GB in system RAM", vram, c["placement"].value("ram_gb", 0.0));
    return b;
  }
  double used = b.weights + b.kv + b.own;
  b.over = used > b.device * 1.0005;
  b.tail = b.over ? fmt::format("{:.1f} GB, {:.1f} GB over the GPU's {:.1f}", used, used - b.device, b.device)
                  : fmt::format("{:.1f} of {:.1f} GB", used, b.device);
  return b;
}

std::string draw(const Bar& b, std::size_t width, const Style& st) {
  if (!b.sized) return st.dim(b.tail);
  auto cells = [&](double gb) { return static_cast<std::size_t>(std::lround(gb / b.device * static_cast<double>(width))); };
  std::size_t w = std::min(cells(b.weights), width);
  std::size_t k = std::min(cells(b.kv), width - w);
  std::size_t e = std::min(cells(b.own), width - w - k);
  auto run = [](std::size_t n, const char* glyph) {
    std::string r;
    for (std::size_t i = 0; i < n; ++i) r += glyph;
    return r;
  };
  return st.cyan(run(w, "█")) + st.yellow(run(k, "▓")) + st.dim(run(e, "▒")) + st.dim(run(width - w - k - e, "·")) +
         (b.over ? st.red("▶") : " ") + " " + (b.over ? st.red(b.tail) : b.tail);
}

struct SeenWarning {
  ojson warning;
  std::vector<std::size_t> ranks;
};

// Every warning of the shown rows once, in order of first appearance.
std::vector<SeenWarning> shown_warnings(const ojson& cands, std::size_t shown) {
  std::vector<SeenWarning> out;
  std::map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < cands.size() && i < shown; ++i)
    for (const auto& w : cands[i]["warnings"]) {
      std::string key = w["id"].get<std::string>() + "\n" + w["message"].get<std::string>();
      auto [it, fresh] = at.emplace(key, out.size());
      if (fresh) out.push_back({w, {}});
      out[it->second].ranks.push_back(i);
    }
  return out;
}

std::vector<std::string> warning_lines(const ojson& cands, std::size_t shown, const Style& st, bool verbose) {
  std::vector<std::string> now, conditional;
  std::vector<std::string> conditions;
  for (const auto& s : shown_warnings(cands, shown)) {
    const ojson& w = s.warning;
    std::string line = fmt::format("{}  {} [{}] — {}", severity_text(w, st), w["message"].get<std::string>(),
                                   w["id"].get<std::string>(), ranks_text(s.ranks));
    if (!w.contains("condition")) {
      now.push_back(line);
      continue;
    }
    conditional.push_back(line + " — if " + w["condition"].get<std::string>());
    std::string cond = w["condition"];
    if (std::find(conditions.begin(), conditions.end(), cond) == conditions.end()) conditions.push_back(cond);
  }
  if (verbose) now.insert(now.end(), conditional.begin(), conditional.end());
  else if (!conditional.empty())
    now.push_back(st.dim(fmt::format("{} more apply only if {} (conditions not stated; -v or --format json lists them)",
                                     conditional.size(), fmt::join(conditions, "; or "))));
  return now;
}

std::string rule_label(const std::string& id) {
  if (id.rfind("rule-", 0) == 0) return "Rule " + id.substr(5);
  return id;
}

// What an exclusion names: a format, an engine, or a format on an engine.
std::string excluded_who(const ojson& e) {
  if (e["engine"].is_null()) return e["format"].get<std::string>();
  if (e["format"].is_null()) return e["engine"].get<std::string>();
  return fmt::format("{} on {}", e["format"].get<std::string>(), e["engine"].get<std::string>());
}

std::vector<std::string> exclusions(const ojson& r, bool verbose) {
  std::vector<std::string> out;
  std::map<std::string, std::vector<std::string>> not_choices;  // Rule 7, one line per reason
  for (const auto& e : r["excluded"]) {
    if (e["rule"] == "rule-7" && !verbose && e["engine"].is_null()) {
      not_choices[e["reason"]].push_back(e["format"]);
      continue;
    }
    out.push_back(fmt::format("{} — {}: {}", excluded_who(e), rule_label(e["rule"]), e["reason"].get<std::string>()));
  }
  for (const auto& [reason, formats] : not_choices)
    out.insert(out.begin(), fmt::format("{} — Rule 7: {}", fmt::join(formats, ", "), reason));
  return out;
}

// Without -v: what each rule left out, by name, on one line ("Rule 1: modelopt, nvfp4 on trtllm · …").
std::string exclusion_summary(const ojson& r) {
  std::vector<std::string> rules;
  std::map<std::string, std::vector<std::string>> names;  // rule -> "format on engine", each once
  // A rule that excluded every one of its candidates for one reason says it once, here (a --kv-cache the engine
  // cannot select excludes every format alike): a reader should not need -v to learn why nothing is left.
  std::map<std::string, std::set<std::string>> reasons;
  for (const auto& e : r["excluded"]) {
    std::string rule = e["rule"].get<std::string>();
    if (!names.count(rule)) rules.push_back(rule);
    std::string who = excluded_who(e);
    auto& v = names[rule];
    if (std::find(v.begin(), v.end(), who) == v.end()) v.push_back(who);
    reasons[rule].insert(e.value("reason", std::string()));
  }
  std::sort(rules.begin(), rules.end());
  std::vector<std::string> parts;
  bool all_said = true;
  for (const auto& rule : rules) {
    bool one = reasons[rule].size() == 1 && !reasons[rule].begin()->empty() && names[rule].size() > 1;
    all_said = all_said && one;
    parts.push_back(one ? fmt::format("{} ({} of them, one reason): {}", rule_label(rule), names[rule].size(), *reasons[rule].begin())
                        : fmt::format("{}: {}", rule_label(rule), fmt::join(names[rule], ", ")));
  }
  return fmt::format("{}{}", fmt::join(parts, " · "), all_said ? " (-v lists them)" : " (-v gives each reason)");
}

std::vector<std::string> unknowns(const ojson& r, const ojson& cands, std::size_t shown) {
  std::vector<std::string> out = strings(r["unknowns"]);
  std::map<std::string, std::vector<std::size_t>> conflicts;
  std::vector<std::string> order;
  for (std::size_t i = 0; i < cands.size() && i < shown; ++i)
    for (const auto& c : cands[i]["conflicts"]) {
      if (!conflicts.count(c)) order.push_back(c);
      conflicts[c].push_back(i);
    }
  for (const auto& c : order) out.push_back(fmt::format("{}: {}", ranks_text(conflicts[c]), c));
  return out;
}

// How to build #1's backend, for an engine compiled per backend: the build, the device name.
std::vector<std::string> backend_build_lines(const ojson& b) {
  std::vector<std::string> out;
  out.push_back(fmt::format("{}: `{}`", b["name"].get<std::string>(), b["build"].get<std::string>()));
  if (b.contains("device"))
    out.push_back(fmt::format("a build with several backends selects this one as device {}", b["device"].get<std::string>()));
  if (b.contains("note")) out.push_back(b["note"].get<std::string>());
  return out;
}

// Whether a shown row's quality is an estimate ("≈", footnoted under the table).
bool estimate_shown(const ojson& cands, const std::vector<Group>& groups, std::size_t top) {
  for (std::size_t g = 0; g < groups.size() && g < top; ++g)
    if (quality_cell(cands[groups[g].members.front()]).find("≈") != std::string::npos) return true;
  return false;
}

// The rows shown: the first `top` rows (groups), as a count of candidates.
std::size_t shown_candidates(const std::vector<Group>& groups, std::size_t top) {
  std::size_t n = 0;
  for (std::size_t g = 0; g < groups.size() && g < top; ++g) n += groups[g].members.size();
  return n;
}

}  // namespace

std::string severity_text(const ojson& w, const Style& st) {
  std::string sev = w["severity"];
  std::string tag = sev == "blocker" ? st.red(sev) : sev == "major" ? st.yellow(sev) : sev;
  return w["silent"].get<bool>() ? tag + " (silent)" : tag;
}

// The commands that carry out a candidate's plan, each with its role: what the user pastes.
static std::vector<std::string> command_lines(const ojson& c) {
  std::vector<std::string> out;
  for (const auto& x : c.value("commands", ojson::array())) {
    std::string role = x.value("role", "");
    std::string label = role == "run"      ? ""
                        : role == "fit"      ? "or let the engine fit it: "
                        : role == "quantize" ? "first, make the file: "
                        : role == "serve"    ? "start the server: "
                        : role == "import"   ? "import the file: "
                        : role == "download" ? "first, fetch it: "
                        : role == "hub"      ? "or fetch it from the Hub as it starts: "
                                             : role + ": ";
    out.push_back(label + x.value("command", std::string()));
  }
  return out;
}

std::string render_recommend_text(const ojson& r, const Style& st, std::size_t top, bool verbose) {
  std::string out = header(r, st.width) + "\n";
  if (r.contains("lead") && !r["lead"].empty())
    out += section(lead_title(r), strings(r["lead"]), st) + "\n";
  const auto& cands = r["candidates"];
  auto groups = groups_of(cands);
  std::size_t shown = shown_candidates(groups, top);
  enum { kRank, kFormat, kEngine, kKernel, kPath, kWeights, kKv, kTotal, kFits, kDecode, kQuality };
  Table t({"#", "format", "engine", "kernel", "path", "weights GB", "KV GB", "total GB", "fits", "tok/s", "quality"});
  for (std::size_t g = 0; g < groups.size() && g < top; ++g) t.add(row(cands, groups[g], st));
  std::size_t natural = t.natural_width(1);
  t.fit(st.width, 1, {kKernel, kKv, kWeights, kPath}, {{kEngine, 18}, {kQuality, 14}, {kFormat, 16}});
  // Nothing left to rank and no lead to say why: an empty table says nothing, so the answer says so and points at the reasons.
  if (cands.empty() && !(r.contains("lead") && !r["lead"].empty()))
    out += section("No answer", {"every candidate was excluded by a rule; the reasons are under Excluded, below"}, st);
  else if (!cands.empty())  // a lead already said why nothing is left: no empty table under it
    out += t.render(1);
  std::vector<std::string> below;
  if (cands.size() > shown) below.push_back(fmt::format("… {} more (--all, or --format json)", cands.size() - shown));
  if (estimate_shown(cands, groups, top))
    below.push_back("≈ estimated cost against the 16-bit model, KLD-equivalent nats (docs/quality.md); the band and what it rests on: "
                    "Why #1, --format json");
  if (auto dropped = t.dropped(); !dropped.empty())
    below.push_back(fmt::format("{}: shown from {} columns (a wider terminal, or COLUMNS={}); --format json has every field",
                                fmt::join(dropped, ", "), natural, natural));
  for (const auto& l : below) out += st.dim(wrap(l, st.width, " ", "   "));
  if (groups.size() > 0 && top > 0) {
    // Rows whose bars are the same share a line; the bar takes what the labels and figures leave.
    std::vector<std::pair<std::vector<std::size_t>, Bar>> lines;
    for (std::size_t g = 0; g < groups.size() && g < top; ++g) {
      Bar b = bar_of(cands[groups[g].members.front()]);
      auto same = [&](const auto& l) {
        return l.second.tail == b.tail && std::lround(l.second.weights * 10) == std::lround(b.weights * 10) &&
               std::lround(l.second.kv * 10) == std::lround(b.kv * 10) && std::lround(l.second.own * 10) == std::lround(b.own * 10);
      };
      auto it = std::find_if(lines.begin(), lines.end(), same);
      if (it == lines.end()) it = lines.insert(lines.end(), {{}, b});
      for (auto m : groups[g].members) it->first.push_back(m);
    }
    std::size_t label = 0, tail = 0;
    for (const auto& [ranks, b] : lines) label = std::max(label, visible_width(ranks_text(ranks))), tail = std::max(tail, visible_width(b.tail));
    std::size_t room = st.width > label + tail + 5 ? st.width - label - tail - 5 : 0;
    std::size_t bar = std::clamp<std::size_t>(room, 10, 40);
    Table bars({"", ""});
    for (const auto& [ranks, b] : lines) bars.add({ranks_text(ranks), draw(b, bar, st)});
    int tp = cands[0].value("parts", 1);
    out += "\n" + st.bold("Memory") + fmt::format("     per GPU{}: {} weights  {} KV cache  {} the engine's own  {} free\n",
                                                   tp > 1 ? fmt::format(" (#1 on {} GPUs)", tp) : "", st.cyan("█"), st.yellow("▓"),
                                                   st.dim("▒"), st.dim("·"));
    out += bars.render(1, false);
    if (verbose && !cands.empty() && cands[0].contains("budget"))
      out += section("", {"#1: " + cands[0]["budget"]["statement"].get<std::string>()}, st);
    else if (!cands.empty() && cands[0].contains("budget") && cands[0]["budget"].contains("cap_note"))
      out += section("", {"#1: " + cands[0]["budget"]["cap_note"].get<std::string>()}, st);
  }
  out += "\n";
  if (!cands.empty()) {
    std::vector<std::string> why = strings(cands[0]["why"]);
    if (cands[0].contains("quality")) why.push_back("quality — " + cands[0]["quality"]["statement"].get<std::string>());
    if (cands[0].value("setting", ojson()).is_string())
      why.push_back("needs " + cands[0]["setting"].get<std::string>() + " to fit");
    if (!cands[0]["evidence"].empty()) why.push_back(fmt::format("[{}]", fmt::join(strings(cands[0]["evidence"]), ", ")));
    if (cands[0].contains("rests_on")) why.push_back("#1 " + cands[0]["rests_on"]["statement"].get<std::string>());
    out += section(r.value("lead_kind", ojson()) == "nothing-fits" ? "#1, unfit" : "Why #1", why, st);
  }
  if (!cands.empty() && r.value("lead_kind", ojson()) != "nothing-fits") out += section("Run #1", command_lines(cands[0]), st);
  if (r.contains("what_would_change")) out += section("Instead", strings(r["what_would_change"]), st);
  if (r.contains("tradeoffs")) out += section("Trade-off", strings(r["tradeoffs"]), st);
  out += section("Warnings", warning_lines(cands, shown, st, verbose), st);
  if (!r["excluded"].empty()) out += section("Excluded", verbose ? exclusions(r, true) : std::vector<std::string>{exclusion_summary(r)}, st);
  out += section("Unknowns", unknowns(r, cands, shown), st);
  std::vector<std::string> notes;
  for (const auto& n : strings(r["notes"]))
    if (verbose || n.rfind("ranking —", 0) != 0) notes.push_back(n);  // the ranking's order of keys: -v
  for (const auto& n : strings(r["model"]["notes"])) notes.push_back(n);
  if (!cands.empty() && cands[0].contains("memory_notes"))
    for (const auto& n : strings(cands[0]["memory_notes"])) notes.push_back("#1: " + n);
  if (!cands.empty() && cands[0].contains("forecast") && cands[0]["forecast"].is_object()) {
    const auto& f = cands[0]["forecast"];
    if (f.value("measurements", 0) > 0 && f.contains("decode_tok_s"))
      notes.push_back(fmt::format("#1: decode ~{:.0f} tok/s{}{}, calibrated on {} measurements ({}): {:.2f} of the ~{:.0f} tok/s ceiling",
                                  f.value("decode_tok_s", 0.0),
                                  // the rate at the start of the context, where it differs from the end's to the shown digit
                                  std::lround(f.value("decode_tok_s_start", 0.0)) > std::lround(f.value("decode_tok_s", 0.0))
                                      ? fmt::format(" at the end of the {}-token context (~{:.0f} at its start)", r["query"].value("context", 0L),
                                                    f.value("decode_tok_s_start", 0.0))
                                      : std::string(),
                                  f.value("sequences", 1) > 1 ? fmt::format(" (~{:.0f} per sequence, {} at once)", f.value("per_sequence_tok_s", 0.0),
                                                                            f.value("sequences", 1))
                                                              : std::string(),
                                  f.value("measurements", 0), f.value("basis", std::string()),
                                  // the share of the ceiling the forecast reaches: the efficiency, less any per-layer terms
                                  cands[0].value("decode_ceiling_tok_s", 0.0) > 0
                                      ? f.value("decode_tok_s", 0.0) / cands[0].value("decode_ceiling_tok_s", 0.0)
                                      : f.value("efficiency", 0.0),
                                  cands[0].value("decode_ceiling_tok_s", 0.0)));
  }
  notes.push_back(verbose ? "tok/s = the bandwidth ceiling (bytes read per token) times the efficiency measured for the engine on "
                            "this backend (docs/performance-model.md); ≤N where nothing is measured: the ceiling alone"
                          : "tok/s: ~N forecast from measurements at the end of the context (its whole KV cache read), ≤N the "
                            "bandwidth ceiling alone (docs/performance-model.md); -v gives the ranking's order and every exclusion's reason");
  out += section("Notes", notes, st);
  if (!cands.empty() && cands[0].contains("backend_build")) out += section("Build #1", backend_build_lines(cands[0]["backend_build"]), st);
  if (!cands.empty() && !cands[0]["checks"].empty()) {
    out += "\n" + st.bold("After deploying, verify (Rule 2):") + "\n";
    for (const auto& c : cands[0]["checks"]) out += wrap(c.get<std::string>(), st.width, "  - ", "    ");
  }
  return out;
}

std::string render_recommend_markdown(const ojson& r, std::size_t top, bool verbose) {
  Style plain;
  std::string out = "# qsel recommendation\n\n";
  const auto& a = r["accelerator"];
  out += fmt::format("- **GPU**: {} ({}, {})\n", a["name"].get<std::string>(), a["id"].get<std::string>(), a["target"].get<std::string>());
  out += fmt::format("- **Model**: {}\n", r["model"]["description"].get<std::string>());
  out += fmt::format("- **Context**: {}, **batch**: {}, **KV cache**: {}, **objective**: {}\n\n", r["query"]["context"].get<long>(),
                     r["query"]["batch"].get<int>(), r["query"]["kv_cache"].get<std::string>(), r["query"]["objective"].get<std::string>());
  if (r.contains("lead") && !r["lead"].empty()) {
    out += "**" + lead_title(r) + ".**\n\n";
    for (const auto& l : r["lead"]) out += "- " + markdown_escape(l.get<std::string>()) + "\n";
    out += "\n";
  }
  out += "| # | format | engine | kernel | path | weights GB | KV GB | total GB | fits | tok/s | quality |\n";
  out += "|---|---|---|---|---|---|---|---|---|---|---|\n";
  const auto& cands = r["candidates"];
  auto groups = groups_of(cands);
  std::size_t shown = shown_candidates(groups, top);
  for (std::size_t g = 0; g < groups.size() && g < top; ++g)
  {
    std::vector<std::string> cells;
    for (const auto& cell : row(cands, groups[g], plain)) cells.push_back(markdown_escape(cell));
    out += "| " + fmt::format("{}", fmt::join(cells, " | ")) + " |\n";
  }
  if (estimate_shown(cands, groups, top))
    out += "\n≈ estimated cost against the 16-bit model, KLD-equivalent nats (docs/quality.md); the band and what it rests on: Why #1, "
           "`--format json`\n";
  auto list = [&](const char* title, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    out += fmt::format("\n## {}\n\n", title);
    for (const auto& l : lines) out += "- " + markdown_escape(l) + "\n";
  };
  if (!cands.empty()) list(r.value("lead_kind", ojson()) == "nothing-fits" ? "#1 (does not fit)" : "Why #1", strings(cands[0]["why"]));
  if (!cands.empty() && r.value("lead_kind", ojson()) != "nothing-fits") list("Run #1", command_lines(cands[0]));  // escaped by list
  if (r.contains("what_would_change")) list("Instead", strings(r["what_would_change"]));
  if (r.contains("tradeoffs")) list("Trade-off", strings(r["tradeoffs"]));
  list("Warnings", warning_lines(cands, shown, plain, verbose));
  list("Excluded", exclusions(r, verbose));
  list("Unknowns", unknowns(r, cands, shown));
  list("Notes", strings(r["notes"]));
  if (!cands.empty() && cands[0].contains("backend_build")) list("Build #1", backend_build_lines(cands[0]["backend_build"]));
  if (!cands.empty()) list("After deploying, verify (Rule 2)", strings(cands[0]["checks"]));
  return out;
}

}  // namespace qsel
