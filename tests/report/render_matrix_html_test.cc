// The verdict grid as one self-contained HTML page.
#include <catch2/catch.hpp>

#include "qsel/report/browse_report.h"

using namespace qsel;
using ojson = nlohmann::ordered_json;

namespace {

ojson html_grid() {
  ojson cells = {{"sm90", {{"verdict", "native"}, {"reasons", {"vllm picks cutlass (native path)"}}}},
                {"sm80", {{"verdict", "contested"}, {"reasons", {"a <script> says \"no\"", "vllm-quant-matrix marks it Y"}}}}};
  return {{"verdicts", true},
          {"vendor", "nvidia"},
          {"legend", {{"native", "n"}, {"dequant", "d"}, {"emulated", "e"}, {"contested", "c"}, {"unsupported", "u"}, {"unknown", "k"}}},
          {"targets", {{{"id", "sm90"}, {"name", "Hopper"}, {"vendor", "nvidia"}}, {{"id", "sm80"}, {"name", "Ampere"}, {"vendor", "nvidia"}}}},
          {"formats", {{{"id", "fp8<x>"}, {"name", "FP8 & co"}, {"regime", "w8a8"}, {"cells", cells}}}},
          {"formats_left_out", {"ternary"}},
          {"targets_left_out", ojson::array()}};
}

}  // namespace

TEST_CASE("render_matrix_html: one self-contained page, every record string escaped, contested cells footnoted", "[report][matrix]") {
  std::string h = render_matrix_html(html_grid());
  CHECK(h.rfind("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">", 0) == 0);
  CHECK(h.find("<script") == std::string::npos);  // the record's "<script>" is text
  CHECK(h.find("a &lt;script&gt; says &quot;no&quot;") != std::string::npos);
  CHECK(h.find("src=") == std::string::npos);      // nothing loaded from elsewhere
  CHECK(h.find("http") == std::string::npos);
  CHECK(h.find("<th class=\"f\" title=\"FP8 &amp; co\">fp8&lt;x&gt;</th>") != std::string::npos);
  CHECK(h.find("<td class=\"v-native\" title=\"fp8&lt;x&gt; on sm90: native&#10;vllm picks cutlass (native path)\">N</td>") !=
        std::string::npos);
  CHECK(h.find("<td class=\"v-contested\" title=\"fp8&lt;x&gt; on sm80: contested&#10;a &lt;script&gt; says &quot;no&quot;&#10;vllm-quant-matrix "
               "marks it Y\">C<sup>1</sup></td>") != std::string::npos);
  CHECK(h.find("<h2>Contested cells</h2>\n<ol>\n<li><b>fp8&lt;x&gt; on sm80</b>: a &lt;script&gt; says &quot;no&quot;; vllm-quant-matrix marks it Y</li>") !=
        std::string::npos);
  CHECK(h.find("<p>No target serves or refuses: ternary.</p>") != std::string::npos);
  CHECK(matrix_html_color("native") == "#16a34a");
  CHECK(h.find("td.v-native{background:#16a34a}") != std::string::npos);
  CHECK(h.ends_with("</body>\n</html>\n"));
}
