// recommend --format html|svg: the chart, the memory bars and the table laid out from a
// fixed result and its chart; hostile record text stays text.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "qsel/report/advice_report.h"

using namespace qsel;
using ojson = nlohmann::ordered_json;

namespace {

ojson page_candidate(int rank, const std::string& format, const ojson& engine, const std::string& summary, const ojson& tok_s, double total, const std::string& fit) {
  ojson c = {{"rank", rank}, {"format", format}, {"format_name", format + " name"}, {"engine", engine}, {"path", "native"},
             {"total_gb", total}, {"budget_gb", 70.5}, {"fits", fit != "no"}, {"fit", fit},
             {"quality", {{"summary", summary}, {"band", "small"}, {"statement", "KLD <b>"}}}};
  if (!tok_s.is_null()) c["forecast"] = {{"decode_tok_s", tok_s}};
  return c;
}

ojson page_result() {
  ojson r = {{"accelerator", {{"id", "h100"}, {"name", "H100 <SXM>"}, {"count", 1}}},
             {"model", {{"id", "llama-3.1-70b"}}},
             {"query", {{"objective", "quality"}, {"context", 8192}, {"batch", 1}}},
             {"lead", {"nothing <fits>"}},
             {"candidates",
              {page_candidate(1, "fp8", "<script>alert(1)</script>", "≈0.01", 40.5, 40, "yes"), page_candidate(2, "\"&'", "sglang", "reference", 20, 140, "no"),
               page_candidate(3, "awq", nullptr, "≈0.05", 60, 20, "yes"), page_candidate(4, "q", "vllm", "no estimate", nullptr, 30, "tight")}}};
  r["candidates"][0]["engine_label"] = "<script>alert(1)</script>";
  return r;
}

ChoiceChart page_chart() {
  auto in = [](std::size_t rank, std::string engine, bool known, double cost, double tok_s, double total, bool fits) {
    ChartInput x;
    x.rank = rank;
    x.engine = std::move(engine);
    x.quality_known = known;
    x.cost = cost;
    x.low = cost * 0.5;
    x.high = cost * 2;
    x.tok_s = tok_s;
    x.sized = true;
    x.total_gb = total;
    x.budget_gb = 70.5;
    x.fits = fits;
    if (!known) x.no_quality = "no estimate: <none>";
    return x;
  };
  return choice_chart({in(1, "<script>alert(1)</script>", true, 0.01, 40.5, 40, true), in(2, "sglang", true, 0, 20, 140, false),
                       in(3, "", true, 0.05, 60, 20, true), in(4, "vllm", false, 0, 0, 30, true)});
}

bool page_has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("render_recommend_html: one self-contained page with the chart, the marked #1, the frontier, bars and table", "[report][recommend][html]") {
  std::string h = render_recommend_html(page_result(), page_chart());
  CHECK(h.rfind("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>qsel recommend: llama-3.1-70b on 1 x H100 &lt;SXM&gt;</title>", 0) == 0);
  CHECK(h.ends_with("</table>\n</body>\n</html>\n"));
  // nothing fetched, nothing run: no script, no link, no http(s) reference at all
  CHECK_FALSE(page_has(h, "<script"));
  CHECK_FALSE(page_has(h, "http"));
  CHECK_FALSE(page_has(h, "src="));
  CHECK_FALSE(page_has(h, "href="));
  CHECK_FALSE(page_has(h, "url("));
  CHECK_FALSE(page_has(h, "@import"));
  // the chart: points by rank, #1 ringed, the frontier through #1 and #3 (the only two that fit and are drawn)
  CHECK(page_has(h, "<svg id=\"chart\" width=\"860\" height=\"520\" viewBox=\"0 0 860 520\""));
  CHECK(page_has(h, "<g class=\"point frontier\" id=\"point-1\" data-rank=\"1\"><title>#1 fp8 · &lt;script&gt;alert(1)&lt;/script&gt;: quality ≈0.01 (small), "
               "40.5 tok/s forecast, 40 GB of 70.5 GB, fits: yes, on the frontier</title>"));
  CHECK(page_has(h, "<g class=\"point nofit\" id=\"point-2\" data-rank=\"2\"><title>#2 &quot;&amp;&#39; · sglang:"));
  CHECK(page_has(h, "<g class=\"point frontier\" id=\"point-3\" data-rank=\"3\"><title>#3 awq · none:"));
  CHECK_FALSE(page_has(h, "id=\"point-4\""));
  CHECK(page_has(h, "<g id=\"top\""));
  CHECK(page_has(h, "<g id=\"frontier\""));
  CHECK(page_has(h, "<path class=\"band\" data-rank=\"1\""));
  CHECK_FALSE(page_has(h, "<path class=\"band\" data-rank=\"2\""));  // the reference has no band
  // the legend names each engine, escaped
  CHECK(page_has(h, "<text x=\"18\" y=\"32\">&lt;script&gt;alert(1)&lt;/script&gt;</text>"));
  // left out with the reason
  CHECK(page_has(h, "<ul id=\"left-out\">\n<li data-rank=\"4\">#4 q · vllm: no estimate: &lt;none&gt;</li>\n</ul>"));
  // memory bars: every candidate, its budget marked
  CHECK(page_has(h, "<svg id=\"memory\""));
  for (int rank = 1; rank <= 4; ++rank) CHECK(page_has(h, "<g class=\"bar\" id=\"bar-" + std::to_string(rank) + "\""));
  CHECK(page_has(h, "<title>#2 &quot;&amp;&#39; · sglang: 140 GB of a 70.5 GB budget, fits: no</title>"));
  // the table: a row per candidate, #1 highlighted, hostile text escaped
  CHECK(page_has(h, "<tr id=\"row-1\" class=\"top\"><td class=\"n\">1</td><td title=\"fp8 name\">fp8</td><td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"));
  CHECK(page_has(h, "<tr id=\"row-2\"><td class=\"n\">2</td><td title=\"&quot;&amp;&#39; name\">&quot;&amp;&#39;</td><td>sglang</td>"));
  CHECK(page_has(h, "<td title=\"KLD &lt;b&gt;\">no estimate</td><td>small</td><td class=\"n\">-</td>"));
  CHECK(page_has(h, "<p class=\"lead\"><b>nothing &lt;fits&gt;</b></p>"));
}

TEST_CASE("render_recommend_svg: the chart alone as a well-formed SVG document", "[report][recommend][html]") {
  std::string s = render_recommend_svg(page_result(), page_chart());
  CHECK(s.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"chart\"", 0) == 0);
  CHECK(s.ends_with("</svg>\n"));
  CHECK_FALSE(page_has(s, "<script"));
  CHECK_FALSE(page_has(s, "<!doctype"));
  CHECK(page_has(s, "<g id=\"top\""));
  CHECK(page_has(s, "<g id=\"frontier\""));
  // the only URL is the SVG namespace
  CHECK(s.find("http") == s.find("http://www.w3.org/2000/svg"));
  CHECK(s.find("http", s.find("http") + 1) == std::string::npos);
  const char* xmllint = "/usr/bin/xmllint";
  if (!std::filesystem::exists(xmllint)) {
    WARN("no /usr/bin/xmllint: the SVG is not parsed");
    return;
  }
  auto path = std::filesystem::temp_directory_path() / ("qsel-chart-" + std::to_string(std::rand()) + ".svg");
  std::ofstream(path) << s;
  int rc = std::system((std::string(xmllint) + " --noout '" + path.string() + "' 2>/dev/null").c_str());
  std::filesystem::remove(path);
  CHECK(rc == 0);
}

TEST_CASE("render_recommend_html: no candidate drawable says so on the chart", "[report][recommend][html]") {
  ojson r = page_result();
  std::string s = render_recommend_svg(r, choice_chart({}));
  CHECK(page_has(s, "<text id=\"empty\""));
  CHECK_FALSE(page_has(s, "<g id=\"top\""));
  CHECK_FALSE(page_has(s, "<g id=\"frontier\""));
}
