#include <catch2/catch.hpp>

#include <string>

#include "qsel/loader/marks.h"

using qsel::Mark;
using qsel::Marks;

TEST_CASE("marks: values and keys are found in any insertion order", "[marks]") {
  Marks m;
  m.set_value("", {1, 1});
  m.set_value("/name", {2, 7});
  m.set_key("/name", {2, 1});
  m.set_value("/b", {3, 4});
  m.set_value("/a", {4, 4});  // out of order
  CHECK(m.value("/a") == std::optional<Mark>(Mark{4, 4}));
  CHECK(m.value("/name") == std::optional<Mark>(Mark{2, 7}));
  CHECK(m.key("/name") == std::optional<Mark>(Mark{2, 1}));
  CHECK_FALSE(m.key("/a").has_value());
  CHECK_FALSE(m.value("/c").has_value());
  CHECK(m.size() == 4);
  m.finish();
  CHECK(m.value("/a") == std::optional<Mark>(Mark{4, 4}));
  CHECK(m.key_or_value("/name") == Mark{2, 1});
  CHECK(m.key_or_value("/b") == Mark{3, 4});
}

TEST_CASE("marks: a missing pointer falls back to its nearest marked ancestor", "[marks]") {
  Marks m;
  m.set_value("", {1, 1});
  m.set_value("/list", {5, 3});
  CHECK(m.at("/list/7/x") == Mark{5, 3});
  CHECK(m.at("/other") == Mark{1, 1});
  CHECK(Marks{}.at("/x") == Mark{});
}

TEST_CASE("marks: thousands of reverse-order entries stay correct while being built", "[marks]") {
  Marks m;
  for (int i = 3000; i > 0; --i) {
    m.set_value("/k" + std::to_string(i), {i, 1});
    // a lookup between insertions, as the reader does for duplicate keys
    REQUIRE(m.value("/k" + std::to_string(i)) == std::optional<Mark>(Mark{i, 1}));
  }
  for (int i = 1; i <= 3000; ++i) REQUIRE(m.value("/k" + std::to_string(i)) == std::optional<Mark>(Mark{i, 1}));
  m.set_key("/k17", {17, 9});  // an existing entry, not a second one
  CHECK(m.size() == 3000);
  CHECK(m.key("/k17") == std::optional<Mark>(Mark{17, 9}));
}

TEST_CASE("marks: removing a list item drops its marks and moves later items down", "[marks]") {
  Marks m;
  for (int i = 0; i < 12; ++i) {
    m.set_value("/l/" + std::to_string(i), {10 + i, 3});
    m.set_value("/l/" + std::to_string(i) + "/v", {10 + i, 8});
    m.set_key("/l/" + std::to_string(i) + "/v", {10 + i, 5});
  }
  m.set_value("/l", {9, 1});
  m.set_value("/l0", {30, 1});  // a sibling whose name starts like the list's
  m.remove_item("/l", 2);
  CHECK(m.value("/l/1") == std::optional<Mark>(Mark{11, 3}));
  CHECK(m.value("/l/2") == std::optional<Mark>(Mark{13, 3}));
  CHECK(m.key("/l/10/v") == std::optional<Mark>(Mark{21, 5}));
  CHECK_FALSE(m.value("/l/11").has_value());
  CHECK(m.value("/l") == std::optional<Mark>(Mark{9, 1}));
  CHECK(m.value("/l0") == std::optional<Mark>(Mark{30, 1}));
  m.erase("/l0");
  CHECK_FALSE(m.value("/l0").has_value());
  CHECK(m.at("/l0") == Mark{});
}

TEST_CASE("marks: equality ignores insertion order", "[marks]") {
  Marks a, b;
  a.set_value("/x", {1, 1});
  a.set_value("/y", {2, 1});
  b.set_value("/y", {2, 1});
  b.set_value("/x", {1, 1});
  CHECK(a == b);
  b.set_key("/x", {1, 1});
  CHECK_FALSE(a == b);
}

TEST_CASE("marks: appended entries are found like set ones, in any order and any number", "[marks]") {
  Marks m;
  for (int i = 5000; i > 0; --i) m.append("/a/" + std::to_string(i), {i, 2}, i % 2 ? Mark{i, 1} : Mark{});
  m.append("", {1, 1}, {});
  for (int i = 1; i <= 5000; i += 499) {
    REQUIRE(m.value("/a/" + std::to_string(i)) == std::optional<Mark>(Mark{i, 2}));
    REQUIRE(m.key("/a/" + std::to_string(i)).has_value() == (i % 2 == 1));
  }
  m.finish();
  CHECK(m.size() == 5001);
  CHECK(m.at("/a/77/deeper") == Mark{77, 2});
  Marks same;
  for (int i = 1; i <= 5000; ++i) {
    same.set_value("/a/" + std::to_string(i), {i, 2});
    if (i % 2) same.set_key("/a/" + std::to_string(i), {i, 1});
  }
  same.set_value("", {1, 1});
  CHECK(m == same);
}

TEST_CASE("marks: retain keeps the accepted entries, sorted, in a table sized to fit", "[marks]") {
  Marks m;
  m.set_value("/b", {3, 4});
  m.set_value("", {1, 1});
  m.set_value("/a", {2, 4});
  m.set_key("/a", {2, 1});
  m.set_value("/a/0", {2, 7});
  m.retain([](std::string_view p) { return p.substr(0, 2) != "/b"; });
  CHECK(m.size() == 3);
  CHECK(m.key("/a") == std::optional<Mark>(Mark{2, 1}));
  CHECK(m.value("/a/0") == std::optional<Mark>(Mark{2, 7}));
  CHECK_FALSE(m.value("/b").has_value());
  CHECK(m.at("/b") == Mark{1, 1});  // now the root's
  std::string order;
  m.for_each([&](std::string_view p, Mark, Mark) { order += std::string(p) + ";"; });
  CHECK(order == ";/a;/a/0;");
}
