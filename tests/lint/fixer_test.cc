#include <catch2/catch.hpp>

#include "qsel/lint/fixer.h"

using namespace qsel;

namespace {

std::string token(std::string_view text, Mark at) {
  auto s = scalar_span(text, at);
  return s ? std::string(text.substr(s->begin, s->end - s->begin)) : "<none>";
}

}  // namespace

TEST_CASE("fixer: the scalar at a mark, plain, quoted, in flow, before a comment", "[lint][fixer]") {
  std::string text = "id: awq\nweight_group_size: 256   # super-block\nlist: [a, 'b c', \"d\\\"e\"]\nmap: {k: 256}\nname: \"é 1\"\n";
  CHECK(token(text, {1, 5}) == "awq");
  CHECK(token(text, {2, 20}) == "256");
  CHECK(token(text, {3, 8}) == "a");
  CHECK(token(text, {3, 11}) == "'b c'");
  CHECK(token(text, {3, 18}) == "\"d\\\"e\"");
  CHECK(token(text, {4, 10}) == "256");
  CHECK(token(text, {5, 7}) == "\"é 1\"");
  CHECK(token(text, {9, 1}) == "<none>");
}

TEST_CASE("fixer: edits only the marked scalars, every other byte survives", "[lint][fixer]") {
  std::string text = "# keep me\nid: 'awq'\n\nweight_group_size: 256  # wrong\nbpw: {nominal: 4.5}\r\nmore: 256\n";
  std::size_t applied = 0;
  std::string out = apply_fixes(text, {{{4, 20}, "256", "32"}, {{2, 5}, "awq", "awq-4bit"}}, applied);
  CHECK(applied == 2);
  CHECK(out == "# keep me\nid: 'awq-4bit'\n\nweight_group_size: 32  # wrong\nbpw: {nominal: 4.5}\r\nmore: 256\n");
}

TEST_CASE("fixer: a fix whose text no longer matches is skipped", "[lint][fixer]") {
  std::size_t applied = 0;
  CHECK(apply_fixes("weight_group_size: 0x100\n", {{{1, 20}, "256", "32"}}, applied) == "weight_group_size: 0x100\n");
  CHECK(applied == 0);
}

#include <sys/stat.h>

#include "support/fixtures.h"

// Issue 13: --fix never truncates a file, never writes through a link, and
// never overwrites an edit it has not seen.
TEST_CASE("fixer: write_edits replaces a file atomically, keeping its mode", "[lint][fixer]") {
  test::TempDir d;
  auto file = d.write("formats/a.yaml", "id: a\nx: 256\n").string();
  chmod(file.c_str(), 0640);
  auto failed = write_edits({{file, "id: a\nx: 256\n", "id: a\nx: 32\n", 1}});
  CHECK(failed.empty());
  CHECK(test::read_text(file) == "id: a\nx: 32\n");
  struct stat st {};
  stat(file.c_str(), &st);
  CHECK((st.st_mode & 07777) == 0640);
  for (const auto& e : std::filesystem::directory_iterator(d.path() / "formats"))
    CHECK(e.path().filename().string().find("qsel-fix") == std::string::npos);  // no temporary left behind
}

TEST_CASE("fixer: a file changed since it was linted, or a symlink, is left untouched", "[lint][fixer]") {
  test::TempDir d;
  auto changed = d.write("formats/a.yaml", "id: a\nx: 256\nadded: by someone else\n").string();
  auto target = d.write("elsewhere/b.yaml", "id: b\nx: 256\n").string();
  std::filesystem::create_symlink(target, d.path() / "formats/b.yaml");
  auto ok = d.write("formats/c.yaml", "id: c\nx: 256\n").string();
  auto failed = write_edits({{changed, "id: a\nx: 256\n", "id: a\nx: 32\n", 1},
                             {(d.path() / "formats/b.yaml").string(), "id: b\nx: 256\n", "id: b\nx: 32\n", 1},
                             {ok, "id: c\nx: 256\n", "id: c\nx: 32\n", 1}});
  REQUIRE(failed.size() == 2);
  CHECK(failed[0].reason == "the file changed since it was linted; run qsel lint --fix again");
  CHECK(failed[1].reason == "it is a symlink; --fix does not write through links (edit the target itself)");
  CHECK(test::read_text(changed) == "id: a\nx: 256\nadded: by someone else\n");
  CHECK(test::read_text(target) == "id: b\nx: 256\n");
  CHECK(test::read_text(ok) == "id: c\nx: 32\n");  // the others are still fixed
}
