#include <catch2/catch.hpp>

#include "support/browse_corpus.h"
#include "support/fixtures.h"

using qsel::test::run_cli;
using qsel::test::Small;
using nlohmann::json;

namespace {


json run_json(std::vector<std::string> args) {
  args.insert(args.begin(), {"--format", "json"});
  auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  REQUIRE(r.err.empty());
  return json::parse(r.out);
}

const json& row(const json& grid, const std::string& key) {
  for (const auto& r : grid["rows"])
    if (r["key"] == key) return r;
  FAIL("no row " << key);
  throw;
}

}  // namespace

TEST_CASE("cmd_matrix: an engine's matrix as a grid, exactly", "[cli][matrix]") {
  Small s;
  auto r = s.run({"matrix", "--engine", "the engine"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out ==
        "mx  The Matrix\n"
        "  engine   eng (The Engine)\n"
        "  version  v1\n"
        "\n"
        "                A Very\n"
        "                Long\n"
        "                Column\n"
        "         Col X  Label   targets\n"
        "Row New  Y      Y*      t-new\n"
        "Row Old  .      .       t-old\n"
        "\n"
        "footnotes\n"
        "  *  Not fmt-y. (excludes fmt-y)\n"
        "\n"
        "not covered\n"
        "  No AMD row. (t-amd)\n"
        "\n"
        "source: test source <https://example.org/mx>\n");
}

TEST_CASE("cmd_matrix: --gpu selects the row that covers the part's target, or says it is not covered", "[cli][matrix]") {
  Small s;
  auto hit = s.run({"matrix", "--engine", "eng", "--gpu", "new gpu"});
  CHECK(hit.code == 0);
  CHECK(hit.out ==
        "mx  The Matrix\n"
        "  engine   eng (The Engine)\n"
        "  version  v1\n"
        "  gpu      gpu-new (New GPU), target t-new [\"new gpu\" is an alias of gpu-new]: row Row New\n"
        "\n"
        "                A Very\n"
        "                Long\n"
        "                Column\n"
        "         Col X  Label   targets\n"
        "Row New  Y      Y*      t-new\n"
        "\n"
        "footnotes\n"
        "  *  Not fmt-y. (excludes fmt-y)\n"
        "\n"
        "source: test source <https://example.org/mx>\n");

  auto old = s.run({"--format", "json", "matrix", "--engine", "eng", "--gpu", "gpu-old"});
  auto j = json::parse(old.out);
  CHECK(j["gpu"]["rows"] == json::array({"rb"}));
  CHECK(j["footnotes"].empty());  // no selected cell carries "*"

  auto amd = s.run({"matrix", "--engine", "eng", "--gpu", "gpu-amd"});
  CHECK(amd.code == 0);
  CHECK(amd.out ==
        "mx  The Matrix\n"
        "  engine   eng (The Engine)\n"
        "  version  v1\n"
        "  gpu      gpu-amd (AMD GPU), target t-amd: not covered by this matrix\n"
        "\n"
        "not covered\n"
        "  No AMD row.\n"
        "\n"
        "source: test source <https://example.org/mx>\n");

  auto target = s.run({"--format", "json", "matrix", "--engine", "eng", "--gpu", "t-new"});
  CHECK(json::parse(target.out)["gpu"]["accelerator"].is_null());
  CHECK(json::parse(target.out)["gpu"]["target"] == "t-new");
}

TEST_CASE("cmd_matrix: without --engine, the matrix records are listed", "[cli][matrix]") {
  Small s;
  auto r = s.run({"matrix"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "id  engine  rows  columns  name\n"
        "mx  eng     2     2        The Matrix\n"
        "1 matrices; `qsel matrix --engine ENGINE` draws one\n");
  auto j = json::parse(s.run({"--format", "json", "matrix"}).out);
  CHECK(j["count"] == 1);
  CHECK(j["matrices"][0]["id"] == "mx");
}

TEST_CASE("cmd_matrix: the derived grid of formats x parts", "[cli][matrix]") {
  Small s;
  auto r = s.run({"matrix", "--derived"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "formats x parts from the format records: N = native_support, E = emulated_support\n"
        "\n"
        "              g  g\n"
        "              p  p\n"
        "              u  u\n"
        "              -  -\n"
        "              n  o\n"
        "              e  l\n"
        "              w  d\n"
        "fmt-x  w4a16  N  E\n"
        "fmt-y  w4a4   E  ·\n"
        "2 formats x 2 parts\n"
        "no format record names gpu-amd\n");
  auto j = json::parse(s.run({"--format", "json", "matrix", "--derived", "--vendor", "nvidia"}).out);
  CHECK(j["vendor"] == "nvidia");
  CHECK(j["parts"].size() == 2);
  CHECK(j["formats"][0]["cells"] == json{{"gpu-new", "N"}, {"gpu-old", "E"}});
  CHECK(j["unlisted"].empty());
  auto one = json::parse(s.run({"--format", "json", "matrix", "--derived", "--gpu", "gpu-old"}).out);
  CHECK(one["parts"].size() == 1);
  CHECK(one["formats"].size() == 1);
}

TEST_CASE("cmd_matrix: CSV and Markdown forms", "[cli][matrix]") {
  Small s;
  auto csv = s.run({"--format", "csv", "matrix", "--engine", "eng"});
  CHECK(csv.code == 0);
  CHECK(csv.out ==
        "row,label,Col X,A Very Long Column Label,targets\n"
        "ra,Row New,Y,Y*,t-new\n"
        "rb,Row Old,.,.,t-old\n");
  auto derived = s.run({"--format", "csv", "matrix", "--derived"});
  CHECK(derived.out == "format,regime,gpu-new,gpu-old\nfmt-x,w4a16,N,E\nfmt-y,w4a4,E,\n");
  auto md = s.run({"--format", "markdown", "matrix", "--engine", "eng"});
  CHECK(md.code == 0);
  CHECK(md.out ==
        "**mx** — The Matrix (engine eng)\n"
        "\n"
        "| label | Col X | A Very Long Column Label | targets |\n"
        "| --- | --- | --- | --- |\n"
        "| Row New | Y | Y\\* | t-new |\n"
        "| Row Old | . | . | t-old |\n"
        "\n"
        "- \\*: Not fmt-y. (excludes fmt-y)\n"
        "- Not covered: No AMD row.\n"
        "\n"
        "Source: [test source](<https://example.org/mx>)\n");
}

TEST_CASE("cmd_matrix: bad input exits 2 with one line", "[cli][matrix]") {
  Small s;
  struct Case { std::vector<std::string> args; std::string err; };
  std::vector<Case> cases = {
      {{"matrix", "--engine", "engg"}, "qsel: error: unknown engine \"engg\"; did you mean \"eng\"?\n"},
      {{"matrix", "--engine", "eng-bare"}, "qsel: error: engine eng-bare has no matrix record; matrices exist for eng\n"},
      {{"matrix", "--engine", "eng", "--gpu", "gpu-nwe"}, "qsel: error: unknown GPU \"gpu-nwe\"; did you mean \"gpu-new\"?\n"},
      {{"matrix", "--derived", "--engine", "eng"},
       "qsel: error: --derived is built from the format records, not from an engine's matrix; drop --engine\n"},
      {{"matrix", "--vendor", "amd"}, "qsel: error: --vendor applies to the derived or verdict grid; add --derived or --verdicts\n"},
      {{"matrix", "--derived", "--vendor", "nvidai"}, "qsel: error: unknown vendor \"nvidai\"; did you mean \"nvidia\"?\n"},
      {{"--format", "dot", "matrix"}, "qsel: error: `qsel matrix` does not support --format dot; use text, json, csv, markdown, html\n"},
  };
  for (const auto& c : cases) {
    auto r = s.run(c.args);
    INFO(c.args[1]);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == c.err);
  }
}

TEST_CASE("cmd_matrix: the embedded TensorRT-LLM matrix, sm120 row and uncovered sm121", "[cli][matrix]") {
  auto grid = run_json({"matrix", "--engine", "trtllm"});
  CHECK(grid["matrix"] == "trtllm-quant-matrix");
  const json& sm120 = row(grid, "blackwell-sm120");
  CHECK(sm120["targets"] == json::array({"sm120"}));
  CHECK(sm120["cells"]["nvfp4"] == "Y");
  CHECK(sm120["cells"]["w4a16-awq"] == ".");
  CHECK(row(grid, "blackwell-sm100-103")["targets"] == json::array({"sm100", "sm103"}));

  auto spark = run_json({"matrix", "--engine", "trtllm", "--gpu", "dgx-spark"});
  CHECK(spark["gpu"]["target"] == "sm121");
  CHECK(spark["gpu"]["covered"] == false);
  REQUIRE(spark["gpu"]["uncovered_notes"].size() == 1);
  CHECK(spark["gpu"]["uncovered_notes"][0].get<std::string>().find("sm121") == 0);
}

TEST_CASE("cmd_matrix: vLLM has no Blackwell column, Turing's Marlin cell carries the footnote", "[cli][matrix]") {
  auto r = run_cli({"matrix", "--engine", "vllm", "--gpu", "rtx5090"});
  CHECK(r.code == 0);
  CHECK(r.out.find("target sm120: not covered by this matrix") != std::string::npos);
  CHECK(r.out.find("the table has no Blackwell column") != std::string::npos);

  auto t4 = run_json({"matrix", "--engine", "vllm", "--gpu", "t4"});
  CHECK(t4["gpu"]["rows"] == json::array({"turing"}));
  CHECK(row(t4, "turing")["cells"]["marlin"] == "Y*");
  REQUIRE(t4["footnotes"].size() == 1);
  CHECK(t4["footnotes"][0]["mark"] == "*");
}

TEST_CASE("cmd_matrix: every embedded matrix renders in every form, --gpu alone walks all matrices", "[cli][matrix]") {
  for (const char* engine : {"trtllm", "vllm"})
    for (const char* format : {"text", "json", "csv", "markdown"}) {
      auto r = run_cli({"--format", format, "matrix", "--engine", engine});
      INFO(engine << " " << format);
      CHECK(r.code == 0);
      CHECK(r.err.empty());
      CHECK(!r.out.empty());
    }
  auto all = run_json({"matrix", "--gpu", "h100"});
  REQUIRE(all["grids"].size() >= 2);
  for (const auto& g : all["grids"]) CHECK(g["gpu"]["accelerator"] == "h100-sxm");
  auto csv = run_cli({"--format", "csv", "matrix", "--gpu", "h100"});
  CHECK(csv.code == 2);
  CHECK(csv.err == "qsel: error: --format csv writes one grid; choose the matrix with --engine\n");
}

TEST_CASE("cmd_matrix: the derived grid on the embedded corpus", "[cli][matrix]") {
  auto amd = run_json({"matrix", "--derived", "--vendor", "amd"});
  for (const auto& p : amd["parts"]) CHECK(p["vendor"] == "amd");
  auto h100 = run_json({"matrix", "--derived", "--gpu", "h100-sxm"});
  REQUIRE(h100["parts"].size() == 1);
  bool nvfp4_emulated = false;
  for (const auto& f : h100["formats"])
    if (f["id"] == "nvfp4") nvfp4_emulated = f["cells"]["h100-sxm"] == "E";
  CHECK(nvfp4_emulated);
}

TEST_CASE("cmd_matrix: --verdicts gives explain's verdict in every cell, and --format html draws only that grid", "[cli][matrix]") {
  auto j = nlohmann::json::parse(run_cli({"--format", "json", "matrix", "--verdicts", "--vendor", "nvidia"}).out);
  REQUIRE(j["formats"].size() > 20);
  auto e = nlohmann::json::parse(run_cli({"--format", "json", "explain", "fp8-e4m3", "--on", "sm89"}).out);
  for (const auto& f : j["formats"])
    if (f["id"] == "fp8-e4m3") CHECK(f["cells"]["sm89"]["verdict"] == e["verdict"]);
  auto html = run_cli({"--format", "html", "matrix", "--vendor", "amd"});
  CHECK(html.code == 0);
  CHECK(html.out.rfind("<!doctype html>", 0) == 0);
  auto bad = run_cli({"--format", "html", "matrix", "--engine", "vllm"});
  CHECK(bad.code == 2);
  CHECK(bad.err == "qsel: error: --format html draws qsel's verdict grid (--verdicts); drop --engine, --gpu and --derived, or use "
                   "--format markdown\n");
  auto both = run_cli({"matrix", "--verdicts", "--derived"});
  CHECK(both.code == 2);
}
