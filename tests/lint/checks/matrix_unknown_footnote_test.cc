#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string footnote_matrix(const std::string& cell, const std::string& footnotes) {
  return "id: m\nkind: matrix\nname: M\nengine: e\ncolumns:\n  - {key: mxfp4, label: MXFP4}\n"
         "rows:\n  - {key: turing, label: Turing, match: {}, cells: {mxfp4: \"" + cell + "\"}}\n" + footnotes +
         "status: draft\nconfidence: 0.5\nsources: [{title: t}]\n";
}

}  // namespace

TEST_CASE("QS020 matrix-unknown-footnote fires on a mark with no footnote", "[lint][QS020]") {
  TempDir d;
  d.write("matrices/m.yaml", footnote_matrix("Y*", "footnotes: {\"†\": other}\n"));
  auto f = lint_code(d.path(), "QS020");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "matrices/m.yaml:8:60: cell mxfp4 of row turing cites footnote \"*\", which footnotes "
                                 "does not define");
}

TEST_CASE("QS020 matrix-unknown-footnote is clean on defined marks and plain cells", "[lint][QS020]") {
  TempDir d;
  d.write("matrices/m.yaml", footnote_matrix("Y*", "footnotes: {\"*\": Turing does not support Marlin MXFP4.}\n"));
  d.write("matrices/n.yaml", replaced(footnote_matrix(".", ""), "id: m", "id: n"));
  CHECK(lint_code(d.path(), "QS020").empty());
}
