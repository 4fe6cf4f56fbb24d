#include "qsel/core/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>

#include "qsel/core/errors.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using namespace qsel;
using qsel::test::read_text;
using qsel::test::TempDir;

namespace {

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

std::size_t entries(const fs::path& dir) { return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {})); }

}  // namespace

TEST_CASE("atomic write: a new file, and a replaced one that keeps its mode (0600 stays 0600)", "[core][atomic_write]") {
  TempDir t;
  fs::path p = t.path() / "out.json";
  write_file_atomic(p.string(), "one\n");
  CHECK(read_text(p) == "one\n");
  CHECK((mode_of(p) & 0600) == 0600);
  ::chmod(p.c_str(), 0600);
  write_file_atomic(p.string(), std::string("two\0bytes\n", 10));
  CHECK(read_text(p) == std::string("two\0bytes\n", 10));
  CHECK(mode_of(p) == 0600);
  CHECK(entries(t.path()) == 1);  // no temporary file left behind
}

TEST_CASE("atomic write: a link's target is replaced unless links are refused, a folder never", "[core][atomic_write]") {
  TempDir t;
  fs::path target = t.write("target.yaml", "old\n");
  fs::path link = t.path() / "link.yaml";
  fs::create_symlink(target, link);
  write_file_atomic(link.string(), "new\n");
  CHECK(fs::is_symlink(link));
  CHECK(read_text(target) == "new\n");

  AtomicWrite no_links;
  no_links.refuse_symlink = true;
  auto out = try_write_file_atomic(link.string(), "newer\n", no_links);
  CHECK(out.code == WriteOutcome::Symlink);
  CHECK(read_text(target) == "new\n");

  fs::create_directory(t.path() / "dir");
  out = try_write_file_atomic((t.path() / "dir").string(), "x", {});
  CHECK(out.code == WriteOutcome::NotRegular);
  CHECK_THROWS_WITH(write_file_atomic((t.path() / "dir").string(), "x"),
                    (t.path() / "dir").string() + ": not a regular file; refusing to replace it");
  CHECK(entries(t.path()) == 3);
}

TEST_CASE("atomic write: with an expected text, a file changed before or during the write is left alone", "[core][atomic_write]") {
  TempDir t;
  fs::path p = t.write("f.yaml", "linted\n");
  AtomicWrite o;
  o.expect = std::string_view("something else\n");
  auto out = try_write_file_atomic(p.string(), "fixed\n", o);
  CHECK(out.code == WriteOutcome::ChangedBefore);
  CHECK(read_text(p) == "linted\n");
  o.expect = std::string_view("linted\n");
  CHECK(try_write_file_atomic(p.string(), "fixed\n", o));
  CHECK(read_text(p) == "fixed\n");
  out = try_write_file_atomic((t.path() / "gone.yaml").string(), "x", o);
  CHECK(out.code == WriteOutcome::Failed);
  CHECK(out.why == "cannot stat it: No such file or directory");
  CHECK(entries(t.path()) == 1);
}

TEST_CASE("atomic write: a folder that cannot take the temporary file is named in the error", "[core][atomic_write]") {
  if (::geteuid() == 0) return;  // root writes anywhere
  TempDir t;
  fs::create_directory(t.path() / "ro");
  ::chmod((t.path() / "ro").c_str(), 0500);
  std::string p = (t.path() / "ro" / "f").string();
  CHECK_THROWS_WITH(write_file_atomic(p, "x"), Catch::Matchers::StartsWith(p + ": cannot create a temporary file beside it: "));
  ::chmod((t.path() / "ro").c_str(), 0700);
}

TEST_CASE("atomic write at a folder: a link at the name is replaced, never followed (issue 41)", "[core][atomic_write]") {
  TempDir t, outside;
  auto victim = outside.write("victim", "keep me");
  fs::create_symlink(victim, t.path() / "entry");
  int dir = ::open(t.path().c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(dir >= 0);
  WriteOutcome out = try_write_file_atomic_at(dir, "entry", "new", 0600);
  ::close(dir);
  CHECK(out);
  CHECK(read_text(victim) == "keep me");
  CHECK(!fs::is_symlink(t.path() / "entry"));
  CHECK(read_text(t.path() / "entry") == "new");
  CHECK(mode_of(t.path() / "entry") == 0600);
  CHECK(entries(t.path()) == 1);  // no temporary file left behind
}
