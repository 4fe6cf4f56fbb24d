#include <catch2/catch.hpp>

#include "qsel/graph/selector.h"
#include "support/fixtures.h"

using namespace qsel;
using nlohmann::json;

namespace {

Record target(const std::string& id, json fields) {
  Record r;
  r.id = id;
  r.kind = Kind::Target;
  r.data = std::move(fields);
  r.data["id"] = id;
  return r;
}

}  // namespace

TEST_CASE("selector: every condition must hold, empty matches all", "[graph][selector]") {
  Record sm90 = target("sm90", {{"vendor", "nvidia"}, {"platform", "cuda"}, {"family", "hopper"}, {"compute_capability", 9.0}});
  Record gfx942 = target("gfx942", {{"vendor", "amd"}, {"platform", "rocm"}, {"family", "cdna3"}});
  CHECK(selector_matches(json::object(), sm90));
  CHECK(selector_matches(json(), gfx942));
  CHECK(selector_matches({{"targets", {"sm90"}}}, sm90));
  CHECK_FALSE(selector_matches({{"targets", {"sm120"}}}, sm90));
  CHECK_FALSE(selector_matches({{"not_targets", {"sm90"}}}, sm90));
  CHECK(selector_matches({{"min_cc", 8.0}, {"max_cc", 9.0}}, sm90));
  CHECK_FALSE(selector_matches({{"min_cc", 9.1}}, sm90));
  CHECK_FALSE(selector_matches({{"max_cc", 8.9}}, sm90));
  CHECK_FALSE(selector_matches({{"min_cc", 1.0}}, gfx942));  // no compute capability: cc bounds fail
  CHECK(selector_matches({{"vendors", {"amd", "intel"}}, {"platforms", {"rocm"}}}, gfx942));
  CHECK_FALSE(selector_matches({{"vendors", {"amd"}}, {"platforms", {"cuda"}}}, gfx942));
  CHECK(selector_matches({{"families", {"hopper"}}}, sm90));
  CHECK_FALSE(selector_matches({{"families", {"hoper"}}}, sm90));
}

TEST_CASE("selector: matching_targets reads the graph's target records", "[graph][selector]") {
  test::TempDir d;
  d.write("targets/sm90.yaml", test::minimal_record("target", "sm90", "compute_capability: 9.0\n"));
  d.write("targets/sm80.yaml", test::minimal_record("target", "sm80", "compute_capability: 8.0\n"));
  d.write("targets/x86-cpu.yaml", "id: x86-cpu\nkind: target\nname: x\nvendor: generic\nplatform: cpu\nstatus: draft\nconfidence: 1\nsources: [{title: t}]\n");
  Graph g(load_corpus(d.path(), test::schemas()));
  auto ids = [](const std::vector<const Record*>& rs) {
    std::vector<std::string> out;
    for (auto* r : rs) out.push_back(r->id);
    return out;
  };
  CHECK(ids(matching_targets({{"min_cc", 8.0}}, g)) == std::vector<std::string>{"sm80", "sm90"});
  CHECK(ids(matching_targets({{"platforms", {"cpu"}}}, g)) == std::vector<std::string>{"x86-cpu"});
  CHECK(ids(matching_targets(json::object(), g)).size() == 3);
}
