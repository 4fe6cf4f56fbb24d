// QS031 comes from --fix itself (src/lint/linter.cc), not from a check.
#include <catch2/catch.hpp>

#include "lint/lint_support.h"
#include "qsel/lint/linter.h"

using namespace qsel;
using namespace qsel::test;

namespace {
std::string gguf_record(const std::string& id, const std::string& group) {
  return minimal_record("format", id, "scheme: gguf\nregime: w4a16\nggml_type: Q4_K\nweight_group_size: " + group + "\n");
}
}  // namespace

TEST_CASE("QS031 fix-not-applied fires when --fix meets a symlink and leaves its target alone", "[lint][QS031]") {
  TempDir d, outside;
  auto target = outside.write("formats/q.yaml", gguf_record("q", "256"));
  std::filesystem::create_directories(d.path() / "formats");
  std::filesystem::create_symlink(target, d.path() / "formats/q.yaml");
  std::string before = read_text(target);
  LintRequest fix{{d.path().string()}, {}, "", "", true, false};
  LintReport r = run_lint(fix, schemas());
  CHECK(read_text(target) == before);
  CHECK(r.fix_failures + r.findings.size() >= 1);
  bool reported = false;
  for (const auto& f : r.findings) reported = reported || f.code == "QS014" || f.code == "QS031";
  CHECK(reported);  // the link is outside the corpus (QS014) or refused by --fix (QS031): never silently written
}

TEST_CASE("QS031 fix-not-applied is clean when every fix is written", "[lint][QS031]") {
  TempDir d;
  d.write("formats/q.yaml", gguf_record("q", "256"));
  LintRequest fix{{d.path().string()}, {}, "", "", true, false};
  LintReport r = run_lint(fix, schemas());
  CHECK(r.fix_failures == 0);
  for (const auto& f : r.findings) CHECK(f.code != "QS031");
}
