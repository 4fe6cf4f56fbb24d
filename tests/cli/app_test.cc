#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "qsel/cli/app.h"
#include "qsel/report/style.h"
#include "qsel/lint/registry.h"
#include "support/artifact_writer.h"
#include "support/fixtures.h"

using qsel::test::run_cli;
using qsel::test::run_binary;
using nlohmann::json;

TEST_CASE("app: --version names the corpus and its digest", "[cli]") {
  auto r = run_cli({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out.rfind("qsel 0.1.0 (corpus embedded: ", 0) == 0);
  CHECK(r.out.find(" formats, ") != std::string::npos);
  CHECK(r.out.find("sha256:") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("app: unknown commands get a did-you-mean and exit 2", "[cli]") {
  auto r = run_cli({"lsit", "formats"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "qsel: error: unknown command \"lsit\"; did you mean \"list\"?\n");
}

TEST_CASE("app: CLI11 parse errors map to exit 2, help exits 0", "[cli]") {
  CHECK(run_cli({"list", "--no-such-flag"}).code == 2);
  CHECK(run_cli({"--format", "yaml", "list"}).code == 2);
  auto help = run_cli({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.find("list") != std::string::npos);
  auto none = run_cli({});
  CHECK(none.code == 2);
  CHECK(none.err.find("a command is required") != std::string::npos);
}

TEST_CASE("app: a corpus with problems ends the command with exit 2 and one line per problem", "[cli]") {
  qsel::test::TempDir dir;
  dir.write("formats/a.yaml", qsel::test::minimal_record("format", "a", "weight_bits: four\n"));
  dir.write("formats/b.yaml", "id: b\nid: b\n");
  auto r = run_cli({"--data", dir.path().string(), "list", "formats"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  std::string root = dir.path().lexically_normal().generic_string();
  CHECK(r.err == root + "/formats/a.yaml:6:14: /weight_bits: expected number or null, got string \"four\" [QS001]\n" +
                     root + "/formats/b.yaml:2:1: duplicate key \"id\" (first defined at line 1) [QS008]\n"
                     "qsel: error: 2 problem(s) in corpus " + dir.path().string() + "; run `qsel lint " +
                     dir.path().string() + "` for details\n");
}

TEST_CASE("app: --data and QSEL_DATA replace the embedded corpus", "[cli]") {
  qsel::test::TempDir dir;
  dir.write("formats/only-one.yaml", qsel::test::minimal_record("format", "only-one"));
  auto r = run_cli({"--data", dir.path().string(), "list", "formats", "--format", "json"});
  REQUIRE(r.code == 0);
  auto j = json::parse(r.out);
  CHECK(j["count"] == 1);
  CHECK(j["records"][0]["id"] == "only-one");
  auto env = run_binary("list formats --format json");
  REQUIRE(env.code == 0);
  CHECK(json::parse(env.out)["count"].get<int>() > 50);
  auto viaenv = run_binary("--format json list formats 2>&1");
  CHECK(viaenv.code == 0);
  setenv("QSEL_DATA", dir.path().c_str(), 1);
  auto e = run_cli({"list", "formats", "--format", "json"});
  unsetenv("QSEL_DATA");
  REQUIRE(e.code == 0);
  CHECK(json::parse(e.out)["count"] == 1);
}

TEST_CASE("app: the real binary keeps stdout clean: logs and errors go to stderr", "[cli]") {
  auto ok = run_binary("-v list accelerators --format json");
  REQUIRE(ok.code == 0);
  CHECK_NOTHROW(json::parse(ok.out));
  auto bad = run_binary("show no-such-record --format json");
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK(bad.err.rfind("qsel: error: unknown record \"no-such-record\"", 0) == 0);
  auto empty = run_binary("--data /nonexistent list");
  CHECK(empty.code == 2);
  CHECK(empty.out.empty());
  CHECK(empty.err == "qsel: error: --data \"/nonexistent\": no such directory\n");
}

TEST_CASE("app: every command in the table has a summary and a unique name", "[cli]") {
  std::set<std::string> names;
  for (const auto& c : qsel::commands()) {
    CHECK(std::string(c.summary).size() > 10);
    CHECK(names.insert(c.name).second);
  }
}

TEST_CASE("app: the global --format accepts exactly the formats the commands speak", "[cli]") {
  std::set<std::string> spoken;
  for (const auto& c : qsel::commands()) spoken.insert(c.formats.begin(), c.formats.end());
  const auto& listed = qsel::output_format_names();
  CHECK(std::set<std::string>(listed.begin(), listed.end()) == spoken);
  CHECK(std::set<std::string>(listed.begin(), listed.end()).size() == listed.size());
}

TEST_CASE("app: every command's help shows the global options, its formats, exit codes and two examples", "[cli][help]") {
  for (const auto& c : qsel::commands()) {
    auto r = run_cli({c.name, "--help"});
    INFO(c.name);
    CHECK(r.code == 0);
    CHECK(r.out.find("Global options (before or after the command):") != std::string::npos);
    CHECK(r.out.find("--format FORMAT") != std::string::npos);
    CHECK(r.out.find(std::string(c.formats.front()) + " (default)") != std::string::npos);
    for (const char* f : c.formats) CHECK(r.out.find(f) != std::string::npos);
    CHECK(r.out.find("--data DIR") != std::string::npos);
    CHECK(r.out.find("--color WHEN") != std::string::npos);
    CHECK(r.out.find("Exit codes:\n  0  success\n") != std::string::npos);
    CHECK(r.out.find("  2  usage or input error") != std::string::npos);
    CHECK((c.exit_one == nullptr || r.out.find(std::string("  1  ") + c.exit_one) != std::string::npos));
    REQUIRE(c.examples.size() == 2);
    for (const char* e : c.examples) CHECK(r.out.find(std::string("  ") + e + "\n") != std::string::npos);
  }
  auto lint = run_cli({"lint", "--help"});
  CHECK(lint.out.find("text (default), concise, json, sarif, github") != std::string::npos);
}

TEST_CASE("app: an unreadable --data is one line", "[cli]") {
  auto missing = run_cli({"--data", "/nonexistent/corpus", "list", "formats"});
  CHECK(missing.code == 2);
  CHECK(missing.out.empty());
  CHECK(missing.err == "qsel: error: --data \"/nonexistent/corpus\": no such directory\n");
  qsel::test::TempDir d;
  auto file = d.write("corpus.yaml", "id: x\n");
  auto notdir = run_cli({"--data", file.string(), "recommend", "--gpu", "h100", "--model-size", "8b"});
  CHECK(notdir.code == 2);
  CHECK(std::count(notdir.err.begin(), notdir.err.end(), '\n') == 1);
  CHECK(notdir.err.find("not a directory") != std::string::npos);
}

TEST_CASE("app: --color always|never|auto, NO_COLOR, FORCE_COLOR and TERM=dumb under auto", "[cli][color]") {
  using qsel::want_color;
  CHECK(want_color("always", false, "1", nullptr, "dumb"));
  CHECK_FALSE(want_color("never", true, nullptr, "1", "xterm"));
  CHECK(want_color("auto", true, nullptr, nullptr, "xterm-256color"));
  CHECK_FALSE(want_color("auto", false, nullptr, nullptr, "xterm"));
  CHECK_FALSE(want_color("auto", true, "1", nullptr, "xterm"));
  CHECK(want_color("auto", true, "", nullptr, "xterm"));  // NO_COLOR counts only when not empty
  CHECK(want_color("auto", false, nullptr, "1", nullptr));
  CHECK_FALSE(want_color("auto", true, nullptr, "0", "dumb"));
  CHECK_FALSE(want_color("auto", true, "1", "1", nullptr));  // NO_COLOR wins over FORCE_COLOR
  CHECK_FALSE(want_color("auto", true, nullptr, nullptr, "dumb"));
  auto always = run_cli({"--color", "always", "list", "formats", "--regime", "w4a16"});
  CHECK(always.code == 0);
  CHECK(always.out.find("\x1b[") != std::string::npos);
  auto never = run_cli({"--color", "never", "list", "formats", "--regime", "w4a16"});
  CHECK(never.out.find("\x1b[") == std::string::npos);
  auto legacy = run_cli({"--no-color", "list", "formats"});
  CHECK(legacy.out.find("\x1b[") == std::string::npos);
  auto forced = run_binary("list formats --regime w4a16 --color auto");  // not a terminal: no colour
  CHECK(forced.out.find("\x1b[") == std::string::npos);
  auto env = run_binary("list formats --regime w4a16 2>&1 | cat; FORCE_COLOR=1 " QSEL_BINARY " list formats --regime w4a16");
  CHECK(env.out.find("\x1b[") != std::string::npos);
  auto bad = run_cli({"--color", "sometimes", "list", "formats"});
  CHECK(bad.code == 2);
}

TEST_CASE("app: -v logs what was read, what each rule did and timings to stderr, -vv each exclusion, stdout unchanged", "[cli][verbose]") {
  auto plain = run_cli({"recommend", "--gpu", "h100", "--model-size", "8b", "--format", "json"});
  auto v = run_cli({"-v", "recommend", "--gpu", "h100", "--model-size", "8b", "--format", "json"});
  REQUIRE(v.code == 0);
  CHECK(v.out == plain.out);
  CHECK(plain.err.empty());
  CHECK(v.err.find("qsel: info: corpus: embedded, ") != std::string::npos);
  CHECK(v.err.find("qsel: info: model: 8B dense") != std::string::npos);
  CHECK(v.err.find("qsel: info: rules: rule-7: ") != std::string::npos);
  CHECK(v.err.find(" ms)") != std::string::npos);
  CHECK(v.err.find("qsel: info: recommend finished in ") != std::string::npos);
  CHECK(v.err.find("qsel: debug:") == std::string::npos);
  auto vv = run_cli({"-vv", "recommend", "--gpu", "h100", "--model-size", "8b", "--format", "json"});
  CHECK(vv.out == plain.out);
  CHECK(vv.err.find("qsel: debug: rules: rule-7 excludes ") != std::string::npos);
  CHECK(vv.err.find("qsel: debug: rank 1: ") != std::string::npos);
  auto lint = run_cli({"-v", "lint", qsel::test::source_dir() + "/data"});
  CHECK(lint.err.find(fmt::format("qsel: info: lint: {0} of {0} rules enabled", qsel::rules().size())) != std::string::npos);
  CHECK(lint.err.find("qsel: info: lint: config ") != std::string::npos);
}

TEST_CASE("app: -q leaves only the requested output: no notes from --fix, --diff, --write-baseline or --output-file", "[cli][quiet]") {
  qsel::test::TempDir d;
  d.write("formats/a.yaml", qsel::test::minimal_record("format", "a"));
  auto base = (d.path() / "baseline.json").string();
  auto loud = run_cli({"lint", d.path().string(), "--write-baseline", base});
  CHECK(loud.err.find("qsel: wrote ") != std::string::npos);
  auto quiet = run_cli({"-q", "lint", d.path().string(), "--write-baseline", base});
  CHECK(quiet.code == 0);
  CHECK(quiet.err.empty());
  auto fix = run_cli({"-q", "lint", d.path().string(), "--fix"});
  CHECK(fix.err.empty());
  auto diff = run_cli({"lint", "-q", d.path().string(), "--diff"});
  CHECK(diff.err.empty());
  auto out = run_cli({"lint", "-q", d.path().string(), "--output-file", (d.path() / "r.txt").string()});
  CHECK(out.err.empty());
  CHECK(out.out.empty());
}

namespace {

// What must never reach a terminal raw, on stdout or stderr: C0 controls but tab and
// newline, DEL, C1 controls (as UTF-8), the bidirectional controls; the first found, or "".
std::string raw_control(const std::string& s) {
  auto at = [&](std::size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0; };
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = at(i);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return fmt::format("control byte 0x{:02x} at {}", c, i);
    if (c == 0xC2 && at(i + 1) >= 0x80 && at(i + 1) <= 0x9F) return fmt::format("C1 control at {}", i);
    bool bidi = (c == 0xE2 && at(i + 1) == 0x80 && ((at(i + 2) >= 0xAA && at(i + 2) <= 0xAE) || at(i + 2) == 0x8E || at(i + 2) == 0x8F)) ||
                (c == 0xE2 && at(i + 1) == 0x81 && at(i + 2) >= 0xA6 && at(i + 2) <= 0xA9) || (c == 0xD8 && at(i + 1) == 0x9C);
    if (bidi) return fmt::format("bidi control at {}", i);
  }
  return "";
}

// A line of stderr the GitHub Actions runner would take as a workflow command.
bool workflow_command(const std::string& err) {
  std::size_t start = 0;
  while (start < err.size()) {
    if (err.compare(start, 2, "::") == 0) return true;
    std::size_t nl = err.find('\n', start);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return false;
}

}  // namespace

// Issue 26: one escaping path (core printable) for every byte a user did not write, on
// stderr as on stdout: error messages, corpus problems, notes, -v logs, --diff, SARIF.
TEST_CASE("app: no output path passes raw control, C1 or bidi bytes, and stderr starts no workflow command", "[cli][hostile]") {
  const std::string evil = "\x1b]0;pwned\x07\x1b[31m\xe2\x80\xae\xc2\x9bz\n::error title=Forged::owned";
  qsel::test::TempDir d;
  // a corpus whose file name and record hold the bytes
  d.write("data/formats/" + std::string("e\x1b[31mvil.yaml"), "id: \"" + std::string("x\\u001b[31m\\u202e") + "\"\nkind: format\n");
  // a .qsel.yaml that tried to forge an annotation through an error message
  d.write("lintme/.git/HEAD", "ref: refs/heads/main\n");
  d.write("lintme/.qsel.yaml", "select: [\"x\\n::error title=Forged::owned\"]\n");
  d.write("lintme/formats/a.yaml", qsel::test::minimal_record("format", "a"));
  // artifacts: a GGUF architecture, a config key, a safetensors tensor name, a log
  d.write("cfg/config.json", "{\"architectures\": [\"" + std::string("\\u001b[31m\\u202e") + "\"], \"num_hidden_layers\": \"\\u001b]0;x\\u0007\"}");
  const std::string st_header = "{\"\\u001b[2J\\u202e\": {\"dtype\": \"F16\", \"shape\": [4], \"data_offsets\": [0, 99]}}";
  d.write("st/model.safetensors", qsel::test::le64(st_header.size()) + st_header + std::string(8, '\0'));
  d.write("engine.log", "INFO " + evil + "\nUsing Marlin kernel " + evil + "\n");
  const std::string root = d.path().string();
  std::vector<std::vector<std::string>> runs = {
      {"recommend", "--gpu", evil, "--model-size", "8b"},
      {"-v", "recommend", "--gpu", "h100", "--model", evil},
      {"explain", evil},
      {"explain", "nvfp4", "--on", evil},
      {"show", evil},
      {"list", "formats", "--native-on", evil},
      {"--data", root + "/data", "list", "formats"},
      {"--data", root + "/data\x1b[31m", "list", "formats"},
      {"lint", root + "/data"},
      {"lint", "--format", "github", root + "/data"},
      {"lint", "--format", "sarif", root + "/data"},
      {"lint", "--format", "github", root + "/lintme"},
      {"lint", "--select", evil, root + "/lintme"},
      {"-vv", "inspect", root + "/cfg"},
      {"-vv", "recommend", "--gpu", "h100", "--model-config", root + "/cfg/config.json"},
      {"-vv", "inspect", root + "/st"},
      {"-vv", "verify", "--log", root + "/engine.log"},
      {"verify", "--log", root + "/engine.log", "--engine", evil},
      {evil},
      {"recommend", evil},
  };
  for (const auto& args : runs) {
    auto r = run_cli(args);
    INFO(fmt::format("{}", fmt::join(args, " ")) << "\nexit " << r.code << "\nstdout: " << r.out.substr(0, 400) << "\nstderr: " << r.err.substr(0, 400));
    CHECK(raw_control(r.out).empty());
    CHECK(raw_control(r.err) == "");
    CHECK_FALSE(workflow_command(r.err));
    CHECK(r.err.find("Forged::owned\n") == std::string::npos);
  }
}
