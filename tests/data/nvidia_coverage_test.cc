// Issue 11: every NVIDIA part of compute capability 7.0 or newer with 8 GB or
// more, released since 2018, is a record; the list and what it leaves out (and
// why) is tests/fixtures/nvidia-parts.tsv.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "qsel/detect/resolve_gpu.h"
#include "qsel/cli/context.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {

struct Part {
  std::string target, name, id;
};

std::vector<Part> parts() {
  std::ifstream in(test::source_dir() + "/tests/fixtures/nvidia-parts.tsv");
  std::vector<Part> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto a = line.find('|'), b = line.rfind('|');
    REQUIRE(a != b);
    out.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  return out;
}

}  // namespace

TEST_CASE("nvidia coverage: every listed part resolves to its record on its target", "[data][coverage]") {
  Context ctx;
  auto list = parts();
  CHECK(list.size() >= 160);
  for (const auto& p : list) {
    INFO(p.name << " -> " << p.id);
    GpuArg g = resolve_gpu(ctx.graph(), p.name, false);
    REQUIRE(g.accelerator);
    CHECK(g.accelerator->id == p.id);
    REQUIRE(g.target);
    CHECK(g.target->id == p.target);
    // The list's floor is 8 GB; the parts under it are records for the --fit logs compared on them (the list's header).
    if (p.id != "rtx-3060-laptop" && p.id != "gtx-1650") CHECK(g.accelerator->data.value("memory_gb", 0.0) >= 8);
  }
}

TEST_CASE("nvidia coverage: no NVIDIA record of compute capability 7.0 or newer is missing from the list", "[data][coverage]") {
  Context ctx;
  std::set<std::string> listed;
  for (const auto& p : parts()) listed.insert(p.id);
  for (const Record* a : ctx.graph().of_kind(Kind::Accelerator)) {
    if (a->str("vendor") != "nvidia") continue;
    const Record* t = ctx.graph().find(a->str("target"));
    if (!t || t->data.value("compute_capability", 0.0) < 7.0) continue;
    INFO(a->id);
    CHECK(listed.count(a->id) == 1);
  }
}
