// qsel man: generated from the CLI table; renders cleanly with groff.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "support/fixtures.h"

using qsel::test::run_cli;

TEST_CASE("man: every command and global option has its section, with examples and exit codes", "[cli][man]") {
  auto r = run_cli({"man"});
  REQUIRE(r.code == 0);
  CHECK(r.out.rfind(".TH QSEL 1 ", 0) == 0);
  for (const char* section : {".SH NAME", ".SH SYNOPSIS", ".SH GLOBAL OPTIONS", ".SH COMMANDS", ".SH EXIT STATUS", ".SH ENVIRONMENT"})
    CHECK(r.out.find(section) != std::string::npos);
  for (const char* cmd : {"recommend", "inspect", "verify", "explain", "list", "show", "lint", "matrix", "graph", "completion", "man"})
    CHECK(r.out.find(std::string(".SS ") + cmd + "\n") != std::string::npos);
  CHECK(r.out.find("\\fB\\-\\-exit\\-zero\\fR") != std::string::npos);
  CHECK(r.out.find("qsel lint \\-\\-format sarif \\-\\-output\\-file qsel.sarif \\-\\-exit\\-zero data/") != std::string::npos);
  CHECK(r.out.find("\\fBFORCE_COLOR\\fR") != std::string::npos);
  // No line may start with a control character that is not ours.
  std::size_t at = 0;
  while ((at = r.out.find("\n'", at)) != std::string::npos) FAIL("line starts with ' at byte " << at++);
}

TEST_CASE("man: groff renders the page without warnings", "[cli][man]") {
  if (std::system("command -v groff >/dev/null 2>&1") != 0) {
    WARN("groff not installed");
    return;
  }
  qsel::test::TempDir d;
  auto page = d.write("qsel.1", run_cli({"man"}).out);
  std::string cmd = "groff -man -Tutf8 -ww -z " + page.string() + " 2>" + (d.path() / "warn").string();
  CHECK(std::system(cmd.c_str()) == 0);
  CHECK(qsel::test::read_text(d.path() / "warn").empty());
}
