#include <catch2/catch.hpp>

#include "qsel/lint/fixer.h"

using namespace qsel;

TEST_CASE("diff: unified hunks with three lines of context, merged when close", "[lint][diff]") {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n";
  std::string after = "1\nTWO\n3\n4\n5\n6\nSEVEN\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\nEIGHTEEN\n";
  CHECK(unified_diff("f.yaml", before, after) ==
        "--- a/f.yaml\n+++ b/f.yaml\n"
        "@@ -1,10 +1,10 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n 6\n-7\n+SEVEN\n 8\n 9\n 10\n"
        "@@ -15,4 +15,4 @@\n 15\n 16\n 17\n-18\n+EIGHTEEN\n");
  CHECK(unified_diff("f.yaml", before, before).empty());
}

TEST_CASE("diff: consecutive changed lines and a missing final newline", "[lint][diff]") {
  CHECK(unified_diff("f", "a\nb\nc", "A\nB\nc") == "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-a\n-b\n+A\n+B\n c\n\\ No newline at end of file\n");
}

TEST_CASE("diff: a removed line (QS046's fix) is one hunk with the shared lines as context", "[lint][diff]") {
  std::string before = "1\n2\n3\n4\n# qsel: noqa\n5\n6\n7\n8\n";
  CHECK(unified_diff("f", before, "1\n2\n3\n4\n5\n6\n7\n8\n") ==
        "--- a/f\n+++ b/f\n@@ -2,7 +2,6 @@\n 2\n 3\n 4\n-# qsel: noqa\n 5\n 6\n 7\n");
  CHECK(unified_diff("f", "# qsel: noqa-file\n", "") == "--- a/f\n+++ b/f\n@@ -1,1 +0,0 @@\n-# qsel: noqa-file\n");
}
