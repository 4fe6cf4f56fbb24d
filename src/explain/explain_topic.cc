// qsel explain TOPIC [--on TARGET|GPU] [--engine E]: a record, a selection rule or
// a checkpoint's format; for a format on a target, every record's say and the verdict.
#include <set>

#include <fmt/format.h>

#include "qsel/artifact/checkpoint.h"
#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/detect/resolve_gpu.h"
#include "qsel/explain/explain.h"
#include "qsel/lint/registry.h"
#include "qsel/model/checkpoint_format.h"
#include "qsel/model/resolve.h"
#include "qsel/rules/rules.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

// Targets whose family is the query or starts with it ("blackwell" covers
// blackwell, blackwell-ultra and blackwell-consumer).
std::vector<const Record*> family_targets(const Graph& g, const std::string& query) {
  std::string q = normalize_name(query);
  std::vector<const Record*> out;
  for (const Record* t : g.of_kind(Kind::Target)) {
    std::string fam = t->str("family");
    if (!fam.empty() && (normalize_name(fam) == q || to_lower(fam).rfind(to_lower(query) + "-", 0) == 0)) out.push_back(t);
  }
  return out;
}

ojson on_many(const Graph& g, const Record& f, const std::vector<const Record*>& targets, const std::string& query,
              const std::vector<std::string>& engines) {
  ojson per = ojson::array();
  std::set<std::string> verdicts;
  for (const Record* t : targets) {
    per.push_back(explain_format_on(g, f, *t, nullptr, engines));
    verdicts.insert(per.back()["verdict"].get<std::string>());
  }
  std::vector<std::string> ids;
  for (const Record* t : targets) ids.push_back(t->id);
  ojson j = {{"topic", f.id}, {"kind", "format-family"}, {"format", f.id}, {"name", f.name}, {"family", query}, {"targets", ids}};
  j["verdict"] = verdicts.size() == 1 ? *verdicts.begin() : "differs";
  j["note"] = verdicts.size() == 1 ? fmt::format("\"{}\" covers {}; the verdict is the same on each", query, fmt::join(ids, ", "))
                                   : fmt::format("\"{}\" covers {}, which differ: name one", query, fmt::join(ids, ", "));
  j["per_target"] = per;
  return j;
}

ojson explain_on(const Graph& g, const Record& f, const ExplainRequest& a) {
  auto fam = family_targets(g, a.on);
  if (fam.size() > 1) return on_many(g, f, fam, a.on, a.engines);
  GpuArg gpu = resolve_gpu(g, a.on, true);
  if (!gpu.target) throw UsageError(fmt::format("{} names no target record", gpu.accelerator->id));
  ojson j = explain_format_on(g, f, *gpu.target, gpu.accelerator, a.engines);
  if (!gpu.note.empty()) j["resolved"] = gpu.note;
  return j;
}

// `qsel explain PATH [--on GPU]`: the format the checkpoint ships in, explained.
ojson explain_checkpoint(const Graph& g, const ExplainRequest& a, const HubSettings& hub) {
  ModelReading m = read_model(g, a.topic, hub);
  const CheckpointAnalysis& an = m.analysis;
  if (!an.format)
    throw UsageError(fmt::format("{}: its quantization matches no format record (qsel inspect {} shows what was read)", a.topic, a.topic));
  ojson j = a.on.empty() ? explain_record(g, *an.format) : explain_on(g, *an.format, a);
  std::string read = fmt::format("read {}: {} (matched by {})", a.topic, an.format->id, an.matched_by);
  j["checkpoint"] = read;
  j["resolved"] = j.contains("resolved") ? read + "; " + j["resolved"].get<std::string>() : read;
  return j;
}

[[noreturn]] void unknown_topic(const Graph& g, const std::string& topic) {
  std::vector<std::string> names = g.ids();
  for (const auto& r : rules()) names.push_back(std::string(r.code));
  for (int i = 1; i <= 7; ++i) names.push_back("rule-" + std::to_string(i));
  auto near = nearest(to_lower(topic), names, 3);
  throw UsageError(fmt::format("unknown topic {}{}; a topic is a record id or alias, rule-1 … rule-7, or a lint code", quote_value(topic),
                               near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", fmt::join(near, "\", \""))));
}

}  // namespace

ojson explain_topic(const Graph& g, const ExplainRequest& a, const HubSettings& hub) {
  std::string topic = to_lower(a.topic);
  if (find_selection_rule(topic) && !rule_doc(topic).empty()) return explain_rule(g, topic);
  Resolution r = g.resolve(a.topic);
  bool path_like = a.topic.find('/') != std::string::npos || a.topic.find('.') != std::string::npos || !r;
  if (path_like && (r ? looks_like_checkpoint(a.topic) : names_model_files(a.topic, hub))) return explain_checkpoint(g, a, hub);
  if (!r) unknown_topic(g, a.topic);
  if (!a.on.empty()) {
    if (r.record->kind != Kind::Format) throw UsageError(fmt::format("--on applies to formats; {} is a {}", r.record->id, kind_name(r.record->kind)));
    return explain_on(g, *r.record, a);
  }
  return explain_record(g, *r.record);
}

}  // namespace qsel
