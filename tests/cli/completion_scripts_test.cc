// qsel completion bash|zsh|fish: generated from the CLI table, run in the real shells.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "support/fixtures.h"

using qsel::test::run_cli;
using qsel::test::TempDir;

namespace {

bool have(const char* tool) { return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0; }

// Runs `script` (a shell program) with `shell`; returns its stdout.
std::string run_shell(const char* shell, const std::string& script, int* code = nullptr) {
  TempDir d;
  auto file = d.write("t.sh", script);
  std::string cmd = std::string(shell) + " " + file.string() + " >" + (d.path() / "out").string() + " 2>&1";
  int status = std::system(cmd.c_str());
  if (code) *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return qsel::test::read_text(d.path() / "out");
}

// What bash completes for the words (the last one being completed).
std::string bash_complete(const std::string& script_file, const std::string& words) {
  return run_shell("bash", "source " + script_file + "\nCOMP_WORDS=(" + words + ")\nCOMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                   "COMPREPLY=()\n_qsel\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n");
}

}  // namespace

TEST_CASE("completion: bash completes commands, options, formats per command and GPU ids", "[cli][completion]") {
  auto r = run_cli({"completion", "bash"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  TempDir d;
  auto file = d.write("qsel.bash", r.out).string();
  int code = -1;
  run_shell("bash -n", r.out, &code);
  CHECK(code == 0);
  CHECK(bash_complete(file, "qsel rec") == "recommend\n");
  CHECK(bash_complete(file, "qsel lint --format ''") == "text\nconcise\njson\nsarif\ngithub\ngitlab\njunit\npylint\nazure\n");
  CHECK(bash_complete(file, "qsel --format json recommend --format ''") == "text\njson\nmarkdown\nhtml\nsvg\n");
  CHECK(bash_complete(file, "qsel --format ''") == "text\nconcise\njson\nsarif\ngithub\ngitlab\njunit\npylint\nazure\nmarkdown\ncsv\ndot\nmermaid\nhtml\nsvg\n");
  CHECK(bash_complete(file, "qsel recommend --gpu h100-") == "h100-nvl\nh100-pcie\nh100-sxm\n");
  CHECK(bash_complete(file, "qsel recommend --gpu rtx-309") == "rtx-3090\nrtx-3090-ti\n");
  CHECK(bash_complete(file, "qsel recommend --engine vl") == "vllm\nvllm-gaudi\nvllm-neuron\nvllm-tpu\n");
  CHECK(bash_complete(file, "qsel explain nvfp4 --on sm12") == "sm120\nsm121\n");
  CHECK(bash_complete(file, "qsel lint --exit") == "--exit-zero\n");
  CHECK(bash_complete(file, "qsel --color ''") == "auto\nalways\nnever\n");
  CHECK(bash_complete(file, "qsel list fo") == "formats\n");
  CHECK(bash_complete(file, "qsel completion ''") == "bash\nzsh\nfish\n");
  // Hidden commands are not offered; global options are, before and after the command.
  CHECK(bash_complete(file, "qsel ma") == "matrix\n");
  CHECK(bash_complete(file, "qsel show --qu") == "--quiet\n");
  // Issue 28: lint codes, list filters, severities, and a quoted, upper-case GPU spelling.
  CHECK(bash_complete(file, "qsel explain QS00") == "QS001\nQS002\nQS003\nQS004\nQS005\nQS006\nQS007\nQS008\nQS009\n");
  CHECK(bash_complete(file, "qsel explain rule-") == "rule-1\nrule-2\nrule-3\nrule-4\nrule-5\nrule-6\nrule-7\n");
  CHECK(bash_complete(file, "qsel lint --select QS00") == "QS001\nQS002\nQS003\nQS004\nQS005\nQS006\nQS007\nQS008\nQS009\n");
  CHECK(bash_complete(file, "qsel lint --ignore contested-b") == "contested-bpw\n");
  CHECK(bash_complete(file, "qsel list formats --native-on rtx-309") == "rtx-3090\nrtx-3090-ti\n");
  CHECK(bash_complete(file, "qsel list gotchas --severity ''") == "blocker\nmajor\nminor\n");
  CHECK(bash_complete(file, "qsel recommend --gpu '\"RTX-309'") == "rtx-3090\nrtx-3090-ti\n");
  CHECK(bash_complete(file, "qsel recommend --gpu H100-S") == "h100-sxm\n");
  CHECK(bash_complete(file, "qsel graph --edges native-") == "native-on\n");
  CHECK(bash_complete(file, "qsel graph --kinds acc") == "accelerator\n");
}

TEST_CASE("completion: zsh and fish scripts parse, and fish completes like bash", "[cli][completion]") {
  auto zsh = run_cli({"completion", "zsh"});
  REQUIRE(zsh.code == 0);
  CHECK(zsh.out.rfind("#compdef qsel\n", 0) == 0);
  CHECK(zsh.out.find("'recommend:Rank format x engine x kernel") != std::string::npos);
  auto fish = run_cli({"completion", "fish"});
  REQUIRE(fish.code == 0);
  CHECK(fish.out.find("complete -c qsel -n '__fish_use_subcommand' -a recommend") != std::string::npos);
  if (have("zsh")) {
    int code = -1;
    run_shell("zsh -n", zsh.out, &code);
    CHECK(code == 0);
  } else {
    WARN("zsh not installed: zsh script checked by content only");
  }
  if (have("fish")) {
    TempDir d;
    auto file = d.write("qsel.fish", fish.out).string();
    int code = -1;
    std::string out = run_shell("fish", "source " + file + "\ncomplete -C'qsel rec'\ncomplete -C'qsel lint --format '\n"
                                "complete -C'qsel recommend --gpu rtx-309'\n", &code);
    CHECK(code == 0);
    CHECK(out.find("recommend\t") != std::string::npos);
    CHECK(out.find("\nsarif\n") != std::string::npos);
    CHECK(out.find("\ngitlab\n") != std::string::npos);
    CHECK(out.find("\nmarkdown\n") == std::string::npos);  // lint has no markdown
    // each GPU id alone, not beside --gpu's whole help text
    CHECK(out.find("\nrtx-3090-ti\n") != std::string::npos);
    CHECK(out.find("GPU: id, alias") == std::string::npos);
  } else {
    WARN("fish not installed: fish script checked by content only");
  }
}

TEST_CASE("completion: zsh completes in a real interactive zsh, through _arguments", "[cli][completion]") {
  if (!have("zsh")) {
    WARN("zsh not installed: skipping the interactive zsh check");
    return;
  }
  auto zsh = run_cli({"completion", "zsh"});
  REQUIRE(zsh.code == 0);
  TempDir d;
  d.write("_qsel", zsh.out);
  // The words zsh offers for a command line, sorted (tests/cli/zsh_capture.zsh drives zsh in a pty).
  auto offered = [&](const std::string& line) {
    std::string out = run_shell("timeout 30 zsh", "exec zsh " + qsel::test::source_dir() + "/tests/cli/zsh_capture.zsh " + d.path().string() +
                                                      " '" + line + "' | sort -u\n");
    return out;
  };
  CHECK(offered("qsel rec") == "recommend\n");
  CHECK(offered("qsel recommend --gpu rtx-309") == "rtx-3090\nrtx-3090-ti\n");
  CHECK(offered("qsel explain QS00") == "QS001\nQS002\nQS003\nQS004\nQS005\nQS006\nQS007\nQS008\nQS009\n");
  CHECK(offered("qsel lint --select QS03") == "QS030\nQS031\nQS032\nQS033\nQS034\nQS035\nQS036\nQS037\nQS038\nQS039\n");
  CHECK(offered("qsel list gotchas --severity ") == "blocker\nmajor\nminor\n");
  CHECK(offered("qsel lint --format ") == "azure\nconcise\ngithub\ngitlab\njson\njunit\npylint\nsarif\ntext\n");
}

TEST_CASE("completion: an unknown shell is a usage error", "[cli][completion]") {
  auto r = run_cli({"completion", "powershell"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("powershell") != std::string::npos);
}

TEST_CASE("completion: words come from the corpus in use and stay shell-safe", "[cli][completion]") {
  TempDir d;
  d.write("accelerators/my-gpu.yaml", qsel::test::minimal_record("accelerator", "my-gpu"));
  d.write("targets/sm90.yaml", qsel::test::minimal_record("target", "sm90"));
  auto r = run_cli({"--data", d.path().string(), "completion", "bash"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("auto custom my-gpu") != std::string::npos);
  CHECK(r.out.find("h100-sxm") == std::string::npos);
  for (char c : r.out) CHECK((c == '\n' || (c >= 0x20 && c < 0x7f)));
}
