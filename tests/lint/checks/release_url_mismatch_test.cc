#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string release(const std::string& repo, const std::string& url) {
  return "releases:\n- format: awq\n  repo: " + repo + "\n" + (url.empty() ? "" : "  url: " + url + "\n");
}

}  // namespace

TEST_CASE("QS039 release-url-mismatch fires on a url of another repo and a repo that is no Hub id", "[lint][QS039]") {
  TempDir d;
  d.write("models/a.yaml", minimal_record("model", "a", release("Qwen/Qwen3-32B-AWQ", "https://huggingface.co/Qwen/Qwen3-32B-GPTQ-Int4")));
  d.write("models/b.yaml", minimal_record("model", "b", release("https://huggingface.co/Qwen/Qwen3-8B", "")));
  d.write("models/c.yaml", minimal_record("model", "c", release("Qwen/../etc", "")));
  auto f = lint_code(d.path(), "QS039");
  REQUIRE(f.size() == 3);
  CHECK(where(f[0], d.path()) == "models/a.yaml:14:8: releases[0].url is \"https://huggingface.co/Qwen/Qwen3-32B-GPTQ-Int4\", not the page of "
                                 "the repo it names: expected \"https://huggingface.co/Qwen/Qwen3-32B-AWQ\"");
  CHECK(where(f[1], d.path()) == "models/b.yaml:13:9: releases[0].repo is \"https://huggingface.co/Qwen/Qwen3-8B\", not a Hugging Face repo id "
                                 "(OWNER/NAME)");
  CHECK(where(f[2], d.path()) == "models/c.yaml:13:9: releases[0].repo is \"Qwen/../etc\", not a Hugging Face repo id (OWNER/NAME)");
}

TEST_CASE("QS039 release-url-mismatch is clean on a repo and its page, or a repo alone", "[lint][QS039]") {
  TempDir d;
  d.write("models/a.yaml", minimal_record("model", "a", release("Qwen/Qwen3-32B-AWQ", "https://huggingface.co/Qwen/Qwen3-32B-AWQ")));
  d.write("models/b.yaml", minimal_record("model", "b", release("unsloth/gemma-3-27b-it-GGUF", "")));
  CHECK(lint_code(d.path(), "QS039").empty());
}

TEST_CASE("QS039 release-url-mismatch reads a library release as a tag of an engine that names models by tag", "[lint][QS039]") {
  TempDir d;
  d.write("engines/lib.yaml", minimal_record("engine", "lib", "launch:\n  program: lib run\n  model: '{name}'\n  model_library: '{tag}'\n  source:\n    title: t\n"));
  d.write("engines/plain.yaml", minimal_record("engine", "plain", "launch:\n  program: plain\n  model: '{repo}'\n  source:\n    title: t\n"));
  d.write("models/a.yaml", minimal_record("model", "a", "releases:\n- format: awq\n  repo: 'qwen3:8b'\n  registry: lib\n"));
  d.write("models/b.yaml", minimal_record("model", "b", "releases:\n- format: awq\n  repo: Qwen/Qwen3-8B\n  registry: lib\n"));
  d.write("models/c.yaml", minimal_record("model", "c", "releases:\n- format: awq\n  repo: 'qwen3:8b'\n  registry: plain\n"));
  auto f = lint_code(d.path(), "QS039");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "models/b.yaml:13:9: releases[0].repo is \"Qwen/Qwen3-8B\", not a library tag (NAME:TAG) of its registry \"lib\"");
  CHECK(where(f[1], d.path()) == "models/c.yaml:14:13: releases[0].registry is \"plain\", an engine whose launch names no model by tag "
                                 "(model_library)");
}
