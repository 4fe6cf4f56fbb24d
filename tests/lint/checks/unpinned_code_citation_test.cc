#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

const std::string kCommit = "0123456789abcdef0123456789abcdef01234567";

std::string with_source(const std::string& kind, const std::string& id, const std::string& source) {
  return replaced(minimal_record(kind, id), "sources:\n  - title: test\n", "sources:\n  - title: code\n" + source);
}

}  // namespace

TEST_CASE("QS034 unpinned-code-citation fires on a branch URL, a commit mismatch and an undated engine fact", "[lint][QS034]") {
  TempDir d;
  d.write("kernels/marlin.yaml",
          with_source("kernel", "marlin", "    url: https://github.com/vllm-project/vllm/blob/main/vllm/marlin_utils.py\n"));
  d.write("kernels/machete.yaml", with_source("kernel", "machete",
                                               "    url: https://github.com/vllm-project/vllm/blob/" + kCommit +
                                                   "/csrc/machete.cu\n    commit: " + std::string(40, 'a') + "\n    date: 2025-01-02\n"));
  d.write("kernels/deepgemm.yaml",
          with_source("kernel", "deepgemm", "    url: https://github.com/deepseek-ai/DeepGEMM/blob/" + kCommit + "/deep_gemm/gemm.py\n"));
  d.write("formats/awq.yaml", with_source("format", "awq", "    repo: casper-hansen/AutoAWQ\n    commit: " + kCommit + "\n"));
  auto f = lint_code(d.path(), "QS034");
  REQUIRE(f.size() == 4);
  CHECK(where(f[0], d.path()) == "formats/awq.yaml:10:11: code citation casper-hansen/AutoAWQ (no path) needs both repo and path "
                                 "(owner/name and the file inside it)");
  CHECK(where(f[1], d.path()) == "kernels/deepgemm.yaml:10:10: code citation deepseek-ai/DeepGEMM deep_gemm/gemm.py at 0123456 has no "
                                 "date: engine facts carry the date they were read at (the commit's date, or `dated: read` and the day "
                                 "the file was read)");
  CHECK(where(f[2], d.path()) == "kernels/machete.yaml:11:13: code citation vllm-project/vllm csrc/machete.cu: commit " +
                                     std::string(40, 'a') + " differs from the URL's " + kCommit);
  CHECK(where(f[3], d.path()) == "kernels/marlin.yaml:10:10: GitHub link vllm-project/vllm vllm/marlin_utils.py names the branch "
                                 "\"main\", not the 40-hex commit it was read at");
}

TEST_CASE("QS034 unpinned-code-citation is clean on pinned code, documentation and non-GitHub sources", "[lint][QS034]") {
  TempDir d;
  d.write("kernels/marlin.yaml", with_source("kernel", "marlin",
                                              "    url: https://github.com/vllm-project/vllm/blob/" + kCommit +
                                                  "/vllm/marlin_utils.py\n    date: 2025-01-02\n"));
  d.write("kernels/machete.yaml", with_source("kernel", "machete",
                                               "    url: https://github.com/vllm-project/vllm/blob/" + kCommit +
                                                   "/x.cu\n    date: 2025-01-02\n    dated: read\n"));
  d.write("formats/awq.yaml", with_source("format", "awq", "    url: https://github.com/mit-han-lab/llm-awq/blob/" + kCommit + "/README.md\n"));
  d.write("formats/gptq.yaml", with_source("format", "gptq", "    url: https://arxiv.org/abs/2210.17323\n"));
  d.write("formats/exl2.yaml", with_source("format", "exl2", "    url: https://github.com/turboderp/exllamav2/blob/" + kCommit + "/x.py\n"));
  CHECK(lint_code(d.path(), "QS034").empty());
}

TEST_CASE("QS034 unpinned-code-citation fires on every GitHub branch link: documentation, quotes, notes, raw files", "[lint][QS034]") {
  TempDir d;
  d.write("formats/awq.yaml", with_source("format", "awq", "    url: https://github.com/mit-han-lab/llm-awq/blob/main/README.md\n"));
  d.write("formats/gptq.yaml",
          replaced(with_source("format", "gptq",
                               "    url: https://arxiv.org/abs/2210.17323\n    quote: see [the table](https://github.com/o/r/tree/develop/docs)\n"),
                   "status: draft", "notes: moved to https://raw.githubusercontent.com/o/r/HEAD/docs/t.md.\nstatus: draft"));
  d.write("models/m.yaml", with_source("model", "m", "    url: https://github.com/o/r/blob/9b4e978/README_WEIGHTS.md\n"));
  auto f = lint_code(d.path(), "QS034");
  REQUIRE(f.size() == 4);
  CHECK(where(f[0], d.path()) == "formats/awq.yaml:10:10: GitHub link mit-han-lab/llm-awq README.md names the branch \"main\", not the "
                                 "40-hex commit it was read at");
  CHECK(where(f[1], d.path()) == "formats/gptq.yaml:6:8: GitHub link o/r docs/t.md names the branch \"HEAD\", not the 40-hex commit it "
                                 "was read at");
  CHECK(where(f[2], d.path()) == "formats/gptq.yaml:12:12: GitHub link o/r docs names the branch \"develop\", not the 40-hex commit it was "
                                 "read at");
  CHECK(where(f[3], d.path()) == "models/m.yaml:15:10: GitHub link o/r README_WEIGHTS.md names the short hash \"9b4e978\", not the 40-hex "
                                 "commit it was read at");
  for (const auto& x : f) CHECK_FALSE(x.fix);  // no commit is known for any of them
}

TEST_CASE("QS034 unpinned-code-citation --fix pins a branch url to the commit the record names for the same date", "[lint][QS034]") {
  TempDir d;
  d.write("kernels/k.yaml", with_source("kernel", "k",
                                        "    url: https://github.com/o/r/blob/" + kCommit + "/src/a.cc\n    date: 2025-09-04\n"
                                        "  - title: docs\n    url: https://github.com/o/r/blob/main/README.md\n    date: 2025-09-04\n"
                                        "  - title: pinned by its own commit\n    url: https://github.com/o/r/blob/main/src/b.cc\n"
                                        "    commit: " + std::string(40, 'b') + "\n    date: 2025-01-02\n"
                                        "  - title: another day\n    url: https://github.com/o/r/blob/main/docs/c.md\n    date: 2025-10-01\n"));
  auto f = lint_code(d.path(), "QS034");
  REQUIRE(f.size() == 3);
  REQUIRE(f[0].fix);
  CHECK(f[0].fix->new_text == "https://github.com/o/r/blob/" + kCommit + "/README.md");
  REQUIRE(f[1].fix);
  CHECK(f[1].fix->new_text == "https://github.com/o/r/blob/" + std::string(40, 'b') + "/src/b.cc");
  CHECK_FALSE(f[2].fix);  // no citation of o/r names a commit for 2025-10-01
}
