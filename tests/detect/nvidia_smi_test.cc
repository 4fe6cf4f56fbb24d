#include <catch2/catch.hpp>

#include "qsel/detect/gpu_probe.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {
std::string smi_fixture(const std::string& name) { return test::read_text(test::source_dir() + "/tests/fixtures/detect/nvidia-smi/" + name); }
}  // namespace

TEST_CASE("nvidia_smi: compute capabilities become target ids", "[detect]") {
  CHECK(target_of_compute_cap("8.6") == "sm86");
  CHECK(target_of_compute_cap(" 12.0 ") == "sm120");
  CHECK(target_of_compute_cap("10.3") == "sm103");
  CHECK(target_of_compute_cap("7.0") == "sm70");
  for (const char* bad : {"", "8", ".6", "8.", "x.6", "8.6.1", "[N/A]", "123.4", "8.x"}) {
    INFO(bad);
    CHECK(target_of_compute_cap(bad).empty());
  }
}

TEST_CASE("nvidia_smi: the query CSV without a header is name, memory.total, compute_cap", "[detect]") {
  auto gpus = parse_nvidia_smi_csv("NVIDIA GeForce RTX 3090, 24576 MiB, 8.6\nNVIDIA GeForce RTX 3090, 24576 MiB, 8.6\n");
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[0].name == "NVIDIA GeForce RTX 3090");
  CHECK(gpus[0].memory_mib == 24576);
  CHECK(gpus[0].target == "sm86");
  CHECK(gpus[1].index == "1");
  CHECK(gpus[0].tool == "nvidia-smi");
  // nounits, Windows line ends, a field the driver cannot read
  auto nounits = parse_nvidia_smi_csv("NVIDIA H100 80GB HBM3, 81559, 9.0\r\nNVIDIA L4, [N/A], 8.9\r\n");
  REQUIRE(nounits.size() == 2);
  CHECK(nounits[0].memory_mib == 81559);
  CHECK(nounits[1].memory_mib == 0);
  CHECK(nounits[1].target == "sm89");
}

TEST_CASE("nvidia_smi: a CSV with a header is read by column name (captured output)", "[detect]") {
  auto gpus = parse_nvidia_smi_csv(smi_fixture("titan-v-rtx-5880-ada-query.csv.txt"));
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[0].name == "NVIDIA TITAN V");
  CHECK(gpus[0].target == "sm70");
  CHECK(gpus[0].index == "0");
  CHECK(gpus[1].name == "NVIDIA RTX 5880 Ada Generation");
  CHECK(gpus[1].target == "sm89");
  CHECK(gpus[1].memory_mib == 0);  // not a column in this query
}

TEST_CASE("nvidia_smi: error text and junk are not GPUs", "[detect]") {
  CHECK(parse_nvidia_smi_csv("Field \"compute_cap\" is not a valid field to query.\n").empty());
  CHECK(parse_nvidia_smi_csv("").empty());
  CHECK(parse_nvidia_smi_csv("1, 2, 3\n").empty());
  CHECK(parse_nvidia_smi_table("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n").empty());
  CHECK(parse_nvidia_smi_table(std::string(100000, '|')).empty());
}

TEST_CASE("nvidia_smi: the plain table gives names, indexes and totals (captured output)", "[detect]") {
  struct Case {
    const char* file;
    std::size_t count;
    const char* name;
    double mib;
  };
  for (const Case& c : {Case{"rtx-3090-x2.txt", 2, "NVIDIA GeForce RTX 3090", 24576}, Case{"h100-sxm-x8.txt", 8, "NVIDIA H100 80GB HBM3", 81559},
                        Case{"a40-x10.txt", 10, "NVIDIA A40", 46068}, Case{"rtx-4060-ti-x2.txt", 2, "NVIDIA GeForce RTX 4060 Ti", 16380},
                        Case{"rtx-6000-ada-x8.txt", 8, "NVIDIA RTX 6000 Ada Gene...", 49140},
                        Case{"jetson-agx-orin-64gb-x1.txt", 1, "Orin (nvgpu)", 0},  // "Not Supported"
                        Case{"quadro-rtx-4000-x2-partial.txt", 2, "Quadro RTX 4000", 8192}}) {
    INFO(c.file);
    auto gpus = parse_nvidia_smi_table(smi_fixture(c.file));
    REQUIRE(gpus.size() == c.count);
    CHECK(gpus[0].name == c.name);
    CHECK(gpus[0].memory_mib == c.mib);
    CHECK(gpus[0].index == "0");
    CHECK(gpus.back().index == std::to_string(c.count - 1));
    CHECK(gpus[0].target.empty());  // the table does not print compute capability
  }
  // the last GPU of a partial capture has no memory line
  CHECK(parse_nvidia_smi_table(smi_fixture("quadro-rtx-4000-x2-partial.txt")).back().memory_mib == 0);
}

TEST_CASE("nvidia-smi csv: a fourth column without a header is memory.free (the query asks it last)", "[detect]") {
  auto gpus = qsel::parse_nvidia_smi_csv("NVIDIA GeForce RTX 3090, 24576 MiB, 8.6, 23040 MiB\n");
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].memory_mib == 24576);
  CHECK(gpus[0].free_mib == 23040);
  auto old = qsel::parse_nvidia_smi_csv("NVIDIA GeForce RTX 3090, 24576 MiB, 8.6\n");  // a driver that answers three columns
  REQUIRE(old.size() == 1);
  CHECK(old[0].free_mib == 0);
}
