#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void write_dequant_parts(const TempDir& d) {
  d.write("targets/sm90.yaml", minimal_record("target", "sm90"));
  d.write("accelerators/h100-sxm.yaml", minimal_record("accelerator", "h100-sxm"));
  d.write("accelerators/h100-pcie.yaml", minimal_record("accelerator", "h100-pcie"));
}

}  // namespace

TEST_CASE("QS015 native-software-dequant fires on GGUF and software-dequant formats with a native list",
          "[lint][QS015]") {
  TempDir d;
  write_dequant_parts(d);
  d.write("formats/gguf-q4-0.yaml", replaced(minimal_record("format", "gguf-q4-0", "native_support:\n- h100-sxm\n"),
                                             "scheme: awq", "scheme: gguf"));
  d.write("formats/awq.yaml",
          minimal_record("format", "awq", "hardware_path: software-dequant\nnative_support: [h100-sxm, h100-pcie]\n"));
  auto f = lint_code(d.path(), "QS015");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "formats/awq.yaml:7:18: native_support lists 2 accelerators, but a software-dequant "
                                 "format has no silicon path; list them in emulated_support");
  CHECK(where(f[1], d.path()) == "formats/gguf-q4-0.yaml:7:3: native_support lists 1 accelerator, but GGUF weights "
                                 "are dequantized in software on every part; list them in emulated_support");
}

TEST_CASE("QS015 native-software-dequant is clean on toolkit kernels, KV-cache formats and empty lists",
          "[lint][QS015]") {
  TempDir d;
  write_dequant_parts(d);
  d.write("formats/ort-int4.yaml", minimal_record("format", "ort-int4", "hardware_path: toolkit-kernel\nnative_support: [h100-sxm]\n"));
  d.write("formats/fp8-kv.yaml", replaced(minimal_record("format", "fp8-kv", "hardware_path: software-dequant\nnative_support: [h100-sxm]\n"),
                                          "regime: w4a16", "regime: kv-cache"));
  d.write("formats/awq.yaml", minimal_record("format", "awq", "hardware_path: software-dequant\nnative_support: []\nemulated_support: [h100-sxm]\n"));
  d.write("formats/fp8.yaml", minimal_record("format", "fp8", "hardware_path: native-compute\nnative_support: [h100-sxm]\n"));
  CHECK(lint_code(d.path(), "QS015").empty());
}
