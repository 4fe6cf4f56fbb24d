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

TEST_CASE("ranking: fitting, native, 4-bit-or-more candidates first, sub-4-bit after, emulated after native within a quality band", "[rules][ranking]") {
  auto d = deliberate(mini(), mini_query("gpu-bw"));
  auto o = order(d);
  CHECK(pos(o, "f-fp4/eng-a") < pos(o, "f-mx/eng-a"));        // Rule 3
  CHECK(pos(o, "f-w4/eng-a") < pos(o, "f-gguf2/eng-a"));      // quality floor
  CHECK(pos(o, "f-base/eng-a") < pos(o, "f-gguf2/eng-a"));
  const Candidate* two = find(d, "f-gguf2");
  CHECK(mentions(two->why, "below 4 bits the recorded accuracy cost jumps"));
  CHECK(has(two->evidence, "fact-cost"));
  // Quality decides first (docs/quality.md, "The ranking order"): f-fp4's measured cost can
  // rank it above an unmeasured f-w4. Within one quality band, emulated ranks after native.
  auto amp = deliberate(mini(), mini_query("gpu-amp"));
  int pairs = 0;
  for (std::size_t i = 0; i < amp.candidates.size(); ++i)
    for (std::size_t j = i + 1; j < amp.candidates.size(); ++j) {
      const Candidate &a = amp.candidates[i], &b = amp.candidates[j];
      if (!a.memory || !b.memory || !a.memory->fits || !b.memory->fits) continue;
      if (quality_band_index(a.quality) != quality_band_index(b.quality)) continue;
      if (a.path == b.path || (a.path != "emulated" && b.path != "emulated")) continue;
      ++pairs;
      INFO(a.format->id << " (" << a.path << ") before " << b.format->id << " (" << b.path << ")");
      CHECK(b.path == "emulated");
    }
  CHECK(pairs > 0);
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
