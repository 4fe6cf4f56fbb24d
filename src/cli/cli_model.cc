#include "cli_model.h"
#include "qsel/core/json_number.h"

#include <algorithm>

#include <CLI/CLI.hpp>

#include "qsel/cli/app.h"
#include "qsel/graph/graph.h"
#include "qsel/lint/registry.h"

namespace qsel {
namespace {

bool shell_safe(const std::string& w) {
  return !w.empty() && w.size() <= 80 && std::all_of(w.begin(), w.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-';
  });
}

std::vector<std::string> ids_of(const Graph& g, Kind k) {
  std::vector<std::string> out;
  for (const Record* r : g.of_kind(k))
    if (shell_safe(r->id)) out.push_back(r->id);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> join(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// What each option's value completes to, by the option's long name: one table.
struct ValueSource {
  const char* option;
  const char* complete;  // "file", "dir", "" (words)
  std::vector<std::string> (*words)(const Graph& g, const Command* c);
};

std::vector<std::string> none(const Graph&, const Command*) { return {}; }
std::vector<std::string> gpus(const Graph& g, const Command*) { return join({"auto", "custom"}, ids_of(g, Kind::Accelerator)); }
std::vector<std::string> parts_or_targets(const Graph& g, const Command*) {
  return join(join({"auto"}, ids_of(g, Kind::Accelerator)), ids_of(g, Kind::Target));
}
std::vector<std::string> engines(const Graph& g, const Command*) { return ids_of(g, Kind::Engine); }
// The backends --backend takes: every engine's `backends` and every target's platform.
std::vector<std::string> backends(const Graph& g, const Command*) {
  std::vector<std::string> out;
  auto add = [&](const std::string& id) {
    if (!id.empty() && shell_safe(id) && std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  };
  for (const Record* e : g.of_kind(Kind::Engine))
    for (const auto& b : array_field(e->data, "backends")) add(b.value("id", std::string()));
  for (const Record* t : g.of_kind(Kind::Target)) add(t->str("platform"));
  std::sort(out.begin(), out.end());
  return out;
}
std::vector<std::string> models(const Graph& g, const Command*) { return ids_of(g, Kind::Model); }
std::vector<std::string> formats(const Graph& g, const Command*) { return ids_of(g, Kind::Format); }
std::vector<std::string> targets(const Graph& g, const Command*) { return ids_of(g, Kind::Target); }
std::vector<std::string> vendors(const Graph&, const Command*) { return {"amd", "apple", "aws", "cerebras", "google", "groq", "intel", "nvidia", "tenstorrent"}; }
std::vector<std::string> output_formats(const Graph&, const Command* c) {
  if (!c) return output_format_names();
  return {c->formats.begin(), c->formats.end()};
}
std::vector<std::string> colors(const Graph&, const Command*) { return {"auto", "always", "never"}; }
std::vector<std::string> kv_caches(const Graph&, const Command*) { return {"auto", "fp16", "bf16", "fp8", "int8"}; }
std::vector<std::string> objectives(const Graph&, const Command*) { return {"quality", "speed", "memory"}; }
std::vector<std::string> spec_decodes(const Graph&, const Command*) { return {"none", "draft", "mtp", "ngram"}; }
std::vector<std::string> kinds(const Graph&, const Command*) {
  std::vector<std::string> out;
  for (const auto& k : all_kinds()) out.push_back(k.plural);
  return out;
}
std::vector<std::string> shells(const Graph&, const Command*) { return {"bash", "zsh", "fish"}; }
std::vector<std::string> all_ids(const Graph& g, const Command*) {
  std::vector<std::string> out;
  for (const auto& k : all_kinds()) out = join(std::move(out), ids_of(g, k.kind));
  return out;
}
std::vector<std::string> lint_rules(const Graph&, const Command*) {  // codes, then names
  std::vector<std::string> codes, names;
  for (const auto& r : rules()) codes.emplace_back(r.code), names.emplace_back(r.name);
  return join(codes, names);
}
// explain's topic: formats first, the seven rules, lint codes, then every other record.
std::vector<std::string> topics(const Graph& g, const Command* c) {
  std::vector<std::string> out = ids_of(g, Kind::Format);
  for (int i = 1; i <= 7; ++i) out.push_back("rule-" + std::to_string(i));
  for (const auto& r : rules()) out.emplace_back(r.code);
  for (const auto& id : all_ids(g, c))
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  return out;
}
std::vector<std::string> parts(const Graph& g, const Command*) { return join(ids_of(g, Kind::Accelerator), ids_of(g, Kind::Target)); }
std::vector<std::string> severities(const Graph&, const Command*) { return {"blocker", "major", "minor"}; }
std::vector<std::string> regimes(const Graph& g, const Command*) {
  std::vector<std::string> out;
  for (const auto& k : all_kinds())
    for (const Record* r : g.of_kind(k.kind))
      if (std::string v = r->str("regime"); shell_safe(v) && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  std::sort(out.begin(), out.end());
  return out;
}
std::vector<std::string> kind_names(const Graph&, const Command*) {
  std::vector<std::string> out;
  for (const auto& k : all_kinds()) out.emplace_back(kind_name(k.kind));
  return out;
}
std::vector<std::string> edge_labels(const Graph& g, const Command*) {
  std::vector<std::string> out = g.edge_labels();
  std::erase_if(out, [](const std::string& l) { return !shell_safe(l); });
  return out;
}

const std::vector<ValueSource>& value_sources() {
  static const std::vector<ValueSource> table = {
      {"format", "", output_formats}, {"color", "", colors},          {"data", "dir", none},
      {"gpu", "", gpus},              {"on", "", parts_or_targets},   {"engine", "", engines},
      {"backend", "", backends},      {"model", "file", models},      {"quant", "", formats},         {"target", "", targets},
      {"vendor", "", vendors},        {"kv-cache", "", kv_caches},    {"objective", "", objectives},
      {"spec-decode", "", spec_decodes}, {"model-config", "file", none}, {"config", "file", none},
      {"baseline", "file", none},     {"write-baseline", "file", none}, {"output-file", "file", none},
      {"log", "file", none},          {"around", "", all_ids},
      {"native-on", "", parts},       {"emulated-on", "", parts},     {"severity", "", severities},
      {"regime", "", regimes},        {"select", "", lint_rules},     {"ignore", "", lint_rules},
      {"kinds", "", kind_names},      {"edges", "", edge_labels},     {"root", "dir", none},
      // positionals, by their name
      {"kind", "", kinds},            {"topic", "file", topics},      {"id", "", all_ids},
      {"path", "file", none},         {"paths", "file", none},        {"shell", "", shells},
  };
  return table;
}

CliOption option_of(const CLI::Option* o, const Graph& g, const Command* c) {
  CliOption out;
  for (const auto& s : o->get_snames()) out.names.push_back("-" + s);
  for (const auto& l : o->get_lnames()) out.names.push_back("--" + l);
  out.help = o->get_description();
  bool flag = o->get_expected_min() == 0 || o->get_type_size() == 0;
  std::string key = o->get_positional() ? o->get_name() : (o->get_lnames().empty() ? "" : o->get_lnames().front());
  if (!flag || o->get_positional()) {
    std::string type = o->get_type_name();
    type = type.substr(0, type.find(':'));  // "WHEN:{auto,always,never}" -> "WHEN"
    out.value = o->get_positional() ? o->get_name() : (type.empty() || type == "TEXT" ? "VALUE" : type);
    if (type == "INT" || type == "FLOAT" || type == "UINT") out.value = "N";
    for (const auto& v : value_sources())
      if (key == v.option) {
        out.complete = v.complete;
        out.choices = v.words(g, c);
      }
  }
  return out;
}

}  // namespace

CliModel cli_model(const CLI::App& app, const Graph& g) {
  CliModel m;
  for (const CLI::Option* o : app.get_options())
    if (o->get_lnames().empty() || o->get_lnames().front() != "help") m.global.push_back(option_of(o, g, nullptr));
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const Command* c = find_command(sub->get_name());
    CliCommand cmd;
    cmd.name = sub->get_name();
    cmd.summary = sub->get_description();
    cmd.footer = sub->get_footer();
    cmd.hidden = c && c->hidden;
    if (c) cmd.examples.assign(c->examples.begin(), c->examples.end());
    if (c) cmd.formats.assign(c->formats.begin(), c->formats.end());
    for (const CLI::Option* o : sub->get_options()) {
      if (!o->get_lnames().empty() && o->get_lnames().front() == "help") continue;
      (o->get_positional() ? cmd.positionals : cmd.options).push_back(option_of(o, g, c));
    }
    m.commands.push_back(std::move(cmd));
  }
  return m;
}

std::vector<CliOption> globals_for(const CliModel& m, const CliCommand& c) {
  std::vector<CliOption> out = m.global;
  for (auto& o : out)
    if (std::find(o.names.begin(), o.names.end(), "--format") != o.names.end() && !c.formats.empty()) o.choices = c.formats;
  return out;
}

}  // namespace qsel
