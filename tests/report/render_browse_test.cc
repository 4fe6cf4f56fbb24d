#include <catch2/catch.hpp>

#include "qsel/report/render.h"

using namespace qsel;

TEST_CASE("render_browse: list footer names the filters, and an empty result has no table", "[report][list]") {
  ojson r = ojson::parse(R"({"kind": "format", "plural": "formats", "count": 0,
    "columns": [{"key": "id", "header": "id"}, {"key": "name", "header": "name"}], "records": [],
    "filters": [{"flag": "--native-on", "value": "h100", "resolved": "h100-sxm"}, {"flag": "--regime", "value": "w4a4", "resolved": "w4a4"}]})");
  CHECK(render_list(r, Style{}) == "0 formats (--native-on h100 → h100-sxm, --regime w4a4)\n");
  r["records"].push_back({{"id", "x"}, {"name", "X"}});
  r["count"] = 1;
  r.erase("filters");
  CHECK(render_list(r, Style{}) == "id  name\nx   X\n1 format\n");
}

TEST_CASE("render_browse: show groups edges by kind, problems last and marked", "[report][show]") {
  ojson r = ojson::parse(R"({"id": "x", "kind": "format", "name": "X", "file": "formats/x.yaml", "line": 1, "column": 1,
    "record": {"id": "x"}, "edges_out": [], "edges_in": [],
    "refers_to": {"accelerator": {"native-on": ["a", "b"], "emulated-on": ["c"]}, "missing": {"native-on": ["zz"]}},
    "referred_to_by": {}})");
  CHECK(render_show(r, Style{}) ==
        "x  format  X\n"
        "  from formats/x.yaml:1:1\n"
        "\n"
        "  id: x\n"
        "\n"
        "Refers to\n"
        "  accelerator       native-on    a, b\n"
        "                    emulated-on  c\n"
        "  (no such record)  native-on    zz\n");
}
