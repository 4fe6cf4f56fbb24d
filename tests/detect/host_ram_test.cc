#include <catch2/catch.hpp>

#include <filesystem>

#include "qsel/detect/host_ram.h"
#include "support/fixtures.h"

using namespace qsel;

TEST_CASE("host_ram: MemTotal from /proc/meminfo, in GB", "[detect][ram]") {
  auto gb = parse_meminfo_total_gb("MemFree:  100 kB\nMemTotal:       65536000 kB\nSwapTotal: 0 kB\n");
  REQUIRE(gb);
  CHECK(*gb == Approx(67.108864));
  CHECK(!parse_meminfo_total_gb(""));
  CHECK(!parse_meminfo_total_gb("MemTotal: 12 MB\n"));                    // not kB
  CHECK(!parse_meminfo_total_gb("MemTotal: kB\n"));                       // no number
  CHECK(!parse_meminfo_total_gb("MemTotal: 999999999999999999999 kB\n"));  // past 64 TB
  CHECK(!parse_meminfo_total_gb("MemTotal: 100 kB\n"));                   // under 1 GB
  CHECK(!parse_meminfo_total_gb("XMemTotal: 65536000 kB\n"));
}

TEST_CASE("host_ram: an unreadable or hostile file is nothing, not an error", "[detect][ram]") {
  test::TempDir d;
  CHECK(!installed_ram_gb((d.path() / "missing").string()));
  CHECK(!installed_ram_gb(d.path().string()));  // a directory
  auto f = d.write("meminfo", "MemTotal: 33554432 kB\n");
  CHECK(installed_ram_gb(f.string()).value() == Approx(34.359738368));
}

TEST_CASE("host_ram: hw.memsize from sysctl (macOS), in GB", "[detect][ram]") {
  CHECK(parse_sysctl_memsize_gb("68719476736\n").value() == Approx(68.719476736));
  CHECK(parse_sysctl_memsize_gb("hw.memsize: 17179869184\n").value() == Approx(17.179869184));
  CHECK(!parse_sysctl_memsize_gb(""));
  CHECK(!parse_sysctl_memsize_gb("hw.memsize: \n"));
  CHECK(!parse_sysctl_memsize_gb("hw.memsize: 12x\n"));                    // not a number
  CHECK(!parse_sysctl_memsize_gb("999\n"));                                // under 1 GB
  CHECK(!parse_sysctl_memsize_gb("99999999999999999999999999999999\n"));   // past 64 TB (and past 18 digits)
}

TEST_CASE("host_ram: /proc/meminfo is read as a stream (a /proc file says its size is 0: M5)", "[detect][ram]") {
  std::error_code ec;
  if (!std::filesystem::exists("/proc/meminfo", ec)) return;  // not Linux
  auto gb = installed_ram_gb("/proc/meminfo");
  REQUIRE(gb);
  CHECK(*gb >= 1);
  auto ram = detect_installed_ram();
  REQUIRE(ram);
  CHECK(ram->source == "/proc/meminfo");
}
