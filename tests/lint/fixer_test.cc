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

TEST_CASE("fixer: edits only the marked scalars; every other byte survives", "[lint][fixer]") {
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
