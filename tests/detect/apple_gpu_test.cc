#include <catch2/catch.hpp>

#include "qsel/detect/gpu_probe.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {
std::string apple_fixture(const std::string& rel) { return test::read_text(test::source_dir() + "/tests/fixtures/detect/" + rel); }
}  // namespace

TEST_CASE("apple_gpu: sysctl names the chip and hw.memsize its unified memory", "[detect]") {
  auto gpus = parse_apple(apple_fixture("sysctl/machine-code-1-m1pro-sysctl-a-machdep.cpu.txt") + "hw.memsize: 34359738368\n", "");
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].tool == "sysctl");
  CHECK(gpus[0].name == "Apple M1 Pro");
  CHECK(gpus[0].memory_mib == 32768);
  CHECK(gpus[0].target == "apple-m1");
}

TEST_CASE("apple_gpu: system_profiler's Chip and Memory when sysctl does not name the chip (captured output)", "[detect]") {
  auto early = parse_apple(apple_fixture("sysctl/archspec-38-early-m1-sysctl-A-machdep.cpu.txt"),
                           apple_fixture("system_profiler/xcode-hardware-performance-142-m1-air-8gb-SPHardwareDataType.txt"));
  REQUIRE(early.size() == 1);
  CHECK(early[0].tool == "system_profiler");
  CHECK(early[0].name == "Apple M1");
  CHECK(early[0].memory_mib == 8192);
  auto m2pro = parse_apple("", apple_fixture("system_profiler/cpufetch-183-m2pro-16gb-SPHardwareDataType-mini.txt"));
  REQUIRE(m2pro.size() == 1);
  CHECK(m2pro[0].target == "apple-m2");
  CHECK(m2pro[0].memory_mib == 16384);
  // sysctl names the chip, system_profiler gives the memory
  auto both = parse_apple(apple_fixture("sysctl/py-cpuinfo-162-m1-sysctl-machdep.cpu.txt"),
                          apple_fixture("system_profiler/xcode-hardware-performance-142-m1-air-8gb-SPHardwareDataType.txt"));
  REQUIRE(both.size() == 1);
  CHECK(both[0].name == "Apple M1");
  CHECK(both[0].memory_mib == 8192);
}

TEST_CASE("apple_gpu: an Intel Mac's discrete GPU from SPDisplaysDataType (captured output)", "[detect]") {
  auto gpus = parse_apple("machdep.cpu.brand_string: Intel(R) Xeon(R) W-2140B CPU @ 3.20GHz\n",
                          apple_fixture("system_profiler/zeam-cpu_info-17-imacpro-vega64-SPDisplaysDataType.txt"));
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].name == "Radeon Pro Vega 64");
  CHECK(gpus[0].memory_mib == 16384);
  CHECK(gpus[0].target.empty());
}

TEST_CASE("apple_gpu: no chip, no GPU", "[detect]") {
  CHECK(parse_apple("", "").empty());
  CHECK(parse_apple("sysctl: unknown oid 'machdep.cpu.brand_string'\n", "").empty());
  CHECK(parse_apple("machdep.cpu.brand_string: Apple processor\n", "").empty());
  CHECK(parse_apple("machdep.cpu.brand_string: Apple Mx\n", "").empty());
  // the JSON form of SPDisplaysDataType is not read: no "Chip:" line, no VRAM line
  CHECK(parse_apple("", apple_fixture("system_profiler/system-bridge-3408-m3pro-SPDisplaysDataType-json.partial.txt")).empty());
}
