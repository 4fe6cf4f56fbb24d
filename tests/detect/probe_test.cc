// probe_gpus runs the real tool names found on a PATH the test controls: small
// shell scripts that print captured output (tests/fixtures/detect).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <random>

#include <sys/stat.h>

#include "qsel/detect/gpu_probe.h"
#include "qsel/detect/host_ram.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {

std::string fixture_path(const std::string& rel) { return test::source_dir() + "/tests/fixtures/detect/" + rel; }

// A fake tool: prints `file` (or, when the arguments contain `when`, `file_when`), exits `code`.
void fake(const test::TempDir& dir, const std::string& tool, const std::string& body) {
  auto p = dir.write(tool, "#!/bin/sh\n" + body + "\n");
  chmod(p.c_str(), 0755);
}

std::string cat(const std::string& rel) { return "/bin/cat '" + fixture_path(rel) + "'"; }

}  // namespace

TEST_CASE("probe: nothing installed says what was tried", "[detect][probe]") {
  test::TempDir empty;
  Probe p = probe_gpus(empty.path().string());
  CHECK(p.gpus.empty());
  CHECK(p.tried == std::vector<std::string>{"nvidia-smi: not installed", "amd-smi: not installed", "rocm-smi: not installed",
                                            "sysctl: not installed", "system_profiler: not installed"});
}

TEST_CASE("probe: nvidia-smi's query first, its table when the query fails", "[detect][probe]") {
  test::TempDir bin;
  fake(bin, "nvidia-smi", "case \"$*\" in *--query-gpu=name,memory.total,compute_cap*--format=csv,noheader*) "
                          "echo 'NVIDIA GeForce RTX 3090, 24576 MiB, 8.6'; echo 'NVIDIA GeForce RTX 3090, 24576 MiB, 8.6';; *) exit 9;; esac");
  Probe q = probe_gpus(bin.path().string());
  REQUIRE(q.gpus.size() == 2);
  CHECK(q.gpus[0].target == "sm86");
  CHECK(q.tried[0] == "nvidia-smi: 2 GPUs");

  fake(bin, "nvidia-smi", "case \"$*\" in *query*) echo 'Field \"compute_cap\" is not a valid field to query.'; exit 2;; esac\n" +
                              cat("nvidia-smi/rtx-4060-ti-x2.txt"));
  Probe t = probe_gpus(bin.path().string());
  REQUIRE(t.gpus.size() == 2);
  CHECK(t.gpus[1].name == "NVIDIA GeForce RTX 4060 Ti");
  CHECK(t.gpus[1].memory_mib == 16380);
}

TEST_CASE("probe: a failing or silent tool is reported, not a GPU", "[detect][probe]") {
  test::TempDir bin;
  fake(bin, "nvidia-smi", "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"; exit 9");
  fake(bin, "amd-smi", "exit 0");
  fake(bin, "rocm-smi", "echo 'WARNING: No AMD GPUs specified'");
  Probe p = probe_gpus(bin.path().string());
  CHECK(p.gpus.empty());
  CHECK(p.tried[0] == "nvidia-smi: exited with status 9");
  CHECK(p.tried[1] == "amd-smi: reported no GPU qsel could read");
  CHECK(p.tried[2] == "rocm-smi: reported no GPU qsel could read");
}

TEST_CASE("probe: a non-executable or a directory named like the tool is not run", "[detect][probe]") {
  test::TempDir bin;
  bin.write("nvidia-smi", "#!/bin/sh\necho 'NVIDIA GeForce RTX 3090, 24576 MiB, 8.6'\n");  // mode 0644
  std::filesystem::create_directories(bin.path() / "rocm-smi");
  Probe p = probe_gpus(bin.path().string());
  CHECK(p.gpus.empty());
  CHECK(p.tried[0] == "nvidia-smi: not installed");
  CHECK(p.tried[2] == "rocm-smi: not installed");
}

TEST_CASE("probe: amd-smi first, rocm-smi when it finds nothing", "[detect][probe]") {
  test::TempDir bin;
  fake(bin, "amd-smi", cat("amd-smi/rocm-systems-2987-mi350x-static.partial.txt"));
  fake(bin, "rocm-smi", "exit 1");
  Probe a = probe_gpus(bin.path().string());
  REQUIRE(a.gpus.size() == 1);
  CHECK(a.gpus[0].tool == "amd-smi");
  CHECK(a.tried.size() == 2);  // nvidia-smi, amd-smi: rocm-smi not needed

  fake(bin, "amd-smi", "exit 2");
  fake(bin, "rocm-smi", cat("rocm-smi/marimo-9237-rx7900xt-showproductname-showuse-meminfo-vram.csv.txt"));
  Probe r = probe_gpus(bin.path().string());
  REQUIRE(r.gpus.size() == 1);
  CHECK(r.gpus[0].tool == "rocm-smi");
  CHECK(r.tried[1] == "amd-smi: exited with status 2");
  CHECK(r.tried[2] == "rocm-smi: 1 GPU");
}

TEST_CASE("probe: macOS through sysctl, then system_profiler for what sysctl lacks", "[detect][probe]") {
  test::TempDir bin;
  fake(bin, "sysctl", cat("sysctl/archspec-38-early-m1-sysctl-A-machdep.cpu.txt"));
  fake(bin, "system_profiler", cat("system_profiler/cpufetch-183-m1pro-16gb-SPHardwareDataType-mini.txt"));
  Probe p = probe_gpus(bin.path().string());
  REQUIRE(p.gpus.size() == 1);
  CHECK(p.gpus[0].name == "Apple M1 Pro");
  CHECK(p.gpus[0].memory_mib == 16384);
  CHECK(p.tried.back() == "system_profiler: 1 GPU");
}

TEST_CASE("probe: a tool that hangs is killed, one that floods is cut", "[detect][probe]") {
  test::TempDir bin;
  fake(bin, "nvidia-smi", "exec /bin/sleep 30");
  fake(bin, "rocm-smi", "exec /bin/cat /dev/zero");
  auto t0 = std::chrono::steady_clock::now();
  Probe p = probe_gpus(bin.path().string(), 2000);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  CHECK(ms < 5000);
  CHECK(p.tried[0] == "nvidia-smi: gave no answer within 1.5 s (killed); a GPU without persistence mode can be this slow to wake "
                      "(nvidia-smi -pm 1)");  // three quarters of the detection's deadline
  CHECK(p.tried[2] == "rocm-smi: printed more than 1024 KiB (cut off, not read)");
  CHECK(p.gpus.empty());
}

TEST_CASE("probe: five hanging tools share one deadline (they took 50 s, one after another)", "[detect][probe]") {
  test::TempDir bin;
  for (const char* tool : {"nvidia-smi", "amd-smi", "rocm-smi", "sysctl", "system_profiler"}) fake(bin, tool, "exec /bin/sleep 30");
  auto t0 = std::chrono::steady_clock::now();
  Probe p = probe_gpus(bin.path().string(), 800);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  CHECK(ms < 2000);  // the deadline (0.8 s) and the kills, not 5 x 0.8 s
  REQUIRE(p.tried.size() == 5);
  // each tool gets at most three quarters of the deadline; a loaded machine may start the second one late
  CHECK(p.tried[0] == "nvidia-smi: gave no answer within 0.6 s (killed); a GPU without persistence mode can be this slow to wake "
                      "(nvidia-smi -pm 1)");
  CHECK(p.tried[1].rfind("amd-smi: gave no answer within 0.", 0) == 0);
  CHECK(p.tried[2] == "rocm-smi: not run (the detection's deadline had passed)");
  CHECK(p.tried[4] == "system_profiler: not run (the detection's deadline had passed)");
}

// ---- issue 41: junk is not a GPU; one deadline for GPUs and RAM ----------------------

namespace {

// 500 KB from a seeded generator: raw bytes, or text made of what a CSV line is made of.
std::string random_output(unsigned seed, bool text) {
  std::mt19937 rng(seed);
  static const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.-_|:[]()/\n";
  std::string out(500 * 1000, '\0');
  for (char& c : out) c = text ? alphabet[rng() % alphabet.size()] : static_cast<char>(rng() & 0xff);
  return out;
}

}  // namespace

TEST_CASE("probe: 500 KB of random bytes from a tool detect nothing (they were a WSE-3, a TPU v6e, an H20, an L4)", "[detect][probe]") {
  for (unsigned seed = 1; seed <= 12; ++seed)
    for (bool text : {false, true}) {
      std::string j = random_output(seed, text);
      INFO("seed " << seed << (text ? " text" : " bytes"));
      CHECK(parse_nvidia_smi_csv(j).empty());
      CHECK(parse_nvidia_smi_table(j).empty());
      CHECK(parse_amd_smi_static(j).empty());
      CHECK(parse_rocm_smi(j).empty());
      CHECK(parse_apple(j, j).empty());
    }
  test::TempDir bin;
  auto file = bin.write("junk.bin", random_output(7, true));
  for (const char* tool : {"nvidia-smi", "amd-smi", "rocm-smi"}) fake(bin, tool, "/bin/cat '" + file.string() + "'");
  Probe p = probe_gpus(bin.path().string());
  CHECK(p.gpus.empty());
  REQUIRE(p.tried.size() >= 3);
  CHECK(p.tried[0] == "nvidia-smi: reported no GPU qsel could read");
  CHECK(p.tried[2] == "rocm-smi: reported no GPU qsel could read");
}

TEST_CASE("probe: a GPU is read only from a well-formed line, among a tool's warnings", "[detect][probe]") {
  auto gpus = parse_nvidia_smi_csv("WARNING: infoROM is corrupted at gpu 0000:01:00.0\nNVIDIA L4, 23034 MiB, 8.9\nL4, lots, 8.9\nx, 1 MiB, 99.99.9\n");
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].name == "NVIDIA L4");
  CHECK(parse_nvidia_smi_csv("NVIDIA L4\x01, 23034 MiB, 8.9\n").empty());        // a control byte in the name
  CHECK(parse_nvidia_smi_csv(std::string(200, 'A') + ", 23034 MiB, 8.9\n").empty());  // no GPU has a 200-character name
  CHECK(parse_nvidia_smi_csv("NVIDIA L4, 23034 GiB, 8.9\n").empty());             // not the unit nvidia-smi prints
}

TEST_CASE("probe: the detection's deadline covers the host's RAM (sysctl ran 2 s past it)", "[detect][probe]") {
  test::TempDir bin;
  fake(bin, "nvidia-smi", "echo 'NVIDIA GeForce RTX 3090, 24576 MiB, 8.6'");
  fake(bin, "amd-smi", "exec /bin/sleep 30");
  fake(bin, "sysctl", "exec /bin/sleep 30");
  auto t0 = std::chrono::steady_clock::now();
  Probe p = probe_gpus(bin.path().string(), 1000, (bin.path() / "no-meminfo").string());
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  CHECK(ms < 2500);  // one deadline (1 s) for every tool, sysctl included
  CHECK(p.gpus.size() == 1);
  CHECK(!p.ram);
  CHECK(p.tried.back().rfind("sysctl hw.memsize: ", 0) == 0);
  auto meminfo = bin.write("meminfo", "MemTotal:       65536000 kB\n");
  Probe q = probe_gpus(bin.path().string(), 1000, meminfo.string());
  REQUIRE(q.ram);
  CHECK(q.ram->gb == Approx(67.108864));
  CHECK(q.ram->source == meminfo.string());
}
