// A folder only this user may change, walked without following links (the Hub
// cache's storage, issue 41 C1).
#include "qsel/core/private_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>

#include "support/fixtures.h"

namespace fs = std::filesystem;
using namespace qsel;
using Catch::Contains;
using qsel::test::read_text;
using qsel::test::TempDir;

namespace {

unsigned mode_bits(const fs::path& p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("private dir: created 0700 with its parents, entries written 0600, folders 0700, read back", "[core][private_dir]") {
  TempDir t;
  fs::path root = t.path() / "a" / "b" / "cache";
  PrivateDir d = PrivateDir::open(root.string());
  REQUIRE(d.usable());
  CHECK(mode_bits(root) == 0700);
  CHECK(mode_bits(t.path() / "a") == 0700);
  std::string why;
  CHECK(d.write({"x", "y", "entry.json"}, "{}", &why));
  CHECK(why.empty());
  CHECK(mode_bits(root / "x") == 0700);
  CHECK(mode_bits(root / "x" / "y" / "entry.json") == 0600);
  CHECK(d.read({"x", "y", "entry.json"}, 100, &why) == std::optional<std::string>("{}"));
  CHECK(!d.read({"x", "y", "missing.json"}, 100, &why));
  CHECK(why.empty());  // a plain miss says nothing
  CHECK(!d.read({"x", "y", "entry.json"}, 1, &why));
  CHECK_THAT(why, Contains("entry.json: file is 2 bytes"));
  CHECK(d.shown({"x", "y"}) == root.string() + "/x/y");
}

TEST_CASE("private dir: a link at a file is replaced on write and refused on read, its target untouched", "[core][private_dir]") {
  TempDir t, outside;
  PrivateDir d = PrivateDir::open((t.path() / "c").string());
  std::string why;
  REQUIRE(d.write({"f", "e"}, "old", &why));
  auto victim = outside.write("victim", "keep me");
  fs::remove(t.path() / "c" / "f" / "e");
  fs::create_symlink(victim, t.path() / "c" / "f" / "e");
  CHECK(!d.read({"f", "e"}, 100, &why));
  CHECK_THAT(why, Contains("a symbolic link (not followed)"));
  CHECK(d.write({"f", "e"}, "new", &why));
  CHECK(read_text(victim) == "keep me");
  CHECK(!fs::is_symlink(t.path() / "c" / "f" / "e"));
  CHECK(read_text(t.path() / "c" / "f" / "e") == "new");
}

TEST_CASE("private dir: a linked folder is never entered, and a write replaces the link with a folder", "[core][private_dir]") {
  TempDir t, outside;
  PrivateDir d = PrivateDir::open((t.path() / "c").string());
  fs::create_symlink(outside.path(), t.path() / "c" / "f");
  outside.write("e", "outside");
  std::string why;
  CHECK(!d.read({"f", "e"}, 100, &why));
  CHECK_THAT(why, Contains("not followed"));
  CHECK(d.write({"f", "e"}, "inside", &why));
  CHECK(read_text(outside.path() / "e") == "outside");
  CHECK(fs::is_directory(fs::symlink_status(t.path() / "c" / "f")));
  CHECK(read_text(t.path() / "c" / "f" / "e") == "inside");
}

TEST_CASE("private dir: names that could climb out are refused", "[core][private_dir]") {
  TempDir t;
  PrivateDir d = PrivateDir::open((t.path() / "c").string());
  std::string why;
  for (const std::string& bad : std::vector<std::string>{"", ".", "..", "a/b", std::string("a\0b", 3), std::string(256, 'a')}) {
    CHECK(!is_single_name(bad));
    CHECK(!d.write({bad, "e"}, "x", &why));
    CHECK(!d.write({"ok", bad}, "x", &why));
    CHECK(!d.read({bad}, 10, &why));
  }
  CHECK(fs::is_empty(t.path() / "c"));
  CHECK(fs::directory_iterator(t.path()) != fs::directory_iterator());
}

TEST_CASE("private dir: a link as the root, another owner, or a folder others may write to is not used", "[core][private_dir]") {
  TempDir t;
  fs::create_directories(t.path() / "real");
  fs::create_symlink(t.path() / "real", t.path() / "link");
  PrivateDir link = PrivateDir::open((t.path() / "link").string());
  CHECK(!link.usable());
  CHECK_THAT(link.why(), Contains("a symbolic link"));
  ::chmod((t.path() / "real").c_str(), 0775);
  PrivateDir open = PrivateDir::open((t.path() / "real").string());
  CHECK(!open.usable());
  CHECK_THAT(open.why(), Contains("others may write to it (mode 0775); not using it"));
  std::string why;
  CHECK(!open.write({"e"}, "x", &why));
  CHECK(fs::is_empty(t.path() / "real"));
  if (::geteuid() == 0) {
    ::chmod((t.path() / "real").c_str(), 0700);
    REQUIRE(::chown((t.path() / "real").c_str(), 65534, 65534) == 0);
    CHECK_THAT(PrivateDir::open((t.path() / "real").string()).why(), Contains("owned by user 65534"));
  }
  CHECK(!PrivateDir::open("").usable());
}
