#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

const char* kServeCli = R"(cli:
- program: srv serve
  project: org/srv
  commit: fb30760996871fa9460115c753afd2c60d4ab0f7
  flags: []
  env: [SRV_CONTEXT_LENGTH, SRV_KV_CACHE_TYPE, SRV_FLASH_ATTENTION]
  source:
    title: srv envconfig
- program: srv run
  project: org/srv
  commit: fb30760996871fa9460115c753afd2c60d4ab0f7
  flags: ['--verbose']
  source:
    title: srv cmd
)";

}  // namespace

TEST_CASE("QS048 unknown-environment-variable fires on a variable the recorded server does not read", "[lint][QS048]") {
  TempDir d;
  d.write("engines/eng.yaml", minimal_record("engine", "eng", std::string(kServeCli) + R"(launch:
  program: srv run
  server: srv serve
  model: hf.co/{repo}
  context: SRV_NUM_CTX={context}
  kv_cache:
  - format: kv8
    flags: SRV_KV_CACHE_TYPE=q8_0 SRV_FLASH_ATTN=1
  source:
    title: srv
)"));
  auto f = lint_code(d.path(), "QS048");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()).find("engines/eng.yaml:") == 0);
  CHECK(f[0].message == "launch template \"SRV_NUM_CTX={context} srv serve\" sets SRV_NUM_CTX, which srv serve at fb30760 does not read");
  CHECK(f[1].message == "launch template \"SRV_KV_CACHE_TYPE=q8_0 SRV_FLASH_ATTN=1 srv serve\" sets SRV_FLASH_ATTN, which srv serve at fb30760 does not read");
  CHECK(lint_code(d.path(), "QS045").empty());  // the programs and their flags are recorded
}

TEST_CASE("QS048 unknown-environment-variable is clean when every variable is read, and QS045 still checks the run line", "[lint][QS048]") {
  TempDir d;
  d.write("engines/eng.yaml", minimal_record("engine", "eng", std::string(kServeCli) + R"(launch:
  program: srv run
  server: srv serve
  model: hf.co/{repo}
  always: --verbose --quiet
  context: SRV_CONTEXT_LENGTH={context}
  kv_cache:
  - format: kv8
    flags: SRV_KV_CACHE_TYPE=q8_0 SRV_FLASH_ATTENTION=1
  source:
    title: srv
)"));
  CHECK(lint_code(d.path(), "QS048").empty());
  auto f = lint_code(d.path(), "QS045");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "launch template \"srv run --verbose --quiet\" uses --quiet, which srv run at fb30760 does not have");
}
