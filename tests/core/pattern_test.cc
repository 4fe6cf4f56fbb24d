#include <catch2/catch.hpp>

#include "qsel/core/pattern.h"

using namespace qsel;

TEST_CASE("pattern: literal text anywhere in the line, * for anything, {name} captured", "[core][pattern]") {
  CHECK(match_pattern("Using MarlinLinearKernel for *", "(Worker_TP0 pid=1) INFO [x.py:3] Using MarlinLinearKernel for GPTQMarlinLinearMethod"));
  CHECK(!match_pattern("Using MarlinLinearKernel for *", "Using MacheteLinearKernel for GPTQMarlinLinearMethod"));
  auto cc = match_pattern("compute capability {compute_capability}, VMM", "  Device 0: NVIDIA GeForce RTX 4070, compute capability 8.9, VMM: yes");
  REQUIRE(cc);
  CHECK(cc->at("compute_capability") == "8.9");
  auto ft = match_pattern("print_info: file type*= {quantization}", "print_info: file type   = Q4_K - Medium\r");
  REQUIRE(ft);
  CHECK(ft->at("quantization") == "Q4_K - Medium");
  CHECK(match_pattern("ggml_vulkan: Found * Vulkan devices", "ggml_vulkan: Found 1 Vulkan devices:"));
  CHECK(!match_pattern("offloaded 0/* layers to GPU", "load_tensors: offloaded 10/33 layers to GPU"));
  CHECK(match_pattern("offloaded 0/* layers to GPU", "load_tensors: offloaded 0/33 layers to GPU"));
}

TEST_CASE("pattern: well-formedness, and a long hostile line stays cheap", "[core][pattern]") {
  CHECK(pattern_problem("abc {x") == "unclosed '{'");
  CHECK(pattern_problem("a {{x}}") == "nested '{'");
  CHECK(pattern_problem("a }") == "'}' without '{'");
  CHECK(pattern_problem("*{x}*") == "a pattern needs some literal text");
  CHECK(pattern_problem("") == "empty pattern");
  CHECK(pattern_problem("Using * for {x}").empty());
  std::string line(64 * 1024, 'a');
  CHECK(!match_pattern("a*b*c*d*e", line));
}
