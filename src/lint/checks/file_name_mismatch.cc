// QS012: a record file is named after its id (data/<kind-plural>/<id>.yaml).
#include <filesystem>

#include <fmt/format.h>
#include <re2/re2.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS012", "file-name-mismatch", Severity::Error, true,
    "A record's id differs from its file name.",
    {R"(A record whose `id` is not its file name without the extension: `formats/awq-4bit.yaml` holding `id: awq`.)",
     R"(File name == id is how people and tools find a record without loading the corpus (`data/formats/awq.yaml` is AWQ), how review diffs are read, and how a rename is noticed. Two files whose names disagree with their ids can also hide a duplicate.)",
     R"(# formats/awq-4bit.yaml
id: awq
kind: format)",
     R"(formats/awq-4bit.yaml:2:5: error: id "awq" does not match the file name "awq-4bit.yaml" [QS012 file-name-mismatch])",
     R"(Rename the file to `<id>.yaml` (`git mv`), or change the id. `qsel lint --fix` changes the id to the file name, but only where that is safe: no other record refers to the current id (those references would break), no record already has the file name's id, and the file name is a valid id. Otherwise it leaves the finding for you, because choosing between the two names is a judgement a tool should not make.)"}};

bool valid_id(const std::string& s) {
  static const RE2 id_re("[a-z0-9]([a-z0-9.-]{0,78}[a-z0-9])?");
  return RE2::FullMatch(s, id_re);
}

bool safe_to_rename(const Graph& g, const Record& r, const std::string& stem) {
  auto idx = g.index_of(r.id);
  return idx && g.in_edges(*idx).empty() && valid_id(stem) && !g.find(stem);
}

// The usual case, told without parsing the path: the file is <id>.yaml or <id>.yml.
bool named_after_id(std::string_view file, const std::string& id) {
  if (id.empty()) return false;
  for (std::string_view ext : {std::string_view(".yaml"), std::string_view(".yml")}) {
    std::size_t name = id.size() + ext.size();
    if (file.size() >= name && file.ends_with(ext) && file.substr(file.size() - name, id.size()) == id &&
        (file.size() == name || file[file.size() - name - 1] == '/'))
      return true;
  }
  return false;
}

void check_record(CheckContext& c, const Record& r) {
  if (named_after_id(r.file, r.id)) return;
  std::filesystem::path file(r.file);
  std::string stem = file.stem().string();
  if (stem == r.id) return;
  Finding& f = c.report(r, "/id", fmt::format("id {} does not match the file name {}", quote_value(r.id),
                                              quote_value(file.filename().string())));
  if (safe_to_rename(c.graph(), r, stem)) f.fix = Fix{f.mark, r.id, stem};
}

constexpr KeptField kReads[] = {{std::nullopt, "/id"}};  // its mark

void run(CheckContext& c) {
  for (const Record& r : c.graph().records()) check_record(c, r);
}

}  // namespace

Check file_name_mismatch() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
