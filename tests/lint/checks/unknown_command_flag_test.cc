#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

const char* kCli = R"(cli:
- program: srv
  project: org/srv
  commit: 145b6280d6aa1890e22457143dad0badb3fd6820
  flags: ['-m', '-c', '-ngl', '--fit', '--fit-target', '-ctk', '-ctv']
  source:
    title: srv arg.cpp
)";

}  // namespace

TEST_CASE("QS045 unknown-command-flag fires on a template flag the recorded release lacks, and on an unrecorded program",
          "[lint][QS045]") {
  TempDir d;
  d.write("engines/eng.yaml", minimal_record("engine", "eng", std::string(kCli) + R"(launch:
  program: srv
  model: -m {file}
  context: -c {context}
  gpu_layers: --gpu-layer {n}
  kv_cache:
  - format: kv8
    flags: -ctk q8_0 -ctv q8_0 --target-bpw 4.5
  source:
    title: srv arg.cpp
)"));
  d.write("engines/other.yaml", minimal_record("engine", "other", R"(launch:
  program: other-serve
  model: '{repo}'
  source:
    title: nothing recorded
)"));
  auto f = lint_code(d.path(), "QS045");
  REQUIRE(f.size() == 3);
  CHECK(where(f[0], d.path()).find("engines/eng.yaml:") == 0);
  CHECK(f[0].message == "launch template \"srv --gpu-layer {n}\" uses --gpu-layer, which srv at 145b628 does not have");
  CHECK(f[1].message == "launch template \"srv -ctk q8_0 -ctv q8_0 --target-bpw 4.5\" uses --target-bpw, which srv at 145b628 does not have");
  CHECK(f[2].message == "launch template \"other-serve {repo}\" runs a program with no cli entry: record its flags at a commit");
}

TEST_CASE("QS045 unknown-command-flag is clean when every template flag is recorded", "[lint][QS045]") {
  TempDir d;
  d.write("engines/eng.yaml", minimal_record("engine", "eng", std::string(kCli) + R"(launch:
  program: srv
  model: -m {file}
  context: -c {context}
  gpu_layers: -ngl {n}
  fit: --fit on --fit-target {mib}
  source:
    title: srv arg.cpp
)"));
  CHECK(lint_code(d.path(), "QS045").empty());
}
