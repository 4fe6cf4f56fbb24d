#include <catch2/catch.hpp>

#include <chrono>

#include "qsel/cli/context.h"
#include "qsel/core/errors.h"
#include "qsel/detect/local_gpu.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {

ReportedGpu gpu(const std::string& name, double mib, const std::string& target = "", const std::string& tool = "nvidia-smi") {
  ReportedGpu g;
  g.tool = tool;
  g.name = name;
  g.memory_mib = mib;
  g.target = target;
  return g;
}

Probe probe(std::vector<ReportedGpu> gpus) {
  Probe p;
  p.gpus = std::move(gpus);
  return p;
}

std::string usage_error(const Graph& g, const Probe& p) {
  try {
    choose_local_gpu(g, p);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

std::string id_of(const Graph& g, const ReportedGpu& r) {
  const Record* rec = record_of_reported(g, r);
  return rec ? rec->id : "";
}

}  // namespace

TEST_CASE("local_gpu: driver names map to records, memory choosing among a family", "[detect][local]") {
  Context ctx;
  const Graph& g = ctx.graph();
  CHECK(id_of(g, gpu("NVIDIA GeForce RTX 3090", 24576, "sm86")) == "rtx-3090");
  CHECK(id_of(g, gpu("NVIDIA H100 80GB HBM3", 81559, "sm90")) == "h100-sxm");
  CHECK(id_of(g, gpu("NVIDIA H100 NVL", 95830)) == "h100-nvl");
  CHECK(id_of(g, gpu("NVIDIA A100-SXM4-40GB", 40960)) == "a100-40gb-sxm4");
  CHECK(id_of(g, gpu("NVIDIA A100-SXM4-80GB", 81920)) == "a100-80gb-sxm4");
  CHECK(id_of(g, gpu("NVIDIA GeForce RTX 4060 Ti", 16380)) == "rtx-4060-ti-16gb");
  CHECK(id_of(g, gpu("NVIDIA GeForce RTX 4060 Ti", 8188)) == "rtx-4060-ti-8gb");
  CHECK(id_of(g, gpu("NVIDIA GeForce RTX 4060", 8188)) == "rtx-4060");
  CHECK(id_of(g, gpu("NVIDIA RTX 6000 Ada Gene...", 49140)) == "rtx-6000-ada");
  CHECK(id_of(g, gpu("Quadro RTX 4000", 8192)) == "quadro-rtx-4000");
  CHECK(id_of(g, gpu("Radeon RX 7900 XT", 20464, "gfx1100", "rocm-smi")) == "rx-7900-xt");
  CHECK(id_of(g, gpu("AMD Instinct MI350X", 0, "gfx950", "amd-smi")) == "mi350x");
  CHECK(id_of(g, gpu("Apple M1 Pro", 16384, "apple-m1", "sysctl")) == "apple-m1-pro-16gb");
  CHECK(id_of(g, gpu("Apple M1", 8192, "apple-m1", "sysctl")) == "apple-m1-8gb");
  CHECK(id_of(g, gpu("Apple M3 Max", 36864, "apple-m3", "sysctl")) == "apple-m3-max-36gb");
}

TEST_CASE("local_gpu: a record whose memory or target disagrees is not the part", "[detect][local]") {
  Context ctx;
  const Graph& g = ctx.graph();
  CHECK(id_of(g, gpu("NVIDIA GeForce RTX 4090", 49140)).empty());        // a 48 GB card is not the 24 GB record
  CHECK(id_of(g, gpu("NVIDIA GeForce RTX 3090", 24576, "sm89")).empty());  // the driver says another architecture
  CHECK(id_of(g, gpu("Radeon RX 6800/6800 XT / 6900 XT", 16368, "gfx1030")).empty());
}

TEST_CASE("local_gpu: identical GPUs set the count, the note says what was read", "[detect][local]") {
  Context ctx;
  LocalGpu l = choose_local_gpu(ctx.graph(), probe({gpu("NVIDIA GeForce RTX 3090", 24576, "sm86"), gpu("NVIDIA GeForce RTX 3090", 24576, "sm86")}));
  REQUIRE(l.record);
  CHECK(l.record->id == "rtx-3090");
  CHECK(l.count == 2);
  CHECK(l.note == "detected by nvidia-smi: 2 x \"NVIDIA GeForce RTX 3090\" (sm86, 24576 MiB) → rtx-3090");
}

TEST_CASE("local_gpu: mixed GPUs: the most memory is used, the rest named, a carve-out is set aside", "[detect][local]") {
  Context ctx;
  LocalGpu l = choose_local_gpu(ctx.graph(), probe({gpu("NVIDIA GeForce RTX 4060 Ti", 8188), gpu("NVIDIA GeForce RTX 3090", 24576),
                                                    gpu("Raphael", 64, "gfx1036", "rocm-smi")}));
  CHECK(l.record->id == "rtx-3090");
  CHECK(l.count == 1);
  CHECK(l.note == "detected by nvidia-smi: \"NVIDIA GeForce RTX 3090\" (24576 MiB) → rtx-3090; also found \"NVIDIA GeForce RTX 4060 Ti\" "
                  "(8188 MiB) (name it with --gpu to use it); set aside \"Raphael\" (gfx1036, 64 MiB) (an integrated GPU's carve-out)");
}

TEST_CASE("local_gpu: a GPU no record fits is described from its driver on its target", "[detect][local]") {
  Context ctx;
  LocalGpu l = choose_local_gpu(ctx.graph(), probe({gpu("NVIDIA GeForce RTX 4090", 49140, "sm89")}));
  CHECK(l.record == nullptr);
  REQUIRE(l.custom);
  CHECK(l.custom->name == "NVIDIA GeForce RTX 4090");
  CHECK(l.custom->memory_reported_mib == 49140);
  CHECK(l.custom->target == "sm89");
  CHECK(l.custom->described_by == "nvidia-smi");
  CHECK(l.note.find("a part described from its driver (no record fits; the name suggests rtx-4090") != std::string::npos);
  // the table gives no compute capability: the target comes from the record the name points at
  LocalGpu t = choose_local_gpu(ctx.graph(), probe({gpu("NVIDIA GeForce RTX 4090", 49140)}));
  CHECK(t.custom->target == "sm89");
}

TEST_CASE("local_gpu: Apple memory not reported: the family default, said so", "[detect][local]") {
  Context ctx;
  LocalGpu l = choose_local_gpu(ctx.graph(), probe({gpu("Apple M1 Pro", 0, "apple-m1", "sysctl")}));
  REQUIRE(l.record);
  CHECK(l.record->data.value("family_default", false));
  CHECK(l.note.find("memory not reported: the m1 pro family's default member") != std::string::npos);
}

TEST_CASE("local_gpu: nothing usable is a usage error that says what to do", "[detect][local]") {
  Context ctx;
  const Graph& g = ctx.graph();
  Probe none;
  none.tried = {"nvidia-smi: not installed", "rocm-smi: not installed"};
  CHECK(usage_error(g, none) == "--gpu auto found no GPU (nvidia-smi: not installed; rocm-smi: not installed); name the part with "
                               "--gpu NAME, or describe it with --gpu custom --vram GiB --target TARGET");
  CHECK(usage_error(g, probe({gpu("Radeon RX 6800/6800 XT / 6900 XT", 16368, "gfx1030", "rocm-smi")})) ==
        "--gpu auto: rocm-smi reports \"Radeon RX 6800/6800 XT / 6900 XT\" (gfx1030, 16368 MiB), which no record describes and whose "
        "target gfx1030 has no record; name the part with --gpu, or describe it with --gpu custom --vram GiB --target TARGET");
  std::string orin = usage_error(g, probe({gpu("Orin (nvgpu)", 0, "sm87")}));
  CHECK(orin.rfind("--gpu auto: nvidia-smi reports \"Orin (nvgpu)\" (sm87) without its memory; name the part with --gpu (parts on sm87: ", 0) == 0);
  CHECK(orin.find("jetson-agx-orin-64gb") != std::string::npos);
  CHECK(usage_error(g, probe({gpu("", 196592, "", "rocm-smi")})).find("a GPU without a name (196592 MiB)") != std::string::npos);
}

TEST_CASE("local_gpu: 4,096 GPUs answer within 5 s, alike or all different (6-20 s: M8)", "[detect][slow]") {
  Context ctx;
  const Graph& g = ctx.graph();
  for (bool alike : {true, false}) {
    std::vector<ReportedGpu> gpus;
    for (int i = 0; i < 4096; ++i)
      gpus.push_back(gpu(alike ? std::string("NVIDIA H100 80GB HBM3") : "NVIDIA H100 Mk" + std::to_string(i), 81559, "sm90"));
    auto t0 = std::chrono::steady_clock::now();
    LocalGpu l = choose_local_gpu(g, probe(gpus));
    CHECK(l.count == 4096);  // every one of them is an H100 by its name, memory and target
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO((alike ? "alike: " : "different: ") << seconds << " s");
    CHECK(seconds < 5);
  }
}
