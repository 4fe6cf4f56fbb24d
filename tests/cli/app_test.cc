#include <catch2/catch.hpp>

#include <cstdlib>
#include <set>

#include "qsel/cli/app.h"
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

TEST_CASE("app: CLI11 parse errors map to exit 2; help exits 0", "[cli]") {
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
  CHECK(empty.err == "/nonexistent: no such file or directory [QS014]\n"
                     "qsel: error: 1 problem(s) in corpus /nonexistent; run `qsel lint /nonexistent` for details\n");
}

TEST_CASE("app: every command in the table has a summary and a unique name", "[cli]") {
  std::set<std::string> names;
  for (const auto& c : qsel::commands()) {
    CHECK(std::string(c.summary).size() > 10);
    CHECK(names.insert(c.name).second);
  }
}
