#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include "support/browse_corpus.h"
#include "qsel/detect/resolve_gpu.h"
#include "qsel/cli/context.h"
#include "qsel/core/errors.h"
#include "support/fixtures.h"

using namespace qsel;

using qsel::test::usage_error;

TEST_CASE("resolve_gpu: a GPU resolves to its part and target, or to a target when allowed", "[cli][args]") {
  Graph g = test::browse_graph();
  GpuArg part = resolve_gpu(g, "New GPU", false);
  REQUIRE(part.accelerator);
  CHECK(part.accelerator->id == "gpu-new");
  REQUIRE(part.target);
  CHECK(part.target->id == "t-new");
  CHECK(part.note == "\"New GPU\" is an alias of gpu-new");
  CHECK(resolve_gpu(g, "gpu-old", false).note.empty());

  GpuArg target = resolve_gpu(g, "t-old", true);
  CHECK(target.accelerator == nullptr);
  CHECK(target.target->id == "t-old");
  CHECK(usage_error([&] { resolve_gpu(g, "t-old", false); }) == "\"t-old\" is a target, not a GPU; name a part (gpu-old)");
  CHECK(usage_error([&] { resolve_gpu(g, "zzz-zzz-zzz", true); }) == "unknown GPU \"zzz-zzz-zzz\".");
  GpuSpec describable;
  describable.describable = true;
  CHECK(usage_error([&] { resolve_gpu(g, "zzz-zzz-zzz", false, describable); }) ==
        "unknown GPU \"zzz-zzz-zzz\". Or describe it: --gpu custom --vram GiB --target TARGET [--bandwidth GB/s]");
  CHECK(usage_error([&] { resolve_gpu(g, "custom", true); }) == "a custom GPU is for recommend (--gpu custom --vram GiB --target TARGET)");
}

TEST_CASE("resolve_gpu: the embedded corpus resolves a family to its default part", "[cli][args]") {
  Context ctx;
  GpuArg h100 = resolve_gpu(ctx.graph(), "h100", false);
  CHECK(h100.accelerator->id == "h100-sxm");
  CHECK(h100.note.rfind("\"h100\" → h100-sxm, the family default; also ", 0) == 0);
  CHECK(resolve_gpu(ctx.graph(), "a100 40gb", false).note ==
        "\"a100 40gb\" is an alias of a100-40gb-sxm4 (also 40 GB: a100-40gb-pcie)");
}

// The list lives in tests/fixtures/gpu-spellings.tsv: vendor names, driver output
// and forum spellings, each with the record it must land on.
TEST_CASE("resolve_gpu: every collected spelling resolves to the intended record", "[cli][args][spellings]") {
  Context ctx;
  std::ifstream in(test::source_dir() + "/tests/fixtures/gpu-spellings.tsv");
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    std::string spelling = line.substr(0, tab), want = line.substr(tab + 1);
    INFO(spelling);
    std::string got;
    try {
      got = resolve_gpu(ctx.graph(), spelling, false).accelerator->id;
    } catch (const UsageError& e) {
      got = e.what();
    }
    CHECK(got == want);
    ++checked;
  }
  CHECK(checked >= 80);
}

TEST_CASE("resolve_gpu: an unknown name lists every part with its model number", "[cli][args]") {
  Context ctx;
  GpuSpec d;
  d.describable = true;
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "h100-sxn", false, d); }) ==
        "unknown GPU \"h100-sxn\"; did you mean \"h100-sxm\"? Parts with that model number: h100-nvl, h100-pcie, h100-sxm. Or "
        "describe it: --gpu custom --vram GiB --target TARGET [--bandwidth GB/s]");
  // a near miss without the model number is no hint
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "3090 super", false, d); }) ==
        "unknown GPU \"3090 super\". Parts with that model number: rtx-3090, rtx-3090-ti. Or describe it: --gpu custom --vram GiB "
        "--target TARGET [--bandwidth GB/s]");
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "4090 48gb", false, d); }) ==
        "unknown GPU \"4090 48gb\"; did you mean \"rtx-4090\"? Parts with that model number: rtx-4090, rtx-4090-d, rtx-4090-laptop. "
        "A 48 GB card no record has: --gpu rtx-4090 --vram 48. Or describe it: --gpu custom --vram GiB --target TARGET [--bandwidth GB/s]");
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "Orin Nano 4GB", false); }).find("Parts with a word in common: jetson-agx-orin-32gb") !=
        std::string::npos);
}

TEST_CASE("resolve_gpu: custom parts run on a target's facts and say so", "[cli][args][custom]") {
  Context ctx;
  GpuSpec s;
  s.describable = true;
  s.vram_gb = 20;
  s.bandwidth_gbs = 760;
  s.target = "sm86";
  GpuArg c = resolve_gpu(ctx.graph(), "custom", false, s);
  REQUIRE(c.owned);
  CHECK(c.accelerator == c.owned.get());
  CHECK(c.accelerator->id == "custom");
  CHECK(c.accelerator->name == "user-described GPU");
  CHECK(c.target->id == "sm86");
  CHECK(c.accelerator->data["memory_gb"] == 20);
  CHECK(c.accelerator->data["memory_bandwidth_gbs"] == 760);
  CHECK(c.accelerator->data["user_described"] == true);
  CHECK(c.note == "user-described part: 20 GiB (--vram), 760 GB/s (--bandwidth), sm86 (--target); every rule runs on sm86's "
                  "facts, and no record checks these figures");

  GpuSpec named;
  named.describable = true;
  named.vram_gb = 20;
  named.target = "cc 8.6";
  GpuArg n = resolve_gpu(ctx.graph(), "RTX 3080 20GB", false, named);
  CHECK(n.accelerator->name == "RTX 3080 20GB");
  CHECK(n.target->id == "sm86");

  GpuSpec more;
  more.describable = true;
  more.vram_gb = 48;
  GpuArg o = resolve_gpu(ctx.graph(), "4090", false, more);
  CHECK(o.accelerator->id == "custom");
  CHECK(o.target->id == "sm89");
  CHECK(o.accelerator->data["memory_gb"] == 48);
  CHECK(o.accelerator->data["memory_bandwidth_gbs"] == 1008);  // the record's, not given
  CHECK(o.note == "user-described: \"4090\" is rtx-4090, with 48 GiB (--vram); no record checks these figures");
}

TEST_CASE("resolve_gpu: a custom part without what it needs is a usage error", "[cli][args][custom]") {
  Context ctx;
  GpuSpec none;
  none.describable = true;
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "custom", false, none); }).rfind("a custom GPU needs --target (its architecture: one of ", 0) == 0);
  GpuSpec no_vram;
  no_vram.describable = true;
  no_vram.target = "sm89";
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "custom", false, no_vram); }) ==
        "a custom GPU needs --vram (its memory in GB, as the vendor labels it: 24)");
  GpuSpec bad_target;
  bad_target.describable = true;
  bad_target.vram_gb = 24;
  bad_target.target = "sm99";
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "custom", false, bad_target); }) == "unknown target \"sm99\"; did you mean \"sm89\", \"sm90\"?");
  GpuSpec big;
  big.describable = true;
  big.vram_gb = 1e9;
  big.target = "sm89";
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "custom", false, big); }) == "a custom GPU's memory is out of range: 1e+09 GB (at most 100000 GB)");
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "auto", false, bad_target); }).rfind("--gpu auto reads the part from this machine", 0) == 0);
}

TEST_CASE("resolve_gpu: auto reads this machine's tools", "[cli][args][auto]") {
  Context ctx;
  test::TempDir bin;
  auto p = bin.write("nvidia-smi", "#!/bin/sh\n/bin/cat '" + test::source_dir() + "/tests/fixtures/detect/nvidia-smi/h100-nvl-x2.txt'\n");
  chmod(p.c_str(), 0755);
  GpuArg a = resolve_gpu(ctx.graph(), "auto", false, {}, bin.path().string());
  CHECK(a.accelerator->id == "h100-nvl");
  CHECK(a.count == 2);
  CHECK(a.note == "detected by nvidia-smi: 2 x \"NVIDIA H100 NVL\" (95830 MiB) → h100-nvl");

  test::TempDir empty;
  CHECK(usage_error([&] { resolve_gpu(ctx.graph(), "auto", false, {}, empty.path().string()); }).rfind("--gpu auto found no GPU (nvidia-smi: not installed;", 0) == 0);
}
