// QS040: the same Hub repo listed by two releases (in one model record or two).
#include <map>
#include <set>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS040", "duplicate-release-repo", Severity::Error, false,
    "Two model releases name the same Hugging Face repo.",
    {R"(A `releases` entry whose `repo` (compared without case, as the Hub does) is already listed by an earlier release, in the same model record or in another one. One exception: a GGUF repo holds one file per type, so one record may list it once per GGUF type.)",
     R"(A repo holds one checkpoint of one model in one format (a GGUF repo, one file per type). `qsel recommend --model ORG/NAME` answers from the record that lists the repo, with no request; when two records list it, or one record lists it under two formats, which model and which format the user gets depends on file order.)",
     R"(# models/llama-3.3-70b.yaml
releases:
- format: bf16
  repo: meta-llama/Llama-3.1-70B-Instruct)",
     R"(models/llama-3.3-70b.yaml:8:9: error: releases[0].repo "meta-llama/Llama-3.1-70B-Instruct" is already a release of llama-3.1-70b (releases[0]): a repo is one checkpoint of one model [QS040 duplicate-release-repo])",
     R"(Keep the release in the record of the model the repo holds, under the format its files are in, and delete the other entry.)"}};

constexpr KeptField kReads[] = {{Kind::Model, "/releases"}, {Kind::Format, "/scheme"}};

void run(CheckContext& c) {
  std::map<std::string, std::pair<const Record*, std::size_t>> first;
  std::set<std::string> listed;  // "record|repo|format": one GGUF repo may stand once per type in one record
  auto gguf = [&](const json& r) {
    const Record* f = r.contains("format") && r["format"].is_string() ? c.graph().find(r["format"].get<std::string>()) : nullptr;
    return f && f->str("scheme") == "gguf";
  };
  for (const Record* m : c.graph().of_kind(Kind::Model)) {
    const json& releases = field(*m, "releases");
    if (!releases.is_array()) continue;
    for (std::size_t i = 0; i < releases.size(); ++i) {
      const json& r = releases[i];
      if (!r.is_object() || !r.contains("repo") || !r["repo"].is_string()) continue;
      std::string repo = r["repo"].get<std::string>();
      std::string format = r.contains("format") && r["format"].is_string() ? r["format"].get<std::string>() : "";
      bool new_type = listed.insert(m->id + "|" + to_lower(repo) + "|" + format).second;
      auto [it, fresh] = first.emplace(to_lower(repo), std::make_pair(m, i));
      if (fresh) continue;
      // Another GGUF type of a GGUF repo the same record lists: one file per type.
      if (it->second.first == m && new_type && gguf(r) && gguf(releases[it->second.second])) continue;
      c.report(*m, fmt::format("/releases/{}/repo", i),
               fmt::format("releases[{}].repo {} is already a release of {} (releases[{}]): a repo is one checkpoint of one model", i,
                           quote_value(repo), it->second.first == m ? "this record" : it->second.first->id, it->second.second));
    }
  }
}

}  // namespace

Check duplicate_release_repo() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
