#include <catch2/catch.hpp>

#include "rules/mini.h"

using namespace qsel;
using namespace qsel::test;

namespace {
std::vector<std::string> order(const Deliberation& d) {
  std::vector<std::string> out;
  for (const auto& c : d.candidates) out.push_back(c.format->id + "/" + (c.engine ? c.engine->id : "-"));
  return out;
}
std::size_t pos(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) - v.begin(); }
}  // namespace

TEST_CASE("ranking: fitting, native, 4-bit-or-more candidates first; sub-4-bit after; emulated after native", "[rules][ranking]") {
  auto d = deliberate(mini(), mini_query("gpu-bw"));
  auto o = order(d);
  CHECK(pos(o, "f-fp4/eng-a") < pos(o, "f-mx/eng-a"));        // Rule 3
  CHECK(pos(o, "f-w4/eng-a") < pos(o, "f-gguf2/eng-a"));      // quality floor
  CHECK(pos(o, "f-base/-") < pos(o, "f-gguf2/eng-a"));
  const Candidate* two = find(d, "f-gguf2");
  CHECK(mentions(two->why, "ranked after candidates of 4 bits or more"));
  CHECK(has(two->evidence, "fact-cost"));
  auto amp = order(deliberate(mini(), mini_query("gpu-amp")));
  CHECK(pos(amp, "f-w4/eng-a") < pos(amp, "f-fp4/eng-a"));    // emulated ranks after
}

TEST_CASE("ranking: what does not fit ranks last", "[rules][ranking]") {
  Query q = mini_query("gpu-hop-small");
  auto d = deliberate(mini(), q);
  auto o = order(d);
  CHECK(!find(d, "f-base", "")->memory->fits);
  CHECK(pos(o, "f-base/-") > pos(o, "f-w4/eng-a"));
  CHECK(d.candidates.back().memory->fits == false);
}
