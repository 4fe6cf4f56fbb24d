// libFuzzer harness: one record file through the strict YAML reader and the
// schema of its kind (the first byte picks the kind). Any crash, sanitizer
// report, timeout or unbounded allocation is a bug; problems are expected.
//
// It also holds the fast block reader to the general one: wherever the fast
// reader answers, the general reader must find no problem and give the same
// value and the same marks, or the harness aborts.
//
// Every document that reads as YAML is also put to the schema verdict of its
// kind: if the verdict calls it certainly valid and valijson rejects it, the
// harness aborts (the verdict may only ever spare valijson a "yes").
//
// A record that loads goes through lint's record pass (every check's record
// part, then pruning). Every mark must still name a value of the pruned
// record, and the record's own members must not change, or the harness aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <map>
#include <memory>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "loader/schema_patterns.h"
#include "loader/schema_verdict.h"
#include "loader/yaml_block.h"
#include "qsel/lint/record_pass.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/loader/loader.h"

namespace {

// True when every mark's pointer names a value of the record.
bool marks_name_values(const qsel::Record& r) {
  bool ok = true;
  r.marks.for_each([&](std::string_view pointer, qsel::Mark, qsel::Mark) {
    try {
      ok = ok && r.data.contains(nlohmann::json::json_pointer(std::string(pointer)));
    } catch (const nlohmann::json::exception&) {
      ok = false;
    }
  });
  return ok;
}

struct KindSchema {
  nlohmann::json for_valijson;
  std::optional<qsel::SchemaVerdict> verdict;
  valijson::Schema schema;
};

void check_verdict(qsel::Kind kind, const nlohmann::json& doc) {
  static std::map<qsel::Kind, std::unique_ptr<KindSchema>> all;
  auto& s = all[kind];
  if (!s) {
    s = std::make_unique<KindSchema>();
    const auto& schema = qsel::embedded().schemas.at(qsel::kind_name(kind));
    s->for_valijson = schema;
    qsel::SchemaPatterns patterns(schema, s->for_valijson);
    s->verdict = qsel::SchemaVerdict::compile(s->for_valijson);
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(s->for_valijson);
    parser.populateSchema(adapter, s->schema);
  }
  if (!s->verdict || !s->verdict->certainly_valid(doc)) return;
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter target(doc);
  if (!validator.validate(s->schema, target, nullptr)) std::abort();
}

void check_record_pass(qsel::Record& r) {
  static qsel::RecordPass pass;
  bool held = marks_name_values(r);
  std::string id = r.id, name = r.name, file = r.file;
  auto aliases = r.aliases;
  pass(r);
  if ((held && !marks_name_values(r)) || r.id != id || r.name != name || r.file != file || r.aliases != aliases) std::abort();
  std::vector<qsel::Record> none;
  pass.take(none);  // drop the findings: the pass lives for the whole run
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const qsel::SchemaSet schemas(qsel::embedded().schemas);
  if (size == 0) return 0;
  const auto& kinds = qsel::all_kinds();
  qsel::Kind kind = kinds[data[0] % kinds.size()].kind;
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  qsel::Problems problems;
  if (auto record = qsel::load_record(text, "fuzz.yaml", kind, schemas, problems)) check_record_pass(*record);

  qsel::YamlDocument general = qsel::read_yaml_general(text, "fuzz.yaml");
  if (general.problems.empty()) check_verdict(kind, general.value);
  bool prechecked = general.problems.empty() || (general.problems[0].code != "QS010" && general.problems[0].code != "QS011");
  if (prechecked) {
    if (auto fast = qsel::yaml_block::read(text, qsel::YamlLimits{})) {
      if (!general.problems.empty() || fast->value != general.value || !(fast->marks == general.marks)) std::abort();
    }
  }
  return 0;
}
