#include <catch2/catch.hpp>

#include "support/rules_mini.h"

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
  CHECK(pos(o, "f-base/eng-a") < pos(o, "f-gguf2/eng-a"));
  const Candidate* two = find(d, "f-gguf2");
  CHECK(mentions(two->why, "below 4 bits the recorded accuracy cost jumps"));
  CHECK(has(two->evidence, "fact-cost"));
  auto amp = order(deliberate(mini(), mini_query("gpu-amp")));
  CHECK(pos(amp, "f-w4/eng-a") < pos(amp, "f-fp4/eng-a"));    // emulated ranks after
}

TEST_CASE("ranking: what does not fit ranks last", "[rules][ranking]") {
  Query q = mini_query("gpu-hop-small");
  auto d = deliberate(mini(), q);
  auto o = order(d);
  CHECK(!find(d, "f-base", "eng-a")->memory->fits);
  CHECK(pos(o, "f-base/eng-a") > pos(o, "f-w4/eng-a"));
  CHECK(d.candidates.back().memory->fits == false);
}

TEST_CASE("ranking: the objective is stated and changes the order", "[rules][ranking]") {
  Query q = mini_query("gpu-bw");
  auto quality = deliberate(mini(), q);
  CHECK(mentions(quality.notes, "ranking — objective quality:"));
  auto o = order(quality);
  CHECK(pos(o, "f-base/eng-a") < pos(o, "f-fp8/eng-a"));  // 16 bits first when it fits
  CHECK(pos(o, "f-fp8/eng-a") < pos(o, "f-fp4/eng-a"));   // then 8, then 4
  q.objective = "memory";
  auto memory = deliberate(mini(), q);
  CHECK(mentions(memory.notes, "ranking — objective memory:"));
  auto m = order(memory);
  CHECK(pos(m, "f-gguf2/eng-a") < pos(m, "f-base/eng-a"));  // fewest bytes first
  q.objective = "speed";
  auto speed = order(deliberate(mini(), q));
  CHECK(pos(speed, "f-fp4/eng-a") < pos(speed, "f-base/eng-a"));  // native and fewer bytes before 16-bit
  CHECK(pos(speed, "f-w4/eng-a") < pos(speed, "f-gguf2/eng-a"));  // sub-4-bit after 4 bits
}
