#include <catch2/catch.hpp>

#include "qsel/cli/context.h"
#include "qsel/graph/gpu_names.h"

using namespace qsel;

TEST_CASE("gpu_names: vendor words and a memory size are set aside", "[graph][gpu-names]") {
  GpuName n = split_gpu_name("NVIDIA GeForce RTX 4060 Ti 16GB");
  CHECK(n.rest == "rtx 4060 ti");
  CHECK(n.memory_gb == 16);
  CHECK(split_gpu_name("a100 40 GB").memory_gb == 40);
  CHECK(split_gpu_name("a100 40 GB").rest == "a100");
  CHECK(split_gpu_name("Intel(R) Arc(TM) A770 Graphics").rest == "arc a770");
  CHECK(split_gpu_name("m3 max 36gib").memory_gb == 36);
  CHECK(split_gpu_name("rtx 3090").memory_gb == 0);
  CHECK(split_gpu_name("123456gb").memory_gb == 0);  // no five-digit sizes
  CHECK(split_gpu_name(std::string(100000, 'x')).rest.size() <= 200);
}

TEST_CASE("gpu_names: a typed name needs its words to match, a memory size picks the family member", "[graph][gpu-names]") {
  Context ctx;
  const Graph& g = ctx.graph();
  std::string how;
  const Record* a = resolve_typed_gpu(g, "AMD Instinct MI300X", &how);
  REQUIRE(a);
  CHECK(a->id == "mi300x");
  CHECK(how == "\"AMD Instinct MI300X\" read as mi300x");
  const Record* m = resolve_typed_gpu(g, "NVIDIA RTX A6000 48GB", &how);
  REQUIRE(m);
  CHECK(m->id == "rtx-a6000");
  CHECK(resolve_typed_gpu(g, "rtx 3090 48gb", &how) == nullptr);  // no such member
  CHECK(resolve_typed_gpu(g, "nvidia", &how) == nullptr);
  CHECK(resolve_typed_gpu(g, "rtx 3099", &how) == nullptr);       // a typo stays a typo
}

TEST_CASE("gpu_names: reported names match the longest spelling they contain", "[graph][gpu-names]") {
  Context ctx;
  const Graph& g = ctx.graph();
  auto id = [&](const char* name, double mib) {
    const Record* r = match_reported_gpu(g, name, mib);
    return r ? r->id : std::string();
  };
  CHECK(id("NVIDIA GeForce RTX 4060 Ti", 16380) == "rtx-4060-ti-16gb");  // not rtx-4060, whose alias is shorter once vendor words go
  CHECK(id("NVIDIA GeForce RTX 4060", 8188) == "rtx-4060");
  CHECK(id("NVIDIA A100-SXM4-40GB", 40960) == "a100-40gb-sxm4");
  CHECK(id("NVIDIA A100-SXM4-80GB", 0) == "a100-80gb-sxm4");
  CHECK(id("Tesla T4", 15360) == "t4");
  CHECK(id("Some Unknown Accelerator", 1024).empty());
  CHECK(id("", 0).empty());
}

TEST_CASE("gpu_names: parts sharing a model number or a word", "[graph][gpu-names]") {
  Context ctx;
  const Graph& g = ctx.graph();
  CHECK(parts_sharing_model_number(g, "h100-sxn") == std::vector<std::string>{"h100-nvl", "h100-pcie", "h100-sxm"});
  auto r3090 = parts_sharing_model_number(g, "rtx3090 super");
  CHECK(r3090 == std::vector<std::string>{"rtx-3090", "rtx-3090-ti"});
  CHECK(parts_sharing_model_number(g, "40gb").empty());
  CHECK(parts_sharing_model_number(g, "gpu").empty());
  auto orin = parts_sharing_a_word(g, "Orin (nvgpu)");
  CHECK(std::find(orin.begin(), orin.end(), "jetson-agx-orin-64gb") != orin.end());
  CHECK(parts_sharing_a_word(g, "NVIDIA RTX Pro").empty());  // brand and series words only
}
