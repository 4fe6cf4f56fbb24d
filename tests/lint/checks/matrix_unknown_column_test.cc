#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string column_matrix(const std::string& cells) {
  return "id: m\nkind: matrix\nname: M\nengine: e\n"
         "columns:\n  - {key: fp8-rowwise, label: FP8 rowwise}\n  - {key: awq, label: AWQ}\n"
         "rows:\n  - key: hopper\n    label: Hopper\n    match: {}\n    cells: " + cells + "\n"
         "status: draft\nconfidence: 0.5\nsources: [{title: t}]\n";
}

}  // namespace

TEST_CASE("QS019 matrix-unknown-column fires on a cell keyed by no column", "[lint][QS019]") {
  TempDir d;
  d.write("matrices/m.yaml", column_matrix("{fp8-rowwize: \"Y\", awq: \".\"}"));
  auto f = lint_code(d.path(), "QS019");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "matrices/m.yaml:12:13: cell \"fp8-rowwize\" of row hopper names no column; did you "
                                 "mean \"fp8-rowwise\"?");
}

TEST_CASE("QS019 matrix-unknown-column is clean when every cell has its column", "[lint][QS019]") {
  TempDir d;
  d.write("matrices/m.yaml", column_matrix("{fp8-rowwise: \"Y\", awq: \".\"}"));
  CHECK(lint_code(d.path(), "QS019").empty());
}
