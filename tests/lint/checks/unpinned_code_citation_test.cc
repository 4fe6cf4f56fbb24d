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
  CHECK(where(f[3], d.path()) == "kernels/marlin.yaml:10:10: code citation vllm-project/vllm vllm/marlin_utils.py names \"main\", "
                                 "not the 40-hex commit it was read at");
}

TEST_CASE("QS034 unpinned-code-citation is clean on pinned code, documentation and non-GitHub sources", "[lint][QS034]") {
  TempDir d;
  d.write("kernels/marlin.yaml", with_source("kernel", "marlin",
                                              "    url: https://github.com/vllm-project/vllm/blob/" + kCommit +
                                                  "/vllm/marlin_utils.py\n    date: 2025-01-02\n"));
  d.write("kernels/machete.yaml", with_source("kernel", "machete",
                                               "    url: https://github.com/vllm-project/vllm/blob/" + kCommit +
                                                   "/x.cu\n    date: 2025-01-02\n    dated: read\n"));
  d.write("formats/awq.yaml", with_source("format", "awq", "    url: https://github.com/mit-han-lab/llm-awq/blob/main/README.md\n"));
  d.write("formats/gptq.yaml", with_source("format", "gptq", "    url: https://arxiv.org/abs/2210.17323\n"));
  d.write("formats/exl2.yaml", with_source("format", "exl2", "    url: https://github.com/turboderp/exllamav2/blob/" + kCommit + "/x.py\n"));
  CHECK(lint_code(d.path(), "QS034").empty());
}
