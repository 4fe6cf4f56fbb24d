#include <catch2/catch.hpp>

#include "qsel/core/ggml_types.h"

using namespace qsel;

TEST_CASE("ggml_types: block structs give the documented bits per weight", "[lint]") {
  const std::vector<std::pair<std::string, double>> bpw = {
      {"Q4_0", 4.5},      {"Q8_0", 8.5},      {"Q2_K", 2.625},    {"Q3_K", 3.4375}, {"Q4_K", 4.5},
      {"Q5_K", 5.5},      {"Q6_K", 6.5625},   {"IQ1_S", 1.5625},  {"IQ2_XXS", 2.0625}, {"IQ3_XXS", 3.0625},
      {"IQ4_XS", 4.25},   {"TQ1_0", 1.6875},  {"TQ2_0", 2.0625},  {"MXFP4", 4.25}};
  for (const auto& [name, v] : bpw) {
    INFO(name);
    REQUIRE(find_ggml_type(name));
    CHECK(find_ggml_type(name)->bpw() == v);
  }
}

TEST_CASE("ggml_types: the K-quant super-block is not the scale group, except one-scale types", "[lint]") {
  CHECK(find_ggml_type("Q4_K")->block_elements == 256);
  CHECK(find_ggml_type("Q4_K")->scale_group == 32);
  CHECK(find_ggml_type("Q6_K")->scale_group == 16);
  CHECK(find_ggml_type("Q2_K")->scale_group == 16);
  CHECK(find_ggml_type("IQ4_XS")->scale_group == 32);
  for (const char* t : {"IQ1_S", "IQ2_XXS", "IQ3_XXS", "TQ1_0", "TQ2_0"}) CHECK(find_ggml_type(t)->scale_group == 256);
  CHECK(find_ggml_type("q4_k") == find_ggml_type("Q4_K"));
  CHECK(find_ggml_type("Q4_K_M") == nullptr);
}
