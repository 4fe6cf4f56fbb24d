// A block of a docs page that a test generates: between "<!-- NAME:start -->" and "<!-- NAME:end -->", checked
// against what the test computes, or rewritten with QSEL_UPDATE_DOCS set.
#pragma once
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include "support/fixtures.h"

namespace qsel::test {

// Checks (or, with QSEL_UPDATE_DOCS, rewrites) the part of the page between the two markers.
inline void check_docs_block(const std::string& page_path, const std::string& name, const std::string& want, const std::string& tag) {
  std::string path = source_dir() + "/" + page_path;
  std::string page = read_text(path);
  const std::string start = "<!-- " + name + ":start -->\n", end = "<!-- " + name + ":end -->";
  auto a = page.find(start), b = page.find(end);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  if (std::getenv("QSEL_UPDATE_DOCS")) {
    page = page.substr(0, a + start.size()) + want + page.substr(b);
    std::ofstream(path, std::ios::binary) << page;
    b = page.find(end);
  }
  INFO(path << " is out of date: run QSEL_UPDATE_DOCS=1 ./build/tests/qsel_tests \"" << tag << "\"");
  CHECK(page.substr(a + start.size(), b - a - start.size()) == want);
}

}  // namespace qsel::test
