#include <catch2/catch.hpp>

#include <algorithm>

#include "lint/lint_support.h"
#include "qsel/lint/check.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string gguf(const std::string& id, const std::string& group) {
  return replaced(minimal_record("format", id, "ggml_type: Q4_K\nweight_group_size: " + group + "  # per block\n"),
                  "scheme: awq", "scheme: gguf");
}

}  // namespace

TEST_CASE("linter: findings are filtered by settings and sorted, exit codes", "[lint][linter]") {
  TempDir d;
  d.write("formats/b.yaml", gguf("b", "256"));
  d.write("formats/a.yaml", replaced(gguf("a", "256"), "status: draft", "status: reviewed"));
  LintReport all = lint_both_ways({d.path().string()}, {});
  REQUIRE(all.findings.size() == 3);
  CHECK(std::filesystem::path(all.findings[0].file).filename() == "a.yaml");
  CHECK(all.findings[0].code == "QS004");
  CHECK(all.findings[1].code == "QS027");
  CHECK(all.errors() == 2);
  CHECK(all.warnings() == 1);
  CHECK(lint_exit_code(all, false) == 1);
  LintSettings only_warnings;
  only_warnings.ignore = {"QS004"};
  LintReport w = lint_both_ways({d.path().string()}, only_warnings);
  CHECK(lint_exit_code(w, false) == 0);
  CHECK(lint_exit_code(w, true) == 1);
}

TEST_CASE("linter: --fix edits the files and lints again, --diff changes nothing", "[lint][linter]") {
  TempDir d;
  auto file = d.write("formats/q.yaml", gguf("q", "256"));
  std::string before = read_text(file);
  LintRequest diff{{d.path().string()}, {}, "", "", false, true};
  LintReport shown = run_lint(diff, schemas());
  CHECK(read_text(file) == before);
  CHECK(shown.fixed == 1);
  CHECK(shown.diff.find("-weight_group_size: 256  # per block\n+weight_group_size: 32  # per block\n") != std::string::npos);
  LintRequest fix{{d.path().string()}, {}, "", "", true, false};
  LintReport after = run_lint(fix, schemas());
  CHECK(after.fixed == 1);
  CHECK(after.fixed_files == 1);
  CHECK(after.findings.empty());
  CHECK(read_text(file) == replaced(before, "weight_group_size: 256", "weight_group_size: 32"));
}

TEST_CASE("linter: a baseline hides known findings and only new ones fail", "[lint][linter]") {
  TempDir d;
  d.write("formats/a.yaml", gguf("a", "256"));
  auto baseline = (d.path() / "baseline.json").string();
  LintRequest write{{(d.path() / "formats").string()}, {}, "", baseline, false, false};
  CHECK(run_lint(write, schemas()).findings.size() == 1);
  d.write("formats/a.yaml", "# a comment moves every line\n" + gguf("a", "256"));
  d.write("formats/b.yaml", gguf("b", "64"));
  LintRequest check{{(d.path() / "formats").string()}, {}, baseline, "", false, false};
  LintReport r = run_lint(check, schemas());
  CHECK(r.baselined == 1);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].record == "b");
}

TEST_CASE("linter: a corpus past the parallel thresholds gives what one thread gives", "[whole-corpus][lint][linter][scale]") {
  // data/ plus 4,200 copies of its gotchas under new ids (the references,
  // checks and teardown of a corpus this size run on several threads), every
  // 100th copy filed under a name that is not its id: one QS012 each.
  TempDir d;
  std::filesystem::copy(source_dir() + "/data", d.path(), std::filesystem::copy_options::recursive);
  std::vector<std::pair<std::string, std::string>> gotchas;  // id, text
  for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/data/gotchas"))
    gotchas.emplace_back(e.path().stem().string(), read_text(e.path()));
  std::sort(gotchas.begin(), gotchas.end());
  REQUIRE(!gotchas.empty());
  std::size_t misnamed = 0;
  for (std::size_t k = 0; k < 4200; ++k) {
    const auto& [id, text] = gotchas[k % gotchas.size()];
    std::string copy = id.substr(0, 60) + "-copy" + std::to_string(k);
    std::string file = copy;
    if (k % 100 == 0) file += "-misnamed", ++misnamed;
    d.write("gotchas/" + file + ".yaml", replaced(text, "id: " + id + "\n", "id: " + copy + "\n"));
  }
  LintReport r = lint_all(d.path());
  CHECK(r.records > 4700);
  std::size_t qs012 = static_cast<std::size_t>(std::count_if(r.findings.begin(), r.findings.end(), [](const Finding& f) { return f.code == "QS012"; }));
  CHECK(qs012 == misnamed);
  CHECK(r.errors() == misnamed);

  Corpus corpus = load_corpus(d.path(), schemas());
  Graph g(std::move(corpus));
  Findings one = run_checks(g, 1), three = run_checks(g, 3);
  REQUIRE(one.size() == three.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].code == three[i].code);
    CHECK(one[i].file == three[i].file);
    CHECK(one[i].mark == three[i].mark);
    CHECK(one[i].message == three[i].message);
  }
}

TEST_CASE("linter: records pruned after their own checks give the findings of whole records on data/", "[whole-corpus][lint][linter]") {
  // lint_all fails the test when the pruned and the whole runs differ.
  LintReport r = lint_all(source_dir() + "/data");
  CHECK(r.records > 500);
  CHECK(r.errors() == 0);
}
