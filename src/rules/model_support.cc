// An engine must implement the model before any format question matters:
// an engine whose model registry lacks the model's architecture class, or that
// records it does not serve the model's attention kind (MLA, MoE, sliding
// window, hybrid), is excluded once with the reason. Where no record says, the
// answer says so (an explicit unknown), and the engine stays.
#include <map>
#include <set>

#include <fmt/format.h>

#include "qsel/rules/rules.h"
#include "qsel/core/json_number.h"
#include "qsel/rules/rule_support.h"

namespace qsel {
using nlohmann::json;
namespace {

struct Support {
  enum { Yes, No, Unknown } value = Unknown;
  std::string reason;
};

bool has_kind(const ModelSpec& m, const std::string& kind) {
  if (kind == "moe") return m.moe();
  if (kind == "sliding-window") return m.sliding_window();
  return m.attention == kind;
}

Support serves(const Record& engine, const ModelSpec& m) {
  const json& ms = object_field(engine.data, "model_support");
  for (const auto& u : array_field(ms, "unsupported")) {
    std::string kind = u["attention"];
    if (has_kind(m, kind)) return {Support::No, fmt::format("{} does not serve {} models: {}", engine.id, kind, u["reason"].get<std::string>())};
  }
  if (m.architecture.empty()) return {Support::Unknown, "the model's architecture class is not recorded"};
  if (!ms.contains("architectures")) return {Support::Unknown, fmt::format("no record lists the architectures {} implements", engine.id)};
  auto archs = ms["architectures"].get<std::vector<std::string>>();
  if (rule_util::contains(archs, m.architecture)) return {Support::Yes, ""};
  std::string version = object_field(ms, "source").value("version", std::string());
  if (ms.value("complete", false) || rule_util::contains(ms.value("lacks", std::vector<std::string>{}), m.architecture))
    return {Support::No, fmt::format("{}'s model registry{} has no {}", engine.id, version.empty() ? "" : " (" + version + ")", m.architecture)};
  return {Support::Unknown, fmt::format("their recorded architecture lists are partial and do not name {}", m.architecture)};
}

// A format whose loader in this engine maps only some architectures (model_support.by_format: SGLang's GGUF loader):
// why this model's checkpoint in it does not load, or "".
std::string format_refusal(const Record& engine, const Record& format, const ModelSpec& m) {
  if (m.architecture.empty()) return "";
  for (const auto& e : array_field(object_field(engine.data, "model_support"), "by_format")) {
    auto formats = e.value("formats", std::vector<std::string>{});
    if (!rule_util::contains(formats, format.id)) continue;
    if (rule_util::contains(e.value("architectures", std::vector<std::string>{}), m.architecture)) return "";
    const json& src = object_field(e, "source");
    std::string commit = src.value("commit", std::string());
    return fmt::format("{}'s loader for {} maps only {} ({}{}): {} does not load from it", engine.id, format.id,
                       fmt::join(e.value("architectures", std::vector<std::string>{}), ", "), src.value("title", std::string()),
                       commit.empty() ? "" : " @ " + commit.substr(0, 12), m.architecture);
  }
  return "";
}

}  // namespace

void apply_model_support(Deliberation& d) {
  if (!d.query.model) return;
  const ModelSpec& m = *d.query.model;
  std::set<std::string> said;
  std::map<std::string, std::vector<std::string>> unknown;  // reason -> engines
  std::vector<Candidate> kept;
  for (auto& c : d.candidates) {
    if (!c.engine) { kept.push_back(std::move(c)); continue; }
    Support s = serves(*c.engine, m);
    bool first = said.insert(c.engine->id).second;
    if (s.value == Support::No) {
      if (first) d.excluded.push_back({"", c.engine->id, "model-support", s.reason, {c.engine->id}});
      continue;
    }
    if (std::string refused = c.format ? format_refusal(*c.engine, *c.format, m) : ""; !refused.empty()) {
      d.excluded.push_back({c.format->id, c.engine->id, "model-support", refused, {c.engine->id}});
      continue;
    }
    if (s.value == Support::Unknown && first && !m.architecture.empty()) unknown[s.reason].push_back(c.engine->id);
    if (s.value == Support::Yes) c.why.push_back(fmt::format("{} implements {}", c.engine->id, m.architecture));
    kept.push_back(std::move(c));
  }
  for (const auto& [reason, engines] : unknown)
    d.unknowns.push_back(fmt::format("unrecorded whether {} serve{} {} ({}): {}", fmt::join(engines, ", "),
                                     engines.size() == 1 ? "s" : "", m.id.empty() ? "this model" : m.id, m.architecture, reason));
  if (m.architecture.empty() && !said.empty())
    d.unknowns.push_back("the model's architecture class is not known, so no engine's support for it is checked");
  d.candidates = std::move(kept);
}

}  // namespace qsel
