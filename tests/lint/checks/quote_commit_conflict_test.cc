#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string quoted_kernel(const std::string& id, char commit, const std::string& quote) {
  return replaced(minimal_record("kernel", id), "sources:\n  - title: test\n",
                  "sources:\n  - title: entry\n    url: https://github.com/vllm-project/vllm/blob/" + std::string(40, commit) +
                      "/csrc/nvfp4_entry.cu\n    date: 2025-12-02\n    quote: '" + quote + "'\n");
}

const std::string kQuote = "if (sm >= 120 && sm < 130) cutlass_scaled_fp4_mm_sm120a(D, A, B);";

}  // namespace

TEST_CASE("QS035 quote-commit-conflict fires when one quote of one file names two commits", "[lint][QS035]") {
  TempDir d;
  d.write("kernels/a-nvfp4.yaml", quoted_kernel("a-nvfp4", '1', kQuote));
  d.write("kernels/b-sm120.yaml", quoted_kernel("b-sm120", '2', kQuote));
  auto f = lint_code(d.path(), "QS035");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "kernels/b-sm120.yaml:10:10: quote from vllm-project/vllm csrc/nvfp4_entry.cu is attributed to "
                                 "2222222 here and to 1111111 in " + (d.path() / "kernels/a-nvfp4.yaml").string() + ":9");
}

TEST_CASE("QS035 quote-commit-conflict is clean for one commit, other quotes, or short quotes", "[lint][QS035]") {
  TempDir d;
  d.write("kernels/a-nvfp4.yaml", quoted_kernel("a-nvfp4", '1', kQuote));
  d.write("kernels/b-sm120.yaml", quoted_kernel("b-sm120", '1', kQuote));
  d.write("kernels/c-other.yaml", quoted_kernel("c-other", '2', "a different passage from the same file, long enough to count"));
  d.write("kernels/d-short.yaml", quoted_kernel("d-short", '3', "return true;"));
  d.write("kernels/e-short.yaml", quoted_kernel("e-short", '4', "return true;"));
  CHECK(lint_code(d.path(), "QS035").empty());
}
