#include "qsel/loader/record.h"

#include "qsel/core/text.h"

namespace qsel {

const std::vector<KindInfo>& all_kinds() {
  static const std::vector<KindInfo> kinds = {
      {Kind::Format, "format", "formats"},          {Kind::Accelerator, "accelerator", "accelerators"},
      {Kind::Target, "target", "targets"},          {Kind::Kernel, "kernel", "kernels"},
      {Kind::Engine, "engine", "engines"},          {Kind::Matrix, "matrix", "matrices"},
      {Kind::Benchmark, "benchmark", "benchmarks"}, {Kind::Gotcha, "gotcha", "gotchas"},
      {Kind::Model, "model", "models"},             {Kind::Technique, "technique", "techniques"},
      {Kind::Fact, "fact", "facts"},                {Kind::Question, "question", "questions"},
  };
  return kinds;
}

const char* kind_name(Kind k) { return all_kinds()[static_cast<std::size_t>(k)].name; }
bool holds_engine_facts(Kind k) { return k == Kind::Engine || k == Kind::Kernel || k == Kind::Matrix; }

const char* kind_plural(Kind k) { return all_kinds()[static_cast<std::size_t>(k)].plural; }

std::optional<Kind> parse_kind(std::string_view text) {
  std::string t = to_lower(text);
  for (const auto& k : all_kinds())
    if (t == k.name || t == k.plural) return k.kind;
  return std::nullopt;
}

const std::string& Record::str(const char* field) const {
  static const std::string none;
  auto it = data.find(field);
  return it != data.end() && it->is_string() ? it->get_ref<const std::string&>() : none;
}

std::vector<std::string> Record::strings(const std::string& pointer) const {
  std::vector<std::string> out;
  nlohmann::json::json_pointer p(pointer);
  if (!data.contains(p)) return out;
  for (const auto& v : data.at(p))
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

void fill_common(Record& r) {
  r.id = r.str("id");
  r.name = r.str("name");
  r.aliases = r.strings("/aliases");
}

}  // namespace qsel
