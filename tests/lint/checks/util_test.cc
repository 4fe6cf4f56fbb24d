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

TEST_CASE("for_each_at: walks a pattern with wildcards over lists and maps", "[lint][util]") {
  json doc = json::parse(R"({"a": [{"b": 1}, {"c": 2}, {"b": 3}], "m": {"x": {"b": 4}, "y/z": {"b": 5}}})");
  std::vector<std::string> seen;
  auto collect = [&](const std::string& pattern) {
    seen.clear();
    lint_checks::for_each_at(doc, pattern, [&](const std::string& ptr, const json& v) { seen.push_back(ptr + "=" + v.dump()); });
    return seen;
  };
  CHECK(collect("/a/*/b") == std::vector<std::string>{"/a/0/b=1", "/a/2/b=3"});
  CHECK(collect("/m/*/b") == std::vector<std::string>{"/m/x/b=4", "/m/y~1z/b=5"});
  CHECK(collect("/a") == std::vector<std::string>{"/a=" + doc["a"].dump()});
  CHECK(collect("/missing/*/b").empty());
  CHECK(collect("/a/0/b").empty());  // a list item is reached only by "*"
}
