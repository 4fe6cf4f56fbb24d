#include <catch2/catch.hpp>

#include "qsel/core/problem.h"

using namespace qsel;

TEST_CASE("problem: located() is file:line:col: message, or file: message when unplaced", "[core]") {
  CHECK(located({"QS001", "data/formats/x.yaml", {3, 7}, "x", "/bpw: expected number"}) ==
        "data/formats/x.yaml:3:7: /bpw: expected number");
  CHECK(located({"QS010", "big.yaml", {}, "", "file is too large"}) == "big.yaml: file is too large");
}
