#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("QS030 malformed-log-pattern fires on unclosed captures, bare wildcards and uncaptured facts", "[lint][QS030]") {
  TempDir d;
  d.write("kernels/k1.yaml", minimal_record("kernel", "k1"));
  d.write("engines/e1.yaml", replaced(minimal_record("engine", "e1",
                                                     "log:\n  detect: ['***']\n  facts:\n  - pattern: 'capability {cc}'\n    fact: compute_capability\n"
                                                     "    source: {title: t, url: 'https://example.org', quote: q}\n"),
                                      "kernel_selection: []\n",
                                      "kernel_selection:\n- kernel: k1\n  log:\n    patterns: ['Using {x for']\n    observed: true\n"
                                      "    source: {title: t, url: 'https://example.org', quote: q}\n"));
  auto f = lint_code(d.path(), "QS030");
  REQUIRE(f.size() == 3);
  std::vector<std::string> msgs;
  for (const auto& x : f) msgs.push_back(x.message);
  std::sort(msgs.begin(), msgs.end());
  CHECK(msgs[0] == "log pattern \"***\": a pattern needs some literal text");
  CHECK(msgs[1] == "log pattern \"Using {x for\": unclosed '{'");
  CHECK(msgs[2] == "log pattern \"capability {cc}\" names fact compute_capability but captures no {compute_capability}");
}

TEST_CASE("QS030 malformed-log-pattern is clean on the corpus's own patterns", "[lint][QS030]") {
  TempDir d;
  d.write("kernels/k1.yaml", minimal_record("kernel", "k1"));
  d.write("engines/e1.yaml", minimal_record("engine", "e1",
                                            "log:\n  detect: ['ggml_cuda_init:']\n  facts:\n  - pattern: 'compute capability {compute_capability}, VMM'\n"
                                            "    fact: compute_capability\n    source: {title: t, url: 'https://example.org', quote: q}\n"));
  CHECK(lint_code(d.path(), "QS030").empty());
}
