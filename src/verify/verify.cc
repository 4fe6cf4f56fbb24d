#include "qsel/verify/verify.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/artifact/log_reader.h"
#include "qsel/core/pattern.h"
#include "qsel/core/text.h"
#include "qsel/detect/gpu_probe.h"
#include "qsel/rules/rules.h"

namespace qsel {
using nlohmann::json;
using ojson = nlohmann::ordered_json;
namespace {

constexpr std::size_t kKeep = 50;  // findings kept per kind

struct Hit {
  std::size_t line = 0;
  std::string text;
};

// An engine's log patterns, compiled once per run (not once per line).
struct EnginePatterns {
  std::vector<LogPattern> detect;
  std::vector<std::pair<std::string, std::vector<LogPattern>>> kernels;  // kernel id -> its patterns
  std::vector<std::pair<std::string, LogPattern>> facts;                 // fact name -> its pattern
  std::vector<std::pair<const json*, LogPattern>> notices;               // the notice entry -> its pattern
};

struct EngineScan {
  const Record* engine = nullptr;
  EnginePatterns patterns;
  std::size_t detect = 0;
  Hit first_detect;
  std::map<std::string, Hit> kernels;                    // kernel id -> first line
  std::vector<std::pair<std::string, std::string>> facts;  // fact -> value
  std::vector<Hit> fact_lines;
  std::vector<std::pair<const json*, Hit>> notices;
};

const json& list(const json& j, const char* key) {
  static const json none = json::array();
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : none;
}

// A pattern that does not compile matches nothing; it is said once (lint reports it as QS030).
std::optional<LogPattern> compiled(const Record& engine, const json& p) {
  if (!p.is_string()) return std::nullopt;
  std::string why;
  auto out = LogPattern::compile(p.get<std::string>(), &why);
  if (!out) spdlog::warn("verify: {}: log pattern \"{}\" is unusable ({}); `qsel lint` reports it as QS030", engine.id,
                         printable(p.get<std::string>()), why);
  return out;
}

EnginePatterns patterns_of(const Record& engine) {
  static const json empty = json::object();
  auto it = engine.data.find("log");
  const json& log = it != engine.data.end() ? *it : empty;  // a reference into the record: notices point into it
  EnginePatterns out;
  for (const auto& p : list(log, "detect"))
    if (auto c = compiled(engine, p)) out.detect.push_back(std::move(*c));
  for (const auto& e : list(engine.data, "kernel_selection")) {
    if (!e.contains("log")) continue;
    std::vector<LogPattern> ps;
    for (const auto& p : list(e["log"], "patterns"))
      if (auto c = compiled(engine, p)) ps.push_back(std::move(*c));
    out.kernels.emplace_back(e["kernel"].get<std::string>(), std::move(ps));
  }
  for (const auto& f : list(log, "facts"))
    if (auto c = compiled(engine, f["pattern"])) out.facts.emplace_back(f["fact"].get<std::string>(), std::move(*c));
  for (const auto& nt : list(log, "notices"))
    if (auto c = compiled(engine, nt["pattern"])) out.notices.emplace_back(&nt, std::move(*c));
  return out;
}

std::string shown(std::string_view line) { return printable(line.substr(0, 300)); }

// Every engine's patterns in one RE2::Set, so a line is scanned once whatever the
// number of patterns; the slot of each says whose pattern it is and what it finds.
// Where the set cannot decide, each pattern is tried alone; either way the hits go
// through the same dispatch.
class LineScanner {
 public:
  explicit LineScanner(std::vector<EngineScan>& scans) : scans_(scans), last_detect_(scans.size(), kNoLine) {
    for (std::size_t i = 0; i < scans.size(); ++i) {
      const EnginePatterns& p = scans[i].patterns;
      for (std::size_t k = 0; k < p.detect.size(); ++k) add({i, Slot::Detect, k, &p.detect[k]});
      for (std::size_t k = 0; k < p.kernels.size(); ++k)
        for (const LogPattern& kp : p.kernels[k].second) add({i, Slot::Kernel, k, &kp});
      for (std::size_t k = 0; k < p.facts.size(); ++k) add({i, Slot::Fact, k, &p.facts[k].second});
      for (std::size_t k = 0; k < p.notices.size(); ++k) add({i, Slot::Notice, k, &p.notices[k].second});
    }
    usable_ = usable_ && set_.compile();
    if (!usable_) spdlog::info("verify: the log patterns do not build one RE2 set; each is tried on its own");
  }

  void line(std::size_t n, std::string_view text) {
    if (text.size() < shortest_) return;  // shorter than every pattern's literal text: nothing can match
    if (!usable_ || !set_.match(text, hits_)) {  // what the set answers, pattern by pattern
      hits_.clear();
      for (std::size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i].pattern->matches(text)) hits_.push_back(static_cast<int>(i));
    }
    for (int h : hits_) {
      const Slot& slot = slots_[static_cast<std::size_t>(h)];
      EngineScan& s = scans_[slot.scan];
      const EnginePatterns& p = s.patterns;
      switch (slot.kind) {
        case Slot::Detect:
          if (last_detect_[slot.scan] == n) break;  // a line counts once
          last_detect_[slot.scan] = n;
          if (s.detect++ == 0) s.first_detect = {n, shown(text)};
          break;
        case Slot::Kernel: s.kernels.emplace(p.kernels[slot.entry].first, Hit{n, shown(text)}); break;
        case Slot::Fact:
          if (s.facts.size() < kKeep)
            if (auto caps = slot.pattern->match(text)) {
              const std::string& fact = p.facts[slot.entry].first;
              auto it = caps->find(fact);
              s.facts.push_back({fact, it == caps->end() ? "" : printable(it->second.substr(0, 100))});
              s.fact_lines.push_back({n, shown(text)});
            }
          break;
        case Slot::Notice:
          if (s.notices.size() < kKeep) s.notices.push_back({p.notices[slot.entry].first, {n, shown(text)}});
          break;
      }
    }
  }

 private:
  struct Slot {
    std::size_t scan;                           // the engine's index in scans_
    enum Kind { Detect, Kernel, Fact, Notice } kind;
    std::size_t entry;                          // its detect, kernel, fact or notice entry
    const LogPattern* pattern;
  };
  void add(Slot slot) {
    shortest_ = std::min(shortest_, slot.pattern->min_length());
    if (set_.add(*slot.pattern) != static_cast<int>(slots_.size())) usable_ = false;  // the set's indices are the slots'
    slots_.push_back(slot);
  }
  std::vector<EngineScan>& scans_;
  LogPatternSet set_;
  std::vector<Slot> slots_;
  std::vector<int> hits_;
  static constexpr std::size_t kNoLine = static_cast<std::size_t>(-1);
  std::vector<std::size_t> last_detect_;  // the last line each engine's detection counted
  bool usable_ = true;
  std::size_t shortest_ = static_cast<std::size_t>(-1);
};

// The format a quantization name from the log names: an id, an alias or a checkpoint scheme name.
const Record* format_named(const Graph& g, const std::string& name) {
  if (name.empty()) return nullptr;
  if (Resolution r = g.resolve(name, Kind::Format); r) return r.record;
  for (const Record* f : g.of_kind(Kind::Format))
    for (const auto& s : f->strings("/checkpoint_scheme_names"))
      if (to_lower(s) == to_lower(name)) return f;
  return nullptr;
}

std::string fact(const EngineScan& s, const std::string& name) {
  for (const auto& [k, v] : s.facts)
    if (k == name) return v;
  return "";
}

struct Prediction {
  const Record* kernel = nullptr;
  std::string path, reason;
};

Prediction predict(const Graph& g, const VerifyRequest& r, const Record& engine, const Record& target, const Record& format) {
  Query q;
  q.accelerator = r.accelerator;
  q.target = &target;
  q.formats = {format.id};
  q.engines = {engine.id};
  q.extra_flags = r.flags;
  Deliberation d = deliberate(g, q);
  for (const auto& c : d.candidates)
    if (c.format == &format && c.engine == &engine) return {c.kernel, c.path, fmt::format("{}", fmt::join(c.why, "; "))};
  for (const auto& e : d.excluded)
    if (e.format == format.id && (e.engine.empty() || e.engine == engine.id)) return {nullptr, "excluded", e.reason};
  return {nullptr, "", fmt::format("the records give {} no path for {} on {}", engine.id, format.id, target.id)};
}

ojson check(const std::string& name, const std::string& result, const std::string& text) {
  return {{"check", name}, {"result", result}, {"text", text}};
}

}  // namespace

ojson verify_log(const Graph& g, const VerifyRequest& r) {
  std::vector<EngineScan> scans;
  for (const Record* e : g.of_kind(Kind::Engine))
    if (!r.engine || e == r.engine) scans.push_back({e, patterns_of(*e)});
  LineScanner scanner(scans);
  LogScan ls = scan_log(r.log, [&](std::size_t n, std::string_view line) {
    scanner.line(n, line);
  });
  spdlog::info("verify: read {} line(s), {} byte(s) of {}{}", ls.lines, ls.bytes, r.log,
               ls.stopped_by_time ? " (stopped at the time cap)" : ls.stopped ? " (stopped at the size cap)" : "");
  for (const auto& sc : scans)
    if (sc.detect + sc.kernels.size() > 0)
      spdlog::info("verify: {}: {} detection line(s), {} kernel line(s)", sc.engine->id, sc.detect, sc.kernels.size());
  ojson j;
  j["log"] = r.log;
  j["lines"] = ls.lines;
  if (ls.cut) j["lines_cut"] = ls.cut;
  if (ls.stopped_by_time) j["stopped_after_s"] = kMaxLogTime.count();
  else if (ls.stopped) j["stopped_at_bytes"] = ls.bytes;
  // The engine: the one asked for, else the one whose own lines the log has most of.
  auto best = std::max_element(scans.begin(), scans.end(), [](const EngineScan& a, const EngineScan& b) {
    return a.detect + 2 * a.kernels.size() < b.detect + 2 * b.kernels.size();
  });
  const EngineScan* s = best != scans.end() && (r.engine || best->detect + best->kernels.size() > 0) ? &*best : nullptr;
  ojson checks = ojson::array();
  if (!s) {
    j["engine"] = nullptr;
    j["verdict"] = "unverified";
    checks.push_back(check("engine", "fail", "no line of the log is one an engine record knows; name it with --engine"));
    j["checks"] = checks;
    return j;
  }
  std::string detected_by = "--engine";
  if (!r.engine && s->detect > 0) {
    detected_by = fmt::format("line {}: {}", s->first_detect.line, s->first_detect.text);
  } else if (!r.engine) {  // no line of its own: recognised by a kernel-selection line only
    const Hit* first = nullptr;
    for (const auto& [id, hit] : s->kernels)
      if (!first || hit.line < first->line) first = &hit;
    if (first) detected_by = fmt::format("its kernel-selection line {}: {}", first->line, first->text);
  }
  j["engine"] = {{"id", s->engine->id}, {"detected_by", detected_by}};
  // Target and format: as given, else from what the log printed.
  const Record* target = r.target;
  std::string target_from = target ? "--gpu" : "";
  if (!target)
    if (std::string cc = fact(*s, "compute_capability"); !cc.empty())
      if (Resolution t = g.resolve(target_of_compute_cap(cc), Kind::Target); t) {
        target = t.record;
        target_from = fmt::format("the log: compute capability {}", cc);
      }
  const Record* format = r.format;
  std::string format_from = r.format_source;
  std::string logged_quant = fact(*s, "quantization");
  const Record* logged_format = format_named(g, logged_quant);
  if (!format && logged_format) {
    format = logged_format;
    format_from = fmt::format("the log: {}", logged_quant);
  }
  j["target"] = target ? ojson{{"id", target->id}, {"from", target_from}} : ojson();
  j["format"] = format ? ojson{{"id", format->id}, {"from", format_from}} : ojson();
  ojson observed = ojson::array();
  for (const auto& [k, hit] : s->kernels) {
    const Record* kr = g.find(k);
    observed.push_back({{"kernel", k}, {"mode", kr ? ojson(kr->str("mode")) : ojson()}, {"line", hit.line}, {"text", hit.text}});
  }
  j["observed"] = observed;
  ojson facts = ojson::array();
  for (std::size_t i = 0; i < s->facts.size(); ++i)
    facts.push_back({{"fact", s->facts[i].first}, {"value", s->facts[i].second}, {"line", s->fact_lines[i].line}});
  j["facts"] = facts;
  // Rule 2, check 1: the checkpoint's scheme.
  if (r.format && logged_format && logged_format != r.format)
    checks.push_back(check("checkpoint", "fail", fmt::format("the log says {} ({}), but {} is {}", logged_quant, logged_format->id,
                                                             r.format_source, r.format->id)));
  else if (r.format)
    checks.push_back(check("checkpoint", "pass", fmt::format("{}{}", r.format_source,
                                                             logged_format ? fmt::format("; the log agrees ({})", logged_quant) : "")));
  else if (format)
    checks.push_back(check("checkpoint", "info", fmt::format("format read from the log: {} → {}", logged_quant, format->id)));
  else
    checks.push_back(check("checkpoint", "info", "format unknown: give --model PATH (a checkpoint) or --quant FORMAT"));
  // Check 2: the kernel that ran against the kernel predicted.
  Prediction p;
  std::string verdict;
  if (target && format) p = predict(g, r, *s->engine, *target, *format);
  j["predicted"] = target && format ? ojson{{"kernel", p.kernel ? ojson(p.kernel->id) : ojson()}, {"path", p.path}, {"why", p.reason}} : ojson();
  if (s->kernels.empty()) {
    verdict = "unverified";
    checks.push_back(check("kernel", "fail", fmt::format("no line names a kernel {} records patterns for: nothing to compare", s->engine->id)));
  } else if (!target || !format) {
    verdict = "unverified";
    checks.push_back(check("kernel", "info", fmt::format("the log shows {}; nothing to compare it with ({})", observed[0]["kernel"].get<std::string>(),
                                                         !target ? "give --gpu, or a log with the compute capability" : "give --model PATH or --quant")));
  } else if (p.kernel && s->kernels.count(p.kernel->id)) {
    verdict = "match";
    checks.push_back(check("kernel", "pass", fmt::format("{} ran ({} path), as the rules predict for {} on {}", p.kernel->id, p.path, format->id,
                                                         target->id)));
  } else {
    verdict = "mismatch";
    std::vector<std::string> seen;
    for (const auto& o : observed) seen.push_back(fmt::format("{} ({})", o["kernel"].get<std::string>(), o["mode"].is_string() ? o["mode"].get<std::string>() : "?"));
    checks.push_back(check("kernel", "fail",
                           p.kernel ? fmt::format("the log shows {}; the rules predict {} ({} path) for {} on {}", fmt::join(seen, ", "), p.kernel->id,
                                                  p.path, format->id, target->id)
                                    : fmt::format("the log shows {}; the rules give no kernel for {} on {}: {}", fmt::join(seen, ", "), format->id,
                                                  target->id, p.reason)));
  }
  // Check 3: the misleading notices, once each with the lines they appear on.
  std::vector<std::pair<const json*, std::vector<std::size_t>>> seen_notices;
  for (const auto& notice : s->notices) {
    const json* nt = notice.first;
    auto it = std::find_if(seen_notices.begin(), seen_notices.end(), [nt](const auto& x) { return x.first == nt; });
    if (it == seen_notices.end()) seen_notices.push_back({nt, {notice.second.line}});
    else it->second.push_back(notice.second.line);
  }
  for (const auto& [nt, lines] : seen_notices)
    checks.push_back(check("notice", verdict == "match" ? "pass" : "info",
                           fmt::format("line{} {}: {}{}", lines.size() > 1 ? "s" : "", fmt::join(lines, ", "), (*nt)["means"].get<std::string>(),
                                       verdict == "match" ? " — here it is the predicted path, not a problem" : "")));
  j["checks"] = checks;
  j["verdict"] = verdict;
  spdlog::info("verify: verdict {}", verdict);
  return j;
}

}  // namespace qsel
