#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string bench(const std::string& id, const std::string& grade, const std::string& sources) {
  std::string r = replaced(minimal_record("benchmark", id, "value: 124.81\n"), "grade: paper", "grade: " + grade);
  return replaced(r, "sources:\n  - title: test\n", "sources:\n" + sources);
}

}  // namespace

TEST_CASE("QS043 unattributed-measurement fires on a row no public source at a fixed address backs", "[lint][QS043]") {
  TempDir d;
  // A discussion without a date or permalink, and an anonymous transcription with the figure.
  d.write("benchmarks/a30.yaml", bench("a30", "controlled",
                                       "  - title: llama.cpp discussion 15013\n    url: https://github.com/ggml-org/llama.cpp/discussions/15013\n"
                                       "  - title: third-party transcription; repository not identified\n    quote: 'generation: 124.81'\n"));
  // Only the design notes: no reader can open them.
  d.write("benchmarks/census.yaml", bench("census", "vendor-claim", "  - title: doc 04 — weight-only-4bit vs W4A4\n    section: §2.1\n"
                                                                     "    quote: HLE 15% vs 14%\n"));
  auto f = lint_code(d.path(), "QS043");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "benchmarks/a30.yaml:6:8: value 124.81 rests on no public source at a fixed address (a commit, a comment "
                                 "permalink, a paper, or a page with its date) quoting what it was read from: cite the one you read it in, or "
                                 "grade the row unverified");
  CHECK(f[1].file.ends_with("census.yaml"));
}

TEST_CASE("QS043 unattributed-measurement is clean on pinned, permalinked, dated, paper and unverified rows", "[lint][QS043]") {
  TempDir d;
  d.write("benchmarks/pinned.yaml", bench("pinned", "controlled",
                                          "  - title: log\n    url: https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/x.log\n"
                                          "    quote: 'tg128 124.81'\n"));
  d.write("benchmarks/comment.yaml", bench("comment", "controlled",
                                           "  - title: comment\n    url: https://github.com/o/r/discussions/1#discussioncomment-123\n"
                                           "    quote: 'tg128 124.81'\n"));
  d.write("benchmarks/dated.yaml", bench("dated", "anecdotal",
                                         "  - title: PR thread, comment of 2024-01-14\n    url: https://github.com/o/r/pull/4930\n"
                                         "    date: 2024-01-14\n    quote: 'tg128 124.81'\n"));
  d.write("benchmarks/paper.yaml", bench("paper", "paper", "  - title: paper\n    url: https://arxiv.org/abs/2310.00001\n    quote: 'x'\n"));
  d.write("benchmarks/unverified.yaml", bench("unverified", "unverified", "  - title: third-party transcription\n    quote: '124.81'\n"));
  CHECK(lint_code(d.path(), "QS043").empty());
}
