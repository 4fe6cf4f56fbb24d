#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string kquant_gguf(const std::string& id, const std::string& type, const std::string& group) {
  return replaced(minimal_record("format", id, "ggml_type: " + type + "\nweight_group_size: " + group + "\n"),
                  "scheme: awq", "scheme: gguf");
}

}  // namespace

TEST_CASE("QS004 kquant-group-size fires on the 256 super-block read as the scale group", "[lint][QS004]") {
  TempDir d;
  d.write("formats/gguf-q4-k-m.yaml", kquant_gguf("gguf-q4-k-m", "Q4_K", "256"));
  d.write("formats/gguf-q6-k.yaml", kquant_gguf("gguf-q6-k", "Q6_K", "256"));
  d.write("formats/gguf-q4-0.yaml", kquant_gguf("gguf-q4-0", "Q4_0", "64"));
  auto f = lint_code(d.path(), "QS004");
  REQUIRE(f.size() == 3);
  CHECK(where(f[0], d.path()) == "formats/gguf-q4-0.yaml:7:20: weight_group_size 64 does not match the Q4_0 block struct; its scale group is 32");
  CHECK(where(f[1], d.path()) == "formats/gguf-q4-k-m.yaml:7:20: weight_group_size 256 is the Q4_K super-block; its scale group is 32");
  CHECK(where(f[2], d.path()) == "formats/gguf-q6-k.yaml:7:20: weight_group_size 256 is the Q6_K super-block; its scale group is 16");
  REQUIRE(f[1].fix);
  CHECK(f[1].fix->at == Mark{7, 20});
  CHECK(f[1].fix->old_text == "256");
  CHECK(f[1].fix->new_text == "32");
}

TEST_CASE("QS004 kquant-group-size is clean on scale groups, including the legitimate 256s", "[lint][QS004]") {
  TempDir d;
  d.write("formats/gguf-q4-k-m.yaml", kquant_gguf("gguf-q4-k-m", "Q4_K", "32"));
  const std::vector<std::pair<std::string, std::string>> legit = {
      {"iq1-s", "IQ1_S"}, {"iq2-xxs", "IQ2_XXS"}, {"iq3-xxs", "IQ3_XXS"}, {"tq1-0", "TQ1_0"}, {"tq2-0", "TQ2_0"}};
  for (const auto& [id, type] : legit) d.write("formats/" + id + ".yaml", kquant_gguf(id, type, "256"));
  CHECK(lint_code(d.path(), "QS004").empty());
}
