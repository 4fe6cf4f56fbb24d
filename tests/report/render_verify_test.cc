#include <catch2/catch.hpp>

#include "qsel/report/verify_report.h"

using namespace qsel;

TEST_CASE("render_verify: the Log line says what was cut and where reading stopped", "[report][verify]") {
  ojson r = {{"log", "engine.log"}, {"lines", 12}, {"engine", nullptr}, {"checks", ojson::array()}, {"verdict", "unverified"}};
  std::string plain = render_verify_text(r, Style{});
  CHECK(plain.rfind("Log        engine.log (12 lines)\n", 0) == 0);
  r["lines_cut"] = 2;
  r["stopped_at_bytes"] = 4294967296ull;
  CHECK(render_verify_text(r, Style{}).rfind(
            "Log        engine.log (12 lines, 2 cut at 64 KiB; reading stopped at the 4 GiB cap (byte\n"
            "           4294967296): lines past it were not checked)\n",
            0) == 0);
}

TEST_CASE("render_verify: a stream stopped at the time cap says so (issue 41: verify --log - ran to 4 GiB)", "[report][verify]") {
  ojson r = {{"log", "-"}, {"lines", 3}, {"stopped_after_s", 20}, {"engine", nullptr}, {"checks", ojson::array()}, {"verdict", "unverified"}};
  Style wide;
  wide.width = 200;
  CHECK(render_verify_text(r, wide).rfind(
            "Log        - (3 lines; reading stopped after 20 s (a stream that did not end): lines past it were not checked)\n", 0) == 0);
}
