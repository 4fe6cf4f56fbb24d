// libFuzzer harness: one record file through the strict YAML reader and the
// schema of its kind (the first byte picks the kind). Any crash, sanitizer
// report, timeout or unbounded allocation is a bug; problems are expected.
//
// It also holds the fast block reader to the general one: wherever the fast
// reader answers, the general reader must find no problem and give the same
// value and the same marks, or the harness aborts.
//
// A record that loads goes through lint's record pass (every check's record
// part, then pruning). Every mark must still name a value of the pruned
// record, and the record's own members must not change, or the harness aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

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
  bool prechecked = general.problems.empty() || (general.problems[0].code != "QS010" && general.problems[0].code != "QS011");
  if (prechecked) {
    if (auto fast = qsel::yaml_block::read(text, qsel::YamlLimits{})) {
      if (!general.problems.empty() || fast->value != general.value || !(fast->marks == general.marks)) std::abort();
    }
  }
  return 0;
}
