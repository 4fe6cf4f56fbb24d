#include "qsel/rules/rule_support.h"
#include "qsel/core/json_number.h"

#include "qsel/rules/fit_price.h"

#include <algorithm>

#include <fmt/format.h>

namespace qsel::rule_util {

using nlohmann::json;

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

int grade_rank(const std::string& grade) {
  static const char* order[] = {"controlled", "paper", "vendor-claim", "derived", "anecdotal", "unverified"};
  for (int i = 0; i < 6; ++i)
    if (grade == order[i]) return i;
  return 6;
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && !contains(v, s)) v.push_back(s);
}

bool target_has_precisions(const Record& target, const Record& format) {
  auto have = target.strings("/tensor_core_precisions");
  for (const auto& need : format.strings("/requires_tensor_core"))
    if (!contains(have, need)) return false;
  return true;
}

bool target_has_dtype(const Record& target, const std::string& dtype) {
  return contains(target.strings("/tensor_core_precisions"), dtype) || contains(target.strings("/vector_precisions"), dtype);
}

std::vector<std::string> missing_precisions(const Record& target, const Record& format) {
  std::vector<std::string> out;
  auto have = target.strings("/tensor_core_precisions");
  for (const auto& need : format.strings("/requires_tensor_core"))
    if (!contains(have, need)) out.push_back(need);
  return out;
}

// Every entry that matches counts (an experimental format on a deprecated target is
// both); the least mature level wins, and its reasons are all given.
int maturity_rank(const std::string& level) {
  static const std::vector<std::string> order = {"mainline", "plugin", "unlisted", "experimental", "deprecated"};
  return static_cast<int>(std::find(order.begin(), order.end(), level) - order.begin());
}

// A deployment: the engine's own path, a plugin it names, or a build its install page does not
// list but a maintained one exists (a source build, NVIDIA's Jetson containers). Experimental and
// deprecated paths are not.
bool deployable_maturity(const std::string& level) { return maturity_rank(level) <= maturity_rank("unlisted"); }

namespace {

// A field of the part's recorded host (accelerator `host`), or "".
std::string host_field(const Record* accelerator, const char* key) {
  if (!accelerator) return "";
  const json& h = object_field(accelerator->data, "host");
  return h.contains(key) && h[key].is_string() ? h[key].get<std::string>() : std::string();
}

// An entry's host conditions (cpu_arch, os) against the part's recorded host. A part that
// records no host (a discrete card in the user's machine) meets them when `unknown_holds`.
bool host_holds(const json& entry, const Record* accelerator, bool unknown_holds) {
  for (const char* key : {"cpu_arch", "os"}) {
    if (!entry.contains(key)) continue;
    std::string have = host_field(accelerator, key);
    if (have.empty()) {
      if (!unknown_holds) return false;
      continue;
    }
    const auto& l = entry[key];
    if (std::find(l.begin(), l.end(), json(have)) == l.end()) return false;
  }
  return true;
}

}  // namespace

bool maturity_entry_holds(const json& m, const Record& target, const Record* accelerator) {
  if (m.contains("when") && !selector_matches(m["when"], target)) return false;
  if (m.contains("markets")) {
    const auto& ms = m["markets"];
    if (!accelerator || std::find(ms.begin(), ms.end(), json(accelerator->str("market"))) == ms.end()) return false;
  }
  return host_holds(m, accelerator, false);
}

Maturity maturity_of(const Record& engine, const Record& format, const Record& target, const Record* accelerator) {
  auto rank = maturity_rank;
  Maturity out;
  for (const auto& m : array_field(engine.data, "maturity")) {
    if (m.contains("formats")) {
      const auto& fs = m["formats"];
      if (std::find(fs.begin(), fs.end(), json(format.id)) == fs.end()) continue;
    }
    if (!maturity_entry_holds(m, target, accelerator)) continue;
    std::string level = m["level"].get<std::string>(), reason = m["reason"].get<std::string>();
    if (rank(level) > rank(out.level)) out.level = level;
    if (rank(level) > 0) out.reason = out.reason.empty() ? reason : out.reason + "; " + reason;
  }
  return out;
}

PlatformListing platform_listing(const Record& engine, const Record& target, const Record* accelerator) {
  PlatformListing out;
  const json& list = array_field(engine.data, "supported_platforms");
  if (list.empty()) return out;
  std::string platform_source;  // the list for this part's platform (ROCm's for an AMD GPU), else the first
  for (const auto& p : list) {
    std::string title = object_field(p, "source").value("title", std::string());
    if (out.source.empty()) out.source = title;
    const json& platforms = array_field(object_field(p, "when"), "platforms");
    if (platform_source.empty() && std::find(platforms.begin(), platforms.end(), json(target.str("platform"))) != platforms.end())
      platform_source = title;
    if (p.contains("when") && !selector_matches(p["when"], target)) continue;
    if (p.contains("markets")) {
      const auto& ms = p["markets"];
      if (!accelerator || std::find(ms.begin(), ms.end(), json(accelerator->str("market"))) == ms.end()) continue;
    }
    if (!host_holds(p, accelerator, true)) continue;
    return out;
  }
  out.listed = false;
  if (!platform_source.empty()) out.source = platform_source;
  std::string host;
  if (!host_field(accelerator, "cpu_arch").empty())
    host = fmt::format(", {} {}", host_field(accelerator, "cpu_arch"), host_field(accelerator, "os"));
  out.detail = fmt::format("{} ({}{}{})", accelerator ? accelerator->id : target.id, target.id,
                           accelerator && !accelerator->str("market").empty() ? ", " + accelerator->str("market") : "", host);
  return out;
}

std::string kernel_backend(const Record* kernel, const Record& target) {
  if (kernel)
    for (const auto& b : array_field(kernel->data, "backends"))
      if (selector_matches(object_field(b, "serves"), target)) return b.value("id", std::string());
  return target.str("platform");
}

bool engine_asked(const Query& q, const Record& engine) {
  if (!q.engines.empty()) return contains(q.engines, engine.id);
  return q.every_engine || !engine.data.value("only_when_named", false);
}

bool engine_runs_on(const Record& engine, const Record& target) {
  if (engine.data.contains("runs_on") && !selector_matches(engine.data["runs_on"], target)) return false;
  auto platforms = engine.strings("/platforms");
  return platforms.empty() || contains(platforms, target.str("platform"));
}

namespace {

std::vector<std::string> exclusions_of(const Record& kernel, const std::string& format, const std::string& target, bool general_only) {
  std::vector<std::string> out;
  for (const auto& ex : array_field(kernel.data, "excludes")) {
    if (general_only && !ex.value("general", false)) continue;
    auto names = [&](const char* key, const std::string& id) {
      if (!ex.contains(key)) return true;
      const auto& l = ex[key];
      return std::find(l.begin(), l.end(), json(id)) != l.end();
    };
    if (names("formats", format) && names("targets", target)) out.push_back(ex.value("reason", ""));
  }
  return out;
}

}  // namespace

std::vector<std::string> kernel_exclusions(const Record& kernel, const std::string& format, const std::string& target) {
  return exclusions_of(kernel, format, target, false);
}

std::vector<std::pair<const Record*, std::string>> exclusions_anywhere(const Graph& g, const std::string& format,
                                                                      const std::string& target) {
  std::vector<std::pair<const Record*, std::string>> out;
  for (const Record* k : g.of_kind(Kind::Kernel))
    for (const auto& reason : exclusions_of(*k, format, target, true)) out.emplace_back(k, reason);
  return out;
}

namespace {

bool entry_names(const json& entry, const Record& format) {
  const auto& fs = array_field(entry, "formats");
  if (std::find(fs.begin(), fs.end(), json(format.id)) != fs.end()) return true;
  const auto& rs = array_field(entry, "regimes");
  return std::find(rs.begin(), rs.end(), json(format.str("regime"))) != rs.end();
}

}  // namespace

namespace {

// The exclusion of `kernel` for this format on this target that makes the engine fail
// rather than fall through (excludes[].fails), or null.
const json* failing_exclusion(const Record& kernel, const std::string& format, const std::string& target) {
  if (!kernel.data.contains("excludes")) return nullptr;
  for (const auto& ex : kernel.data.at("excludes")) {  // by reference: the pointer stays valid
    if (!ex.value("fails", false)) continue;
    auto names = [&](const char* key, const std::string& id) {
      if (!ex.contains(key)) return true;
      const auto& l = ex[key];
      return std::find(l.begin(), l.end(), json(id)) != l.end();
    };
    if (names("formats", format) && names("targets", target)) return &ex;
  }
  return nullptr;
}

// Every entry that holds for the format on the target, in order, each as a pick; an entry
// whose kernel fails here ends the list (the engine selects it and stops).
std::vector<KernelPick> holding_entries(const Graph& g, const Record& engine, const Record& format, const Query& q) {
  std::vector<KernelPick> out;
  if (!engine.data.contains("kernel_selection")) return out;
  for (const auto& entry : engine.data.at("kernel_selection")) {  // by reference: the pick points into the record
    if (!entry_names(entry, format)) continue;
    if (entry.contains("when") && !selector_matches(entry["when"], *q.target)) continue;
    std::string unknown;
    if (entry.contains("flags") && (!flags_hold(entry["flags"], q, &unknown) || !unknown.empty())) continue;
    const Record* k = g.find(entry["kernel"].get<std::string>());
    if (!k || !selector_matches(object_field(k->data, "runs_on"), *q.target)) continue;
    if (const json* fail = failing_exclusion(*k, format.id, q.target->id)) {
      KernelPick p;
      p.entry = &entry;
      p.failing = k;
      p.failure = fail;
      out.push_back(p);
      return out;
    }
    if (!kernel_exclusions(*k, format.id, q.target->id).empty()) continue;
    out.push_back({k, &entry, kernel_backend(k, *q.target), nullptr, nullptr});
  }
  return out;
}

}  // namespace

KernelPick pick_kernel(const Graph& g, const Record& engine, const Record& format, const Query& q) {
  auto all = holding_entries(g, engine, format, q);
  return all.empty() ? KernelPick{} : all.front();
}

std::vector<KernelPick> pick_kernels(const Graph& g, const Record& engine, const Record& format, const Query& q) {
  std::vector<KernelPick> out;
  for (auto& p : holding_entries(g, engine, format, q)) {
    if (!p.kernel) {  // the engine selects a failing kernel: no other backend's pick stands for it
      if (out.empty()) out.push_back(p);
      break;
    }
    if (!p.kernel->data.contains("backends")) {  // no backend dimension: the first pick is the engine's
      if (out.empty()) out.push_back(p);
      break;
    }
    if (std::none_of(out.begin(), out.end(), [&](const KernelPick& o) { return o.backend == p.backend; })) out.push_back(p);
  }
  return out;
}

bool flags_hold(const json& flags, const Query& q, std::string* condition) {
  auto have = q.flags();
  std::vector<std::string> unknown;
  for (const auto& f : flags) {
    std::string flag = f.get<std::string>();
    if (have.count(flag)) continue;
    if (q.knows_flag(flag)) return false;
    unknown.push_back(flag);
  }
  if (condition) *condition = fmt::format("{}", fmt::join(unknown, ", "));
  return true;
}

bool fits(const Candidate& c) { return !c.memory || c.memory->fits; }

double format_bits(const Candidate& c) { return number_or(c.format->data, "weight_bits", c.memory ? c.memory->bpw : 0); }

bool offerable(const Candidate& c) {
  return deployable_maturity(c.maturity) && !broken(c) && !c.needless_upcast && c.memory && c.memory->bpw > 0;
}

std::string context_tokens(long tokens) {
  return tokens % 1024 == 0 ? fmt::format("{}k", tokens / 1024) : fmt::format("{}", tokens);
}

std::string describe_candidate(const Candidate& c) {
  std::string where = !c.memory                  ? ""
                      : c.memory->fit == "slow"  ? " partly in system RAM, slow"
                      : c.memory->placement      ? " partly in system RAM"
                      : c.memory->fit == "tight" ? " (tight)"
                                                 : "";
  double tok = c.memory ? decode_speed(*c.memory) : 0;
  return fmt::format("{} on {}{}{}, {}", c.format->id, c.engine ? c.engine->id : "-", where, tok > 0 ? fmt::format(", ~{:.0f} tok/s", tok) : "",
                     c.quality.short_text);
}

bool takes_more_parts(const Record* accelerator) {
  std::string market = accelerator ? accelerator->str("market") : "";
  return market == "consumer" || market == "workstation" || market == "datacenter" || market == "cloud";
}

bool broken(const Candidate& c) { return c.quality.known && !c.quality.reference && c.quality.total() >= broken_threshold(); }

bool has_blocker(const Candidate& c) {
  return std::any_of(c.warnings.begin(), c.warnings.end(), [](const Warning& w) { return w.severity == "blocker" && w.condition.empty(); });
}

}  // namespace qsel::rule_util

namespace qsel {

std::vector<std::string> served_formats(const Record& engine) {
  std::vector<std::string> out = engine.strings("/formats");
  for (const auto& entry : array_field(engine.data, "kernel_selection"))
    for (const auto& f : array_field(entry, "formats")) rule_util::add_unique(out, f.get<std::string>());
  return out;
}

}  // namespace qsel
