// A small corpus for the browse commands' tests: two NVIDIA targets and an AMD one,
// a part on each, two formats, an engine with a kernel and a support matrix, a
// gotcha, and one dangling reference (fmt-x names the part "gpu-gone").
#pragma once
#include <functional>
#include <string>

#include <catch2/catch.hpp>

#include "qsel/core/errors.h"
#include "qsel/graph/graph.h"
#include "qsel/loader/loader.h"
#include "support/fixtures.h"

namespace qsel::test {

inline std::string browse_record(const std::string& kind, const std::string& id, const std::string& body,
                                 const std::string& name = "") {
  return "id: " + id + "\nkind: " + kind + "\nname: " + (name.empty() ? id : name) + "\n" + body +
         "status: draft\nconfidence: 0.5\nsources:\n  - title: test source\n    url: https://example.org/" + id + "\n";
}

// Writes the corpus into `dir` and returns the --data argument for it.
inline std::string write_browse_corpus(const TempDir& dir) {
  auto put = [&](const std::string& plural, const std::string& kind, const std::string& id, const std::string& body,
                 const std::string& name = "") { dir.write(plural + "/" + id + ".yaml", browse_record(kind, id, body, name)); };
  put("targets", "target", "t-new", "vendor: nvidia\nplatform: cuda\nfamily: fam-new\ncompute_capability: 9.0\n");
  put("targets", "target", "t-old", "vendor: nvidia\nplatform: cuda\nfamily: fam-old\ncompute_capability: 8.0\n");
  put("targets", "target", "t-amd", "vendor: amd\nplatform: rocm\n");
  put("accelerators", "accelerator", "gpu-new", "aliases: [new gpu]\nvendor: nvidia\ntarget: t-new\n", "New GPU");
  put("accelerators", "accelerator", "gpu-old", "vendor: nvidia\ntarget: t-old\n", "Old GPU");
  put("accelerators", "accelerator", "gpu-amd", "vendor: amd\ntarget: t-amd\n", "AMD GPU");
  put("formats", "format", "fmt-x", "scheme: awq\nregime: w4a16\nnative_support: [gpu-new, gpu-gone]\nemulated_support: [gpu-old]\n");
  put("formats", "format", "fmt-y", "scheme: nvfp4\nregime: w4a4\nemulated_support: [gpu-new]\n");
  put("formats", "format", "fmt-z", "scheme: gptq\nregime: w4a16\n");
  put("kernels", "kernel", "k-one", "mode: dequant\nregimes: [w4a16]\nruns_on: {}\n");
  put("engines", "engine", "eng", "aliases: [the engine]\nformats: [fmt-x]\nmatrix: mx\nkernel_selection:\n  - {kernel: k-one, formats: [fmt-x]}\n",
      "The Engine");
  put("engines", "engine", "eng-bare", "kernel_selection: []\n");
  put("gotchas", "gotcha", "g-one", "severity: blocker\nsilent: true\napplies: {engines: [eng], formats: [fmt-y]}\n");
  put("gotchas", "gotcha", "g-two", "severity: minor\nsilent: false\napplies: {formats: [fmt-x]}\n");
  put("matrices", "matrix", "mx",
      "engine: eng\nversion: v1\ncolumns:\n"
      "  - {key: cx, label: Col X, formats: [fmt-x]}\n"
      "  - {key: cy, label: A Very Long Column Label, formats: [fmt-y, fmt-z]}\n"
      "rows:\n"
      "  - {key: ra, label: Row New, match: {targets: [t-new]}, cells: {cx: \"Y\", cy: \"Y*\"}}\n"
      "  - {key: rb, label: Row Old, match: {min_cc: 7.0, max_cc: 8.5}, cells: {cx: \".\", cy: \".\"}}\n"
      "footnotes:\n  \"*\": {text: Not fmt-y., excludes_formats: [fmt-y]}\n"
      "uncovered:\n  - {match: {vendors: [amd]}, note: No AMD row.}\n",
      "The Matrix");
  return dir.path().string();
}

// The small browse corpus in a temp dir, and `qsel --data <it> ARGS…` on it.
struct Small {
  TempDir dir;
  std::string data = write_browse_corpus(dir);
  CliResult run(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--data", data});
    return run_cli(args);
  }
};

// The small browse corpus as a graph (loaded without problems).
inline Graph browse_graph() {
  TempDir dir;
  write_browse_corpus(dir);
  Corpus c = load_corpus(dir.path(), schemas());
  REQUIRE(c.problems.empty());
  return Graph(std::move(c));
}

// The UsageError `f` throws, or empty when it throws none.
inline std::string usage_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace qsel::test
