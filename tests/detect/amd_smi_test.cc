#include <catch2/catch.hpp>

#include "qsel/detect/gpu_probe.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {
std::string amd_fixture(const std::string& rel) { return test::read_text(test::source_dir() + "/tests/fixtures/detect/" + rel); }
}  // namespace

TEST_CASE("amd_smi: rocm-smi CSV and JSON give name, bytes of VRAM and gfx (captured output)", "[detect]") {
  for (const char* f : {"rocm-smi/marimo-9237-rx7900xt-showproductname-showuse-meminfo-vram.csv.txt",
                        "rocm-smi/marimo-9237-rx7900xt-showproductname-showuse-meminfo-vram.json.txt"}) {
    INFO(f);
    auto gpus = parse_rocm_smi(amd_fixture(f));
    REQUIRE(gpus.size() == 1);
    CHECK(gpus[0].tool == "rocm-smi");
    CHECK(gpus[0].index == "card0");
    CHECK(gpus[0].name == "Radeon RX 7900 XT");
    CHECK(gpus[0].memory_mib == Approx(21458059264.0 / 1048576));
    CHECK(gpus[0].target == "gfx1100");
  }
}

TEST_CASE("amd_smi: a codename series gives the marketing name in brackets, an integrated GPU is listed too", "[detect]") {
  auto mi100 = parse_rocm_smi(amd_fixture("rocm-smi/easybuild-3978-mi100-showproductname.csv.txt"));
  REQUIRE(mi100.size() == 2);
  CHECK(mi100[0].name == "AMD Instinct MI100");
  CHECK(mi100[0].memory_mib == 0);
  auto two = parse_rocm_smi(amd_fixture("rocm-smi/localai-7761-rx6800-raphael-showproductname-meminfo-vram-uniqueid.csv.txt"));
  REQUIRE(two.size() == 2);
  CHECK(two[0].name == "Radeon RX 6800/6800 XT / 6900 XT");
  CHECK(two[0].target == "gfx1030");
  CHECK(two[1].name == "Raphael");
  CHECK(two[1].memory_mib == 64);
}

TEST_CASE("amd_smi: rocm-smi's plain log, PCI ids are not names", "[detect]") {
  auto old = parse_rocm_smi(amd_fixture("rocm-smi/rocm-1351-mi100-rocm4.0-showproductname.txt"));
  REQUIRE(old.size() == 1);
  CHECK(old[0].index == "0");
  CHECK(old[0].name.empty());  // "0x738c" and "0xc34" are ids
  auto mem = parse_rocm_smi(amd_fixture("rocm-smi/rocm-4750-mi300x-cpx-showmeminfo-vram.partial.txt"));
  REQUIRE(mem.size() == 7);
  CHECK(mem[6].memory_mib == Approx(206141652992.0 / 1048576));
}

TEST_CASE("amd_smi: amd-smi static gives MARKET_NAME and TARGET_GRAPHICS_VERSION (captured output)", "[detect]") {
  auto gpus = parse_amd_smi_static(amd_fixture("amd-smi/rocm-systems-2987-mi350x-static.partial.txt"));
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].tool == "amd-smi");
  CHECK(gpus[0].name == "AMD Instinct MI350X");
  CHECK(gpus[0].target == "gfx950");
  CHECK(gpus[0].memory_mib == 0);  // the capture stops before the VRAM section
  auto vram = parse_amd_smi_static("GPU: 0\n    ASIC:\n        MARKET_NAME: AMD Instinct MI300X\n        TARGET_GRAPHICS_VERSION: gfx942\n"
                                   "    VRAM:\n        TYPE: HBM\n        SIZE: 196592 MB\nGPU: 1\n    ASIC:\n        MARKET_NAME: AMD Instinct MI300X\n");
  REQUIRE(vram.size() == 2);
  CHECK(vram[0].memory_mib == 196592);
  CHECK(vram[1].index == "1");
}

TEST_CASE("amd_smi: junk is no GPU", "[detect]") {
  CHECK(parse_rocm_smi("").empty());
  CHECK(parse_rocm_smi("{not json").empty());
  CHECK(parse_rocm_smi("{\"card0\": 5, \"system\": {}}").empty());
  CHECK(parse_rocm_smi("device,a\n").empty());
  CHECK(parse_amd_smi_static("ERROR: no AMD GPU\n").empty());
  CHECK(parse_rocm_smi("GPU[99999999999]: x: y\n").empty());
}
