#include "lint/checks/util.h"

#include <catch2/catch.hpp>

using namespace qsel;
using nlohmann::json;

TEST_CASE("check util: str_at reads the string at a pointer, or gives empty", "[lint][util]") {
  Record r;
  r.data = json::parse(R"({"baseline": {"benchmark": "b1"}, "list": ["x", "y", 3], "a/b": {"c~d": "esc"}, "n": 5})");
  CHECK(lint_checks::str_at(r, "/baseline/benchmark") == "b1");
  CHECK(lint_checks::str_at(r, "/list/1") == "y");
  CHECK(lint_checks::str_at(r, "/list/2").empty());   // not a string
  CHECK(lint_checks::str_at(r, "/list/3").empty());   // past the end
  CHECK(lint_checks::str_at(r, "/list/01").empty());  // a leading zero is no index
  CHECK(lint_checks::str_at(r, "/list/-").empty());
  CHECK(lint_checks::str_at(r, "/baseline/missing").empty());
  CHECK(lint_checks::str_at(r, "/n/deeper").empty());
  CHECK(lint_checks::str_at(r, "").empty());
  CHECK(lint_checks::str_at(r, "/a~1b/c~0d") == "esc");
}

TEST_CASE("check util: field_label reads a pointer as dotted fields", "[lint][util]") {
  CHECK(lint_checks::field_label("/kernel_selection/2/kernel") == "kernel_selection[2].kernel");
  CHECK(lint_checks::field_label("") == "");
}
