#include <catch2/catch.hpp>

#include "qsel/report/browse_report.h"

using namespace qsel;

namespace {

ojson text_grid() {
  return ojson::parse(R"({
    "matrix": "m", "name": "M", "engine": "e", "engine_name": null, "version": null, "file": "m.yaml",
    "source": {"title": "T", "url": null},
    "columns": [{"key": "a", "label": "A", "formats": [], "kernel": null},
                {"key": "b", "label": "Bee Bee", "formats": [], "kernel": null}],
    "rows": [{"key": "r1", "label": "R1", "targets": ["t1", "t2"], "cells": {"a": "Y", "b": "."}},
             {"key": "r2", "label": "R2", "targets": [], "cells": {"a": "Y†", "b": null}}],
    "footnotes": [], "uncovered": []})");
}

}  // namespace

TEST_CASE("render_matrix: csv_line quotes only what needs quoting", "[report][matrix]") {
  CHECK(csv_line({"a", "b c", ""}) == "a,b c,\n");
  CHECK(csv_line({"x,y", "say \"hi\"", "two\nlines"}) == "\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\"\n");
}

TEST_CASE("render_matrix: markdown_table escapes pipes and asterisks", "[report][matrix]") {
  CHECK(markdown_table({"h1", "h|2"}, {{"Y*", "a\nb"}}) == "| h1 | h\\|2 |\n| --- | --- |\n| Y\\* | a b |\n");
}

TEST_CASE("render_matrix: record text is inert in Markdown, only http(s) URLs become links", "[report][matrix]") {
  CHECK(markdown_escape("[click](javascript:x) <img src=x> _a_ `b` \\ |") ==
        "\\[click\\](javascript:x) \\<img src=x\\> \\_a\\_ \\`b\\` \\\\ \\|");
  CHECK(markdown_escape("a\x1b[31mred\x07\r\nb") == "a \\[31mred   b");
  CHECK(markdown_url("https://example.org/a b<c>") == "https://example.org/a%20b%3Cc%3E");
  CHECK(markdown_url("javascript:alert(1)") == "#");
  CHECK(markdown_url("") == "#");
}

TEST_CASE("render_matrix: wrap_label breaks after spaces, slashes and hyphens, before parentheses", "[report][matrix]") {
  CHECK(wrap_label("NVFP4", 10) == std::vector<std::string>{"NVFP4"});
  CHECK(wrap_label("FP8(per tensor)", 10) == std::vector<std::string>{"FP8(per", "tensor)"});
  CHECK(wrap_label("Marlin (GPTQ/AWQ/FP8/FP4)", 10) == std::vector<std::string>{"Marlin", "(GPTQ/AWQ/", "FP8/FP4)"});
  CHECK(wrap_label("llm-compressor", 10) == std::vector<std::string>{"llm-", "compressor"});
  CHECK(wrap_label("bitsandbytes", 10) == std::vector<std::string>{"bitsandbytes"});  // a long word stays whole
  CHECK(wrap_label("", 10).empty());
}

TEST_CASE("render_matrix: a grid in text, with missing cells shown as '-' and no colour", "[report][matrix]") {
  CHECK(render_matrix(text_grid(), Style{}) ==
        "m  M\n"
        "  engine   e\n"
        "\n"
        "    A   Bee Bee  targets\n"
        "R1  Y   .        t1, t2\n"
        "R2  Y†  -\n"
        "\n"
        "source: T\n");
}

TEST_CASE("render_matrix: colour marks Y green, '.' dim and footnoted cells yellow", "[report][matrix]") {
  std::string out = render_matrix(text_grid(), Style{true});
  CHECK(out.find("\x1b[32mY\x1b[0m") != std::string::npos);
  CHECK(out.find("\x1b[2m.\x1b[0m") != std::string::npos);
  CHECK(out.find("\x1b[33mY†\x1b[0m") != std::string::npos);
}

TEST_CASE("render_matrix: a long list of targets is shortened", "[report][matrix]") {
  ojson g = text_grid();
  g["rows"][0]["targets"] = ojson::array({"a", "b", "c", "d", "e", "f", "g", "h"});
  CHECK(render_matrix(g, Style{}).find("R1  Y   .        a, b, c, d, e, f, … 2 more\n") != std::string::npos);
}

TEST_CASE("render_matrix: CSV and Markdown of a grid", "[report][matrix]") {
  CHECK(render_matrix_csv(text_grid()) == "row,label,A,Bee Bee,targets\nr1,R1,Y,.,t1 t2\nr2,R2,Y†,-,\n");
  CHECK(render_matrix_markdown(text_grid()) ==
        "**m** — M (engine e)\n\n| label | A | Bee Bee | targets |\n| --- | --- | --- | --- |\n"
        "| R1 | Y | . | t1 t2 |\n| R2 | Y† | - |  |\n\nSource: T\n");
}

TEST_CASE("render_matrix: several grids are rendered one after the other", "[report][matrix]") {
  ojson both = {{"grids", ojson::array({text_grid(), text_grid()})}};
  std::string one = render_matrix(text_grid(), Style{});
  CHECK(render_matrix(both, Style{}) == one + "\n" + one);
}
