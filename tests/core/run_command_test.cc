#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "qsel/core/run_command.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {
void script(const test::TempDir& d, const std::string& name, const std::string& body, mode_t mode = 0755) {
  auto p = d.write(name, "#!/bin/sh\n" + body + "\n");
  chmod(p.c_str(), mode);
}

// Whether the process in `pidfile` is still running (a zombie waiting for its reaper is not).
bool still_running(const std::filesystem::path& pidfile) {
  std::string pid;
  for (int i = 0; i < 100 && pid.empty(); ++i) {  // the child may write its pid a moment after the tool returns
    pid = test::read_text(pidfile);
    while (!pid.empty() && pid.back() == '\n') pid.pop_back();
    if (pid.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(!pid.empty());
  bool running = false;
  for (int i = 0; i < 100; ++i) {
    std::ifstream stat("/proc/" + pid + "/stat");
    std::string line;
    running = stat && std::getline(stat, line) && line.find(") Z ") == std::string::npos;
    if (!running) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return running;
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

TEST_CASE("run_command: a tool that closes stdout and keeps running is killed at the deadline (--gpu auto hung)", "[core][run]") {
  test::TempDir d;
  script(d, "nvidia-smi", "echo 'NVIDIA H100 80GB HBM3, 81559'\nexec >&-\nsleep 1000");
  CommandOptions o;
  o.path = d.path().string();
  o.timeout_ms = 500;
  auto start = std::chrono::steady_clock::now();
  auto r = run_command({"nvidia-smi"}, o);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r);
  CHECK(r->timed_out);
  CHECK(r->out == "NVIDIA H100 80GB HBM3, 81559\n");
  CHECK(seconds < 5);
}

TEST_CASE("run_command: what the tool started is killed with it, in its process group or one of its own (issue 41)", "[core][run]") {
  // A grandchild in the tool's process group; one that moved to a group of its own, in the tool's session
  // (the group kill alone missed it).
  for (const std::string child : {"sleep 1000", "perl -e 'setpgrp(0, 0); exec \"sleep\", \"1000\"' >/dev/null"}) {
    INFO(child);
    test::TempDir d;
    auto pidfile = d.path() / "grandchild.pid";
    script(d, "tool", child + " &\necho $! > '" + pidfile.string() + "'\nwait");
    CommandOptions o;
    o.path = d.path().string();
    o.timeout_ms = 500;
    auto r = run_command({"tool"}, o);
    REQUIRE(r);
    CHECK(r->timed_out);
    CHECK_FALSE(still_running(pidfile));  // dead, or a zombie waiting for its new parent to reap it
  }
}

TEST_CASE("run_command: a detached child holding stdout neither costs the answer nor outlives the tool (issue 41)", "[core][run]") {
  test::TempDir d;
  auto pidfile = d.path() / "child.pid";
  // The answer, then a child left behind with stdout open, in a session of its own; the tool exits at once.
  script(d, "nvidia-smi", "echo 'NVIDIA H100 80GB HBM3, 81559 MiB, 9.0'\n/usr/bin/setsid /bin/sh -c 'echo $$ > \"" + pidfile.string() +
                              "\"; exec sleep 1000' &\nexit 0");
  CommandOptions o;
  o.path = d.path().string();
  o.timeout_ms = 3000;
  auto start = std::chrono::steady_clock::now();
  auto r = run_command({"nvidia-smi"}, o);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r);
  CHECK(!r->timed_out);  // it waited for the child's end of the pipe until the deadline, and dropped the answer
  CHECK(r->exit_code == 0);
  CHECK(r->out == "NVIDIA H100 80GB HBM3, 81559 MiB, 9.0\n");
  CHECK(seconds < 2.5);
  CHECK_FALSE(still_running(pidfile));
}
