// qsel list's --native-on and --emulated-on give the verdict `qsel explain F --on GPU`
// gives, for every format (issue 28: the list read the records' native_support and
// named bitsandbytes and AutoRound native on an RTX 4090, where explain said dequant).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "qsel/explain/browse.h"
#include "qsel/explain/explain.h"
#include "qsel/graph/embedded_graph.h"

using namespace qsel;

namespace {

std::set<std::string> listed(const Graph& g, ListFilters f) {
  std::set<std::string> ids;
  const auto answer = list_answer(g, Kind::Format, f, {});  // kept: a range-for over a temporary's member dangles
  for (const auto& r : answer["records"]) ids.insert(r["id"].get<std::string>());
  return ids;
}

}  // namespace

TEST_CASE("browse_list: --native-on and --emulated-on agree with explain's verdict for every format on each part", "[explain][list]") {
  const Graph& g = embedded_graph();
  for (const char* part : {"rtx-4090", "rtx-3090", "h100-sxm", "b200", "rtx-5090", "mi300x", "a100-80gb-sxm4"}) {
    INFO(part);
    const Record* a = g.find(part);
    REQUIRE(a);
    const Record* t = g.find(a->str("target"));
    REQUIRE(t);
    ListFilters native, emulated;
    native.native_on = part;
    emulated.emulated_on = part;
    std::set<std::string> want_native, want_emulated;
    for (const Record* f : g.of_kind(Kind::Format)) {
      std::string v = explain_format_on(g, *f, *t, a, {})["verdict"].get<std::string>();
      if (v == "native") want_native.insert(f->id);
      if (v == "emulated") want_emulated.insert(f->id);
    }
    CHECK(listed(g, native) == want_native);
    CHECK(listed(g, emulated) == want_emulated);
  }
  // the case the issue found
  ListFilters ada;
  ada.native_on = "rtx-4090";
  auto ids = listed(g, ada);
  CHECK(ids.count("fp8-e4m3") == 1);
  CHECK(ids.count("bitsandbytes-load-in-4bit") == 0);
  CHECK(ids.count("autoround-w4a16") == 0);
}
