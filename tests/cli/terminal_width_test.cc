// Every command's text output, and every --help, fits the terminal: the built qsel
// run at COLUMNS=80 and COLUMNS=120 over a table of invocations (each command, each
// `list` kind, explain and show of several record kinds, the matrix views, verify,
// inspect, graph, lint with findings), no line wider than the width unless what is
// past the width is one unbreakable token (a URL, a path). Widths are code points
// after ANSI escapes are stripped.
#include <catch2/catch.hpp>

#include <future>
#include <string>
#include <vector>

#include "qsel/core/text.h"
#include "support/fixtures.h"

using qsel::test::run_binary_env;
using qsel::test::source_dir;
using qsel::test::TempDir;

namespace {

std::string without_ansi(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    out += s[i];
  }
  return out;
}

// The code points of `line` from the `from`-th on.
std::string past(const std::string& line, std::size_t from) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size(); i += qsel::utf8_at(line, i).length)
    if (n++ == from) return line.substr(i);
  return "";
}

// The first line of `text` wider than `width` with a space in what runs past it, or "".
std::string overlong(const std::string& text, std::size_t width) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = std::min(text.find('\n', at), text.size());
    std::string line = without_ansi(text.substr(at, end - at));
    if (qsel::utf8_length(line) > width && past(line, width).find(' ') != std::string::npos) return line;
    at = end + 1;
  }
  return "";
}

}  // namespace

TEST_CASE("terminal width: every command and every --help fits COLUMNS=80 and 120, past it only one unbreakable token",
          "[cli][width]") {
  TempDir d;
  // A record with findings whose messages are long: an unknown field, a dangling reference.
  d.write("c/formats/wide.yaml",
          qsel::test::minimal_record("format", "wide",
                                     "native_on: [no-such-target-at-all, another-target-that-is-not-there, and-a-third-one]\n"
                                     "colour_of_the_sky_on_a_clear_day: \"a value long enough to take this line well past "
                                     "eighty columns, and the snippet under it too\"\n"));
  const std::string lint_dir = (d.path() / "c").string();
  const std::vector<std::string> invocations = {
      "--help", "recommend --help", "inspect --help", "verify --help", "explain --help", "list --help", "show --help",
      "lint --help", "matrix --help", "graph --help", "completion --help", "man --help",
      "recommend --gpu h100 --model-size 70b", "recommend --gpu rtx-4070 --model-size 405b",
      "explain nvfp4 --on sm120", "explain nvfp4", "explain fp8-blockwise --on sm90", "explain machete", "explain vllm",
      "explain h100", "explain fp8-kv", "explain rule-2", "explain QS004",
      "show h100", "show machete", "show vllm", "show nvfp4", "show sm120", "show arc-llamacpp-agentic-stall",
      "show bench-3bit-group-size-coarser-ppl-delta", "show trtllm-quant-matrix", "show mxfp4-vs-nvfp4",
      "show deepseek-r1-distill-llama-70b",
      "list", "list formats", "list accelerators", "list targets", "list kernels", "list engines", "list matrices",
      "list benchmarks", "list gotchas", "list models", "list techniques", "list facts", "list questions",
      "list formats --regime w4a16",
      "matrix", "matrix --engine trtllm", "matrix --engine vllm --gpu h100", "matrix --derived",
      "matrix --derived --vendor amd",
      "matrix --verdicts --vendor amd",  // the whole grid takes 1.4 s to deliberate; one vendor's shows the layout
      "verify --log examples/logs/vllm-gptoss-mxfp4-marlin-sm120.log --gpu rtx-pro-6000-blackwell --model examples/gpt-oss-120b",
      "verify --log examples/logs/vllm-marlin-ampere-rtx3090.log --gpu h100 --quant gptq",
      "inspect examples/deepseek-r1", "inspect examples/gpt-oss-120b",
      "graph --around nvfp4", "graph --around h100",
      "lint --no-config " + lint_dir,  // not --format concise: one line per finding, for editors and grep
      "lint --no-config --statistics --show-fixes " + lint_dir, "lint --list-rules",
  };
  for (std::size_t width : {80, 120}) {
    auto run = [width](const std::string& args) {
      return run_binary_env("cd '" + source_dir() + "' && COLUMNS=" + std::to_string(width) + " ", "--color always " + args);
    };
    for (std::size_t i = 0; i < invocations.size(); i += 2) {  // two at a time: CI has two cores
      std::vector<std::future<qsel::test::CliResult>> runs;
      for (std::size_t k = i; k < i + 2 && k < invocations.size(); ++k) runs.push_back(std::async(std::launch::async, run, invocations[k]));
      for (std::size_t k = 0; k < runs.size(); ++k) {
        auto r = runs[k].get();
        INFO("COLUMNS=" << width << " qsel " << invocations[i + k] << "\nstderr: " << r.err);
        CHECK(r.code != 2);
        CHECK_FALSE(r.out.empty());
        CHECK(overlong(r.out, width) == "");
      }
    }
  }
}
