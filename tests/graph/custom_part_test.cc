#include <catch2/catch.hpp>

#include "qsel/cli/context.h"
#include "qsel/core/errors.h"
#include "qsel/graph/custom_part.h"

using namespace qsel;

TEST_CASE("custom_part: a described part is an accelerator record on a target", "[graph][custom]") {
  Context ctx;
  CustomPart c;
  c.name = "NVIDIA GeForce RTX 4090";
  c.memory_reported_mib = 49140;
  c.target = "sm89";
  c.described_by = "nvidia-smi";
  Record r = make_custom_part(ctx.graph(), c);
  CHECK(r.id == "custom");
  CHECK(r.kind == Kind::Accelerator);
  CHECK(r.data["vendor"] == "nvidia");
  CHECK(r.data["target"] == "sm89");
  CHECK(r.data["memory_gb"] == 48);  // the label from the driver's MiB
  CHECK(r.data["memory_reported_mib"] == 49140);
  CHECK(!r.data.contains("memory_bandwidth_gbs"));
  CHECK(r.data["memory_note"] == "49140 MiB as nvidia-smi reports it");
  CHECK(r.data["user_described"] == true);
}

TEST_CASE("custom_part: targets resolve by alias, bad figures are usage errors", "[graph][custom]") {
  Context ctx;
  CustomPart c;
  c.memory_gb = 24;
  c.target = "gfx1100";
  c.described_by = "test";
  CHECK(make_custom_part(ctx.graph(), c).data["vendor"] == "amd");
  c.target = "cc 8.9";
  CHECK(make_custom_part(ctx.graph(), c).data["target"] == "sm89");
  c.bandwidth_gbs = -1;
  CHECK_THROWS_AS(make_custom_part(ctx.graph(), c), UsageError);
  c.bandwidth_gbs = 0;
  c.target = "h100";  // a part, not a target
  CHECK_THROWS_AS(make_custom_part(ctx.graph(), c), UsageError);
}

TEST_CASE("custom_part: a number out of range is named in the unit it came in (1e15 MiB read as \"0 GB\")", "[graph][custom]") {
  Context ctx;
  auto error_of = [&](const CustomPart& c) {
    try {
      make_custom_part(ctx.graph(), c);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CustomPart c;
  c.target = "sm89";
  c.described_by = "nvidia-smi";
  c.memory_reported_mib = 1e15;
  CHECK(error_of(c) == "a custom GPU's memory is out of range: 1e+15 MiB as nvidia-smi reports it (at most 1e+08 MiB)");
  c.memory_reported_mib = 24564;
  c.bandwidth_gbs = 2e6;
  CHECK(error_of(c) == "a custom GPU's bandwidth is out of range: 2e+06 GB/s (0 to 1e+06 GB/s)");
  c.bandwidth_gbs = 1008;
  CHECK(error_of(c) == "no error");
}
