#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void small_corpus(const TempDir& d) {
  d.write("c/formats/awq.yaml", replaced(minimal_record("format", "awq"), "status: draft", "status: reviewed"));
  d.write("c/formats/q.yaml", replaced(minimal_record("format", "q", "ggml_type: Q4_K\nweight_group_size: 256\n"),
                                       "scheme: awq", "scheme: gguf"));
}

}  // namespace

TEST_CASE("cmd_lint: exit 1 on errors, 0 on warnings only, 1 on warnings with --strict", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string c = (d.path() / "c").string();
  CHECK(run_cli({"lint", c}).code == 1);
  auto warn = run_cli({"lint", "--ignore", "QS004", c});
  CHECK(warn.code == 0);
  CHECK(warn.out.find("0 errors, 1 warning in 2 records (2 files)\n") != std::string::npos);
  CHECK(run_cli({"lint", "--ignore", "kquant-group-size", "--strict", c}).code == 1);
  CHECK(run_cli({"lint", "--select", "QS003,QS012", c}).code == 0);
}

TEST_CASE("cmd_lint: usage and input errors exit 2 with one line", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string c = (d.path() / "c").string();
  auto unknown = run_cli({"lint", "--select", "QS0O4", c});
  CHECK(unknown.code == 2);
  CHECK(unknown.err == "qsel: error: unknown rule \"QS0O4\"; did you mean \"QS004\"?\n");
  auto missing = run_cli({"lint", (d.path() / "nope").string()});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("nope: no such file or directory\n") != std::string::npos);
  CHECK(run_cli({"lint", "--fix", "--diff", c}).code == 2);
  CHECK(run_cli({"--format", "markdown", "lint", c}).code == 2);
  d.write("c/.qsel.yaml", "ignore: [QS004]\nstrcit: true\n");
  auto config = run_cli({"lint", c});
  CHECK(config.code == 2);
  CHECK(config.err.find(".qsel.yaml:2:1: unknown setting \"strcit\"; did you mean \"strict\"?\n") != std::string::npos);
}

TEST_CASE("cmd_lint: the config file found upward sets the defaults", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  d.write(".qsel.yaml", "strict: true\nper-file-ignores:\n  \"formats/q.yaml\": [QS004]\n");
  auto r = run_cli({"lint", (d.path() / "c").string()});
  CHECK(r.out.find("[QS004") != std::string::npos);  // globs are relative to the config's folder: c/formats/q.yaml
  d.write(".qsel.yaml", "strict: true\nper-file-ignores:\n  \"c/formats/q.yaml\": [QS004]\n");
  r = run_cli({"lint", (d.path() / "c").string()});
  CHECK(r.out.find("[QS004") == std::string::npos);
  CHECK(r.code == 1);  // strict: the QS027 warning fails
}

TEST_CASE("cmd_lint: --write-baseline then --baseline reports only new findings", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string c = (d.path() / "c").string(), b = (d.path() / "baseline.json").string();
  auto w = run_cli({"lint", "--write-baseline", b, c});
  CHECK(w.code == 0);
  CHECK(w.err == "qsel: wrote 2 finding(s) to " + b + "\n");
  auto r = run_cli({"lint", "--baseline", b, c});
  CHECK(r.code == 0);
  CHECK(r.out == "0 errors, 0 warnings in 2 records (2 files); 2 baselined\n");
}

TEST_CASE("cmd_lint: --list-rules as a table and as the JSON registry", "[cli][lint]") {
  auto table = run_cli({"lint", "--list-rules"});
  CHECK(table.code == 0);
  CHECK(table.out.find("QS004  kquant-group-size") != std::string::npos);
  auto j = run_cli({"--format", "json", "lint", "--list-rules"});
  auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["rules"].size() == 49);
  CHECK(doc["rules"][0]["code"] == "QS001");
}

TEST_CASE("cmd_lint: json and sarif output, the SARIF tool version is qsel's", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  auto j = run_cli({"--format", "json", "lint", (d.path() / "c").string()});
  auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["summary"]["errors"] == 1);
  CHECK(doc["summary"]["warnings"] == 1);
  auto s = run_cli({"lint", "--format", "sarif", (d.path() / "c").string()});
  auto sarif = nlohmann::json::parse(s.out);
  auto version = run_cli({"--version"}).out;
  CHECK(version.rfind("qsel " + sarif["runs"][0]["tool"]["driver"]["version"].get<std::string>() + " ", 0) == 0);
}

TEST_CASE("cmd_lint: with no path, --data names the corpus", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  auto r = run_cli({"--data", (d.path() / "c").string(), "lint", "--select", "QS004"});
  CHECK(r.code == 1);
  CHECK(r.out.find("in 2 records (2 files)\n") != std::string::npos);
}

TEST_CASE("cmd_lint: --output-file writes the report atomically, --exit-zero keeps CI green on findings", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string c = (d.path() / "c").string();
  auto file = (d.path() / "report.sarif").string();
  auto r = run_cli({"lint", c, "--format", "sarif", "--output-file", file});
  CHECK(r.code == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "qsel: wrote 2 finding(s) as sarif to " + file + "\n");
  auto written = nlohmann::json::parse(read_text(file));
  CHECK(written["version"] == "2.1.0");
  CHECK(written["runs"][0]["results"].size() == 2);
  auto zero = run_cli({"lint", c, "--exit-zero", "-o", file});
  CHECK(zero.code == 0);
  CHECK(read_text(file).find("QS004") != std::string::npos);
  // No temporary file is left beside it.
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(d.path())) files += e.is_regular_file() ? 1 : 0;
  CHECK(files == 1);
  // Bad input is still exit 2 under --exit-zero; an output path that is a folder is refused.
  CHECK(run_cli({"lint", (d.path() / "missing").string(), "--exit-zero"}).code == 2);
  auto dir = run_cli({"lint", c, "--output-file", d.path().string()});
  CHECK(dir.code == 2);
  CHECK(dir.err.find("not a regular file") != std::string::npos);
  CHECK(run_cli({"lint", c, "--output-file", file, "--diff"}).code == 2);
}

TEST_CASE("cmd_lint: --stale-after lists old engine facts as warnings, measured from SOURCE_DATE_EPOCH", "[cli][lint]") {
  setenv("SOURCE_DATE_EPOCH", "1796083200", 1);  // 2026-12-01
  auto r = run_cli({"lint", "--no-color", "--select", "QS038", "--stale-after", "12", "data/kernels/marlin.yaml"});
  CHECK(r.code == 0);  // warnings do not fail the run
  CHECK(r.out.find("marlin.yaml") != std::string::npos);
  std::string unwrapped = r.out;  // a finding's message wraps at the width under a four-space indent
  for (std::size_t at; (at = unwrapped.find("\n    ")) != std::string::npos;) unwrapped.replace(at, 5, " ");
  CHECK(unwrapped.find("months before 2026-12-01 (--stale-after 12): re-read it at a current commit [QS038 stale-engine-fact]") !=
        std::string::npos);
  auto off = run_cli({"lint", "--no-color", "--select", "QS038", "data/kernels/marlin.yaml"});
  CHECK(off.code == 0);
  CHECK(off.out.find("QS038") == std::string::npos);
  auto bad = run_cli({"lint", "--stale-after", "twelve", "data/kernels/marlin.yaml"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--stale-after: expected a number of months (12, 12m), years (1y) or days (400d): \"twelve\"") != std::string::npos);
  unsetenv("SOURCE_DATE_EPOCH");
}

TEST_CASE("cmd_lint: --statistics counts findings per rule, marks what --fix can fix, then the summary", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  d.write("c/formats/q2.yaml", replaced(minimal_record("format", "q2", "ggml_type: Q4_K\nweight_group_size: 256\n"), "scheme: awq", "scheme: gguf"));
  auto r = run_cli({"lint", "--statistics", "--no-color", (d.path() / "c").string()});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "    2  QS004  kquant-group-size  [*] 2 fixable\n"
        "    1  QS027  reviewed-without-url\n"
        "2 errors, 1 warning in 3 records (3 files)\n");
}

TEST_CASE("cmd_lint: --format concise is one line per finding, [*] marking what --fix can fix", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  auto r = run_cli({"--format", "concise", "lint", "--no-color", (d.path() / "c").string()});
  INFO(r.out);
  CHECK(r.code == 1);
  std::string file = (d.path() / "c" / "formats" / "q.yaml").string();
  CHECK(r.out.find("\n" + file + ":7:20: QS004 error weight_group_size 256 is the Q4_K super-block; its scale group is 32 [*]\n") !=
        std::string::npos);
  CHECK(r.out.find("/c/formats/awq.yaml:6:9: QS027 warning status is reviewed, but no source has a url;") != std::string::npos);
  CHECK(r.out.ends_with("\n1 error, 1 warning in 2 records (2 files)\n"));
  std::size_t lines = static_cast<std::size_t>(std::count(r.out.begin(), r.out.end(), '\n'));
  CHECK(lines == 3);  // two findings and the summary: no snippets, no carets
}

TEST_CASE("cmd_lint: --show-fixes lists each fix as old → new, before --fix and after it", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string corpus = (d.path() / "c").string();
  auto before = run_cli({"lint", "--show-fixes", "--no-color", corpus});
  CHECK(before.code == 1);
  CHECK(before.out.find("\nFixable with --fix 1 finding:\n  " + corpus + "/formats/q.yaml:") != std::string::npos);
  CHECK(before.out.find(" QS004 \"256\" → \"32\"\n") != std::string::npos);
  auto fixed = run_cli({"lint", "--fix", "--show-fixes", "--no-color", corpus});
  CHECK(fixed.out.find("\nFixed 1 finding:\n  " + corpus + "/formats/q.yaml:") != std::string::npos);
  CHECK(fixed.out.find("Fixable with --fix") == std::string::npos);
}

TEST_CASE("cmd_lint: SARIF and GitHub paths are relative to --root, or to the linted folder outside a checkout", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string corpus = (d.path() / "c").string();
  // the temporary folder is in no git checkout: paths start at the corpus, not with ../../
  auto gh = run_cli({"--format", "github", "lint", corpus});
  INFO(gh.out);
  CHECK(gh.out.find("\n::error file=formats/q.yaml,line=7,col=20,") != std::string::npos);
  auto rooted = run_cli({"--format", "github", "lint", "--root", d.path().string(), corpus});
  CHECK(rooted.out.find("\n::error file=c/formats/q.yaml,line=7,col=20,") != std::string::npos);
  auto sarif = nlohmann::json::parse(run_cli({"--format", "sarif", "lint", corpus}).out);
  CHECK(sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "formats/awq.yaml");
  auto bad = run_cli({"lint", "--root", (d.path() / "nope").string(), corpus});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--root: ") != std::string::npos);
  CHECK(bad.err.find("is not a folder") != std::string::npos);
}

TEST_CASE("cmd_lint: - lints one record from stdin, named by --stdin-filename, inside the corpus around it", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string corpus = (d.path() / "c").string();
  std::string q = corpus + "/formats/q.yaml";
  // the disk's q.yaml has a QS004 error; stdin's copy is fixed: stdin is what is linted
  auto fixed = d.write("fixed.yaml", replaced(read_text(q), "weight_group_size: 256", "weight_group_size: 32"));
  auto clean = run_binary("lint --no-config --no-color - --stdin-filename " + q + " < " + fixed.string());
  CHECK(clean.code == 0);
  CHECK(clean.out == "0 errors, 0 warnings in 1 record (1 file)\n");
  // a defect only stdin has: named by --stdin-filename, with stdin's line under it
  auto broken = d.write("broken.yaml", replaced(read_text(q), "weight_group_size: 256", "weight_group_size: 64"));
  auto bad = run_binary("lint --no-config --no-color - --stdin-filename " + q + " < " + broken.string());
  CHECK(bad.code == 1);
  CHECK(bad.out.find(q + ":7:20: error: weight_group_size 64") != std::string::npos);
  CHECK(bad.out.find(" 7 | weight_group_size: 64\n") != std::string::npos);
  // a record the disk does not have yet, checked against the corpus around it
  auto twin = d.write("twin.yaml", replaced(read_text(corpus + "/formats/awq.yaml"), "id: awq", "id: awq-copy"));
  auto fresh = run_binary("lint --no-config --no-color - --stdin-filename " + corpus + "/formats/awq-copy.yaml < " + twin.string());
  CHECK(fresh.out.find(corpus + "/formats/awq-copy.yaml:") != std::string::npos);
  CHECK(fresh.out.ends_with("in 1 record (1 file)\n"));
  // what - cannot do
  CHECK(run_binary("lint - < " + fixed.string()).err ==
        "qsel: error: - reads a record from stdin: name where it sits with --stdin-filename (data/formats/awq.yaml)\n");
  CHECK(run_binary("lint --stdin-filename " + q + " " + corpus).err ==
        "qsel: error: --stdin-filename names the record read from stdin: give - as the path\n");
  CHECK(run_binary("lint --write-baseline b.json - --stdin-filename " + q + " < " + fixed.string()).err ==
        "qsel: error: - (stdin) has no file to baseline: drop --write-baseline\n");
  CHECK(run_binary("lint - " + corpus + " --stdin-filename " + q + " < " + fixed.string()).code == 2);
  auto nowhere = run_binary("lint --no-config - --stdin-filename " + (d.path() / "q.yaml").string() + " < " + fixed.string());
  CHECK(nowhere.code != 0);
  CHECK(nowhere.out.find("cannot tell the record kind") != std::string::npos);
  // a folder that does not exist: nothing would be linted, and "0 files" exit 0 said all was well (issue 41, M6)
  std::string missing = (d.path() / "no-such-corpus" / "formats" / "q.yaml").string();
  auto absent = run_binary("lint --no-config - --stdin-filename " + missing + " < " + fixed.string());
  CHECK(absent.code == 2);
  CHECK(absent.err == "qsel: error: --stdin-filename " + missing + ": no folder " + (d.path() / "no-such-corpus" / "formats").string() +
                          ": name where the record sits in a corpus that exists\n");
  CHECK(absent.out.empty());
}

TEST_CASE("cmd_lint: --fix - prints the fixed text to stdout and what remains to stderr, never writing the file", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string corpus = (d.path() / "c").string();
  std::string q = corpus + "/formats/q.yaml";
  std::string before = read_text(q);
  // stdin: the QS004 256 (fixable) and an unused noqa comment (QS046, fixable)
  auto in = d.write("in.yaml", replaced(before, "status: draft\n", "status: draft  # qsel: noqa: QS005\n"));
  auto r = run_binary("lint --no-config --no-color --fix - --stdin-filename " + q + " < " + in.string());
  CHECK(r.code == 0);
  CHECK(r.out == replaced(before, "weight_group_size: 256", "weight_group_size: 32"));  // only the offending bytes changed
  CHECK(r.err == "qsel: fixed 2 finding(s) in 1 file(s)\n0 errors, 0 warnings in 1 record (1 file)\n");
  CHECK(read_text(q) == before);  // the file --stdin-filename names is untouched
  // what --fix cannot fix stays: on stderr in the chosen format, and the exit code follows it
  auto typo = d.write("typo.yaml", replaced(before, "weight_group_size: 256", "weight_group_size: 256  # qsel: noqa: QS04"));
  auto left = run_binary("lint --no-config --format pylint --root " + corpus + " --fix - --stdin-filename " + q + " < " + typo.string());
  CHECK(left.code == 1);
  CHECK(left.out == replaced(before, "weight_group_size: 256", "weight_group_size: 32  # qsel: noqa: QS04"));
  CHECK(left.err == "qsel: fixed 1 finding(s) in 1 file(s)\n"
                    "formats/q.yaml:7: [QS047] unknown code \"QS04\" in a noqa directive (did you mean QS004?)\n");
  // --diff - shows the edit and changes nothing
  auto diff = run_binary("lint --no-config --diff - --stdin-filename " + q + " < " + in.string());
  CHECK(diff.code == 1);
  CHECK(diff.out.find("-weight_group_size: 256\n-status: draft  # qsel: noqa: QS005\n+weight_group_size: 32\n+status: draft\n") !=
        std::string::npos);
  CHECK(read_text(q) == before);
}

TEST_CASE("cmd_lint: the gitlab, junit, pylint and azure formats", "[cli][lint]") {
  TempDir d;
  small_corpus(d);
  std::string c = (d.path() / "c").string();
  auto pylint = run_cli({"lint", "--select", "QS004", "--format", "pylint", "--root", c, c});
  CHECK(pylint.code == 1);
  CHECK(pylint.out == "formats/q.yaml:7: [QS004] weight_group_size 256 is the Q4_K super-block; its scale group is 32\n");
  auto azure = run_cli({"lint", "--select", "QS004", "--format", "azure", "--root", c, c});
  CHECK(azure.out == "##vso[task.logissue type=error;sourcepath=formats/q.yaml;linenumber=7;columnnumber=20;code=QS004;]"
                     "weight_group_size 256 is the Q4_K super-block; its scale group is 32\n");
  auto gitlab = nlohmann::json::parse(run_cli({"lint", "--select", "QS004", "--format", "gitlab", "--root", c, c}).out);
  REQUIRE(gitlab.size() == 1);
  CHECK(gitlab[0]["location"]["path"] == "formats/q.yaml");
  CHECK(gitlab[0]["location"]["lines"]["begin"] == 7);
  auto junit = run_cli({"lint", "--select", "QS004", "--format", "junit", "--root", c, c});
  CHECK(junit.out.find("<testcase name=\"qsel.QS004\" classname=\"formats/q\" line=\"7\" column=\"20\">") != std::string::npos);
  CHECK(run_cli({"lint", "--format", "junit", "--select", "QS012", c}).out.find("No errors found") != std::string::npos);
}
