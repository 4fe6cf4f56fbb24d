#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "qsel/core/run_command.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {
void script(const test::TempDir& d, const std::string& name, const std::string& body, mode_t mode = 0755) {
  auto p = d.write(name, "#!/bin/sh\n" + body + "\n");
  chmod(p.c_str(), mode);
}
}  // namespace

TEST_CASE("run_command: finds the program on the given path and reads its stdout", "[core][run]") {
  test::TempDir d;
  script(d, "tool", "echo out; echo err >&2; exit 3");
  CommandOptions o;
  o.path = d.path().string();
  auto r = run_command({"tool"}, o);
  REQUIRE(r);
  CHECK(r->out == "out\n");  // stderr is dropped
  CHECK(r->exit_code == 3);
  CHECK(find_program("tool", o.path) == (d.path() / "tool").string());
}

TEST_CASE("run_command: no program, no run", "[core][run]") {
  test::TempDir d;
  script(d, "plain", "echo hi", 0644);
  CommandOptions o;
  o.path = d.path().string();
  CHECK(!run_command({"missing"}, o));
  CHECK(!run_command({"plain"}, o));          // not executable
  CHECK(!run_command({"/bin/echo", "x"}, o));  // only names, never paths
  CHECK(!run_command({}, o));
  CHECK(find_program("plain", ":" + o.path).empty());  // an empty entry (the working directory) is skipped
}

TEST_CASE("run_command: time and size are bounded", "[core][run]") {
  test::TempDir d;
  script(d, "slow", "exec /bin/sleep 20");
  script(d, "flood", "exec /bin/cat /dev/zero");
  CommandOptions o;
  o.path = d.path().string();
  o.timeout_ms = 200;
  auto slow = run_command({"slow"}, o);
  REQUIRE(slow);
  CHECK(slow->timed_out);
  o.timeout_ms = 5000;
  o.max_bytes = 4096;
  auto flood = run_command({"flood"}, o);
  REQUIRE(flood);
  CHECK(flood->truncated);
  CHECK(flood->out.size() == 4096);
}
