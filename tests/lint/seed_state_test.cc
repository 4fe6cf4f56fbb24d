// The seed-state fixture: the corpus in the broken state the seed documents describe.
#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;
namespace fs = std::filesystem;

namespace {

const char* kSeed = "tests/fixtures/seed-state";

const std::vector<std::pair<std::string, std::string>> kFixed = {
    {"gguf-iq4-xs", "32"}, {"gguf-q2-k", "16"}, {"gguf-q3-k-m", "16"}, {"gguf-q4-k-m", "32"},
    {"gguf-q4-k-s", "32"}, {"gguf-q5-k-m", "32"}, {"gguf-q6-k", "16"}};

}  // namespace

TEST_CASE("seed state: the dangling format_ids, the seven wrong group sizes and the contested values", "[lint][seed]") {
  qsel::test::ScopedEnv wide("COLUMNS", "1000");  // what is said, not where lines break
  // The seed's three benchmark rows cite only the design notes (QS043) and its llama-2-7b carries the
  // nominal 7 B (QS041, 6.74 B counted): later rules report those. This fixture documents the seed's
  // own mistakes, so those rules are left out here.
  auto r = run_cli({"lint", "--no-color", "--ignore", "QS041,QS043", kSeed});
  CHECK(r.code == 1);
  CHECK(r.err.empty());
  std::string p = std::string(kSeed) + "/";
  CHECK(r.out ==
        p + "benchmarks/bench-mlx-4bit-m3-max-llama.yaml:4:12: error: format_id \"mlx-quantized-4bit\" names no record; did you mean \"mlx-affine-4bit\"? [QS003 dangling-reference]\n" +
        "   |\n" +
        " 4 | format_id: mlx-quantized-4bit\n" +
        "   |            ^\n" +
        "   = see: qsel explain QS003\n" +
        "\n" +
        p + "benchmarks/bench-mlx-4bit-m3-ultra-llama.yaml:4:12: error: format_id \"mlx-quantized-4bit\" names no record; did you mean \"mlx-affine-4bit\"? [QS003 dangling-reference]\n" +
        "   |\n" +
        " 4 | format_id: mlx-quantized-4bit\n" +
        "   |            ^\n" +
        "   = see: qsel explain QS003\n" +
        "\n" +
        p + "benchmarks/bench-mlx-4bit-m4-max-llama.yaml:4:12: error: format_id \"mlx-quantized-4bit\" names no record; did you mean \"mlx-affine-4bit\"? [QS003 dangling-reference]\n" +
        "   |\n" +
        " 4 | format_id: mlx-quantized-4bit\n" +
        "   |            ^\n" +
        "   = see: qsel explain QS003\n" +
        "\n" +
        p + "formats/gguf-iq4-xs.yaml:9:20: error: weight_group_size 256 is the IQ4_XS super-block; its scale group is 32 [QS004 kquant-group-size]\n" +
        "   |\n" +
        " 9 | weight_group_size: 256\n" +
        "   |                    ^\n" +
        "   = see: qsel explain QS004\n" +
        "\n" +
        p + "formats/gguf-q2-k.yaml:9:20: error: weight_group_size 256 is the Q2_K super-block; its scale group is 16 [QS004 kquant-group-size]\n" +
        "   |\n" +
        " 9 | weight_group_size: 256\n" +
        "   |                    ^\n" +
        "   = see: qsel explain QS004\n" +
        "\n" +
        p + "formats/gguf-q3-k-m.yaml:9:20: error: weight_group_size 256 is the Q3_K super-block; its scale group is 16 [QS004 kquant-group-size]\n" +
        "   |\n" +
        " 9 | weight_group_size: 256\n" +
        "   |                    ^\n" +
        "   = see: qsel explain QS004\n" +
        "\n" +
        p + "formats/gguf-q3-k-m.yaml:20:12: warning: bpw is contested: 3.4375 (Q3_K block struct) vs 3.91 measured on llama-2-7b; both are kept on purpose [QS005 contested-bpw]\n" +
        "    |\n" +
        " 20 |   - value: 3.91\n" +
        "    |            ^\n" +
        "    = see: qsel explain QS005\n" +
        "\n" +
        p + "formats/gguf-q4-k-m.yaml:9:20: error: weight_group_size 256 is the Q4_K super-block; its scale group is 32 [QS004 kquant-group-size]\n" +
        "   |\n" +
        " 9 | weight_group_size: 256\n" +
        "   |                    ^\n" +
        "   = see: qsel explain QS004\n" +
        "\n" +
        p + "formats/gguf-q4-k-m.yaml:20:12: warning: bpw is contested: 4.5 (Q4_K block struct) vs 4.89 measured on llama-3.1-8b; both are kept on purpose [QS005 contested-bpw]\n" +
        "    |\n" +
        " 20 |   - value: 4.8944\n" +
        "    |            ^\n" +
        "    = see: qsel explain QS005\n" +
        "\n" +
        p + "formats/gguf-q4-k-s.yaml:9:20: error: weight_group_size 256 is the Q4_K super-block; its scale group is 32 [QS004 kquant-group-size]\n" +
        "   |\n" +
        " 9 | weight_group_size: 256\n" +
        "   |                    ^\n" +
        "   = see: qsel explain QS004\n" +
        "\n" +
        p + "formats/gguf-q4-k-s.yaml:20:12: warning: bpw is contested: 4.5 (Q4_K block struct) vs 4.67 measured on llama-3.1-8b; both are kept on purpose [QS005 contested-bpw]\n" +
        "    |\n" +
        " 20 |   - value: 4.6672\n" +
        "    |            ^\n" +
        "    = see: qsel explain QS005\n" +
        "\n" +
        p + "formats/gguf-q5-k-m.yaml:9:20: error: weight_group_size 256 is the Q5_K super-block; its scale group is 32 [QS004 kquant-group-size]\n" +
        "   |\n" +
        " 9 | weight_group_size: 256\n" +
        "   |                    ^\n" +
        "   = see: qsel explain QS004\n" +
        "\n" +
        p + "formats/gguf-q5-k-m.yaml:20:12: warning: bpw is contested: 5.5 (Q5_K block struct) vs 5.7 measured on llama-3.1-8b; both are kept on purpose [QS005 contested-bpw]\n" +
        "    |\n" +
        " 20 |   - value: 5.7036\n" +
        "    |            ^\n" +
        "    = see: qsel explain QS005\n" +
        "\n" +
        p + "formats/gguf-q6-k.yaml:9:20: error: weight_group_size 256 is the Q6_K super-block; its scale group is 16 [QS004 kquant-group-size]\n" +
        "   |\n" +
        " 9 | weight_group_size: 256\n" +
        "   |                    ^\n" +
        "   = see: qsel explain QS004\n" +
        "\n" +
        p + "formats/gguf-q6-k.yaml:20:12: warning: bpw is contested: 6.5625 (Q6_K block struct) vs 6.563 measured on llama-3.1-8b; both are kept on purpose [QS005 contested-bpw]\n" +
        "    |\n" +
        " 20 |   - value: 6.5633\n" +
        "    |            ^\n" +
        "    = see: qsel explain QS005\n" +
        "\n" +
        "10 errors, 5 warnings in 17 records (17 files)\n");
}

TEST_CASE("seed state: the four legitimate 256s are not flagged", "[lint][seed]") {
  for (const char* id : {"gguf-iq1-s", "gguf-iq2-xxs", "gguf-iq3-xxs", "gguf-tq1-0"}) {
    INFO(id);
    CHECK(read_text(std::string(kSeed) + "/formats/" + id + ".yaml").find("weight_group_size: 256\n") != std::string::npos);
    CHECK(lint_all(std::string(kSeed) + "/formats/" + id + ".yaml").findings.empty());
  }
}

TEST_CASE("seed state: --diff shows the edit, --fix on a copy changes only the seven numbers", "[lint][seed]") {
  auto diff = run_cli({"lint", "--diff", std::string(kSeed) + "/formats/gguf-q4-k-m.yaml"});
  CHECK(diff.code == 1);
  CHECK(diff.out == std::string("--- a/") + kSeed + "/formats/gguf-q4-k-m.yaml\n+++ b/" + kSeed +
                        "/formats/gguf-q4-k-m.yaml\n@@ -6,7 +6,7 @@\n regime: w4a16\n weight_bits: 4\n activation_bits: 16\n"
                        "-weight_group_size: 256\n+weight_group_size: 32\n element_format: 4-bit integer, affine (x = a*q + b); "
                        "all 256 weights of a block uniform 4-bit\n scale_format: 6-bit scale + 6-bit min per 32-element "
                        "sub-block (12 B packed, K_SCALE_SIZE) under fp16 d/dmin per 256 super-block\n weight_only: true\n");
  CHECK(diff.err == "qsel: --fix would apply 1 fix(es) in 1 file(s)\n");

  TempDir d;
  fs::copy(source_dir() + "/" + kSeed, d.path(), fs::copy_options::recursive);
  auto fixed = run_cli({"lint", "--fix", "--no-color", "--ignore", "QS041,QS043", d.path().string()});
  CHECK(fixed.err == "qsel: fixed 7 finding(s) in 7 file(s)\n");
  CHECK(fixed.code == 1);  // the dangling format_ids remain: repointing a benchmark is a judgement, not a mechanical fix
  CHECK(fixed.out.find("[QS004") == std::string::npos);
  CHECK(fixed.out.find("3 errors, 5 warnings in 17 records (17 files)\n") != std::string::npos);
  for (const auto& entry : fs::recursive_directory_iterator(source_dir() + "/" + kSeed)) {
    if (!entry.is_regular_file()) continue;
    std::string rel = fs::relative(entry.path(), source_dir() + "/" + kSeed).generic_string();
    std::string before = read_text(entry.path()), after = read_text(d.path() / rel);
    INFO(rel);
    std::string expected = before;
    for (const auto& [id, group] : kFixed)
      if (rel == "formats/" + id + ".yaml") expected = replaced(before, "\nweight_group_size: 256\n", "\nweight_group_size: " + group + "\n");
    CHECK(after == expected);
  }
}
