#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "qsel/core/ggml_types.h"
#include "support/fixtures.h"

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

// docs/ggml-types.md is the table, for readers without the source (the lint docs of
// QS004 and QS028 point to it; a package install ships docs/, not src/).
TEST_CASE("ggml_types: docs/ggml-types.md is the table, byte for byte", "[lint][docs]") {
  std::string doc =
      "# The ggml block types qsel knows\n\n"
      "Generated from qsel's table (`src/core/ggml_types.cc`) by `QSEL_UPDATE_DOCS=1 ./build/tests/qsel_tests "
      "\"ggml_types: docs*\"`; each entry follows its `block_*` struct in llama.cpp's `ggml/src/ggml-common.h`.\n"
      "The scale group is how many weights share one scale: for the K-quants the block is a 256-weight super-block\n"
      "whose scales cover 16 or 32 weights (QS004 checks a record's `weight_group_size` against it). QS028 checks\n"
      "that a record's `ggml_type` is one of these names.\n\n"
      "| type | GGUF id | weights per block | bytes per block | bits per weight | scale group |\n"
      "| --- | --- | --- | --- | --- | --- |\n";
  for (const auto& t : ggml_types())
    doc += fmt::format("| {} | {} | {} | {} | {:g} | {} |\n", t.name, t.id >= 0 ? std::to_string(t.id) : "-", t.block_elements,
                       t.block_bytes, t.bpw(), t.scale_group > 0 ? std::to_string(t.scale_group) : "-");
  const std::string path = test::source_dir() + "/docs/ggml-types.md";
  if (std::getenv("QSEL_UPDATE_DOCS")) {
    std::ofstream(path, std::ios::binary) << doc;
    return;
  }
  INFO(path << " is out of date: run QSEL_UPDATE_DOCS=1 ./build/tests/qsel_tests \"ggml_types: docs*\"");
  CHECK(test::read_text(path) == doc);
}
