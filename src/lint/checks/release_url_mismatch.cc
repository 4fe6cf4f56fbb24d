// QS039: a model release whose repo is not a Hub repo id, or whose url is not that repo's page.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/json_number.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS039", "release-url-mismatch", Severity::Error, false,
    "A model release's repo is not a Hugging Face repo id, or its url is not that repo's page.",
    {R"(A `releases` entry of a model record whose `repo` is not `OWNER/NAME` (letters, digits, `-`, `_`, `.`; each part starting with a letter or digit, at most 96 characters), or whose `url` is not `https://huggingface.co/` followed by that repo exactly. A release in an engine's own library (`registry: ollama`) names a tag instead, `NAME:TAG` in the same characters, and its registry must be an engine whose launch names models by tag (`model_library`).)",
     R"(`qsel recommend --model ORG/NAME` finds a model record by the repos its releases list, before it asks the network, and the answer names the release a user should download. A repo with a typo, or a url that points at another repo than the one named, sends the user to the wrong checkpoint and makes the record answer for a repo it does not describe.)",
     R"(# models/qwen3-32b.yaml
releases:
- format: awq
  repo: Qwen/Qwen3-32B-AWQ
  url: https://huggingface.co/Qwen/Qwen3-32B-GPTQ-Int4)",
     R"(models/qwen3-32b.yaml:9:8: error: releases[0].url is "https://huggingface.co/Qwen/Qwen3-32B-GPTQ-Int4", not the page of the repo it names: expected "https://huggingface.co/Qwen/Qwen3-32B-AWQ" [QS039 release-url-mismatch])",
     R"(Copy the repo id from the model page's title and write `url: https://huggingface.co/` followed by it.)"}};

bool hub_name(std::string_view s) {
  if (s.empty() || s.size() > 96 || !std::isalnum(static_cast<unsigned char>(s.front()))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  return s.find("..") == std::string_view::npos;
}

bool hub_repo(const std::string& repo) {
  auto slash = repo.find('/');
  return slash != std::string::npos && hub_name(std::string_view(repo).substr(0, slash)) && hub_name(std::string_view(repo).substr(slash + 1));
}

void check_model(CheckContext& c, const Record& m) {
  const json& releases = field(m, "releases");
  if (!releases.is_array()) return;
  for (std::size_t i = 0; i < releases.size(); ++i) {
    const json& r = releases[i];
    if (!r.is_object() || !r.contains("repo") || !r["repo"].is_string()) continue;
    std::string repo = r["repo"].get<std::string>();
    std::string at = fmt::format("/releases/{}", i);
    if (r.contains("registry") && r["registry"].is_string()) {
      std::string engine = r["registry"].get<std::string>();
      auto colon = repo.find(':');
      if (colon == std::string::npos || !hub_name(std::string_view(repo).substr(0, colon)) || !hub_name(std::string_view(repo).substr(colon + 1)))
        c.report(m, at + "/repo", fmt::format("releases[{}].repo is {}, not a library tag (NAME:TAG) of its registry {}", i, quote_value(repo),
                                              quote_value(engine)));
      const Record* e = c.graph().find(engine);
      if (e && !object_field(e->data, "launch").contains("model_library"))
        c.report(m, at + "/registry", fmt::format("releases[{}].registry is {}, an engine whose launch names no model by tag (model_library)",
                                                  i, quote_value(engine)));
      continue;
    }
    if (!hub_repo(repo)) {
      c.report(m, at + "/repo", fmt::format("releases[{}].repo is {}, not a Hugging Face repo id (OWNER/NAME)", i, quote_value(repo)));
      continue;
    }
    if (r.contains("url") && r["url"].is_string() && r["url"].get<std::string>() != "https://huggingface.co/" + repo)
      c.report(m, at + "/url",
               fmt::format("releases[{}].url is {}, not the page of the repo it names: expected {}", i, quote_value(r["url"].get<std::string>()),
                           quote_value("https://huggingface.co/" + repo)));
  }
}

constexpr KeptField kReads[] = {{Kind::Model, "/releases"}, {Kind::Engine, "/launch"}};

void run(CheckContext& c) {
  for (const Record* m : c.graph().of_kind(Kind::Model)) check_model(c, *m);
}

}  // namespace

Check release_url_mismatch() { return {.info = &kInfo, .run = run, .reads = kReads}; }

}  // namespace qsel::lint_checks
