// Renderers for recommend and explain. They format the command's JSON result
// (the same object --format json prints) and never compute.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "qsel/report/style.h"
#include "qsel/rules/choice_chart.h"

namespace qsel {

// "blocker (silent)" for a warning object, coloured by severity.
std::string severity_text(const nlohmann::ordered_json& warning, const Style& st);

// `top` rows (candidates that differ only by engine share a row); `verbose`
// lists conditional warnings and Rule 7 exclusions one by one.
std::string render_recommend_text(const nlohmann::ordered_json& r, const Style& st, std::size_t top, bool verbose = false);
std::string render_recommend_markdown(const nlohmann::ordered_json& r, std::size_t top, bool verbose = false);
// The choice as a picture (render_recommend_html.cc): one self-contained HTML page (the
// quality x speed chart, the memory bars, the table), or the chart alone as an SVG document.
// `chart` is rules/choice_chart.h's layout of the same candidates (ranks index `r`'s).
std::string render_recommend_html(const nlohmann::ordered_json& r, const ChoiceChart& chart);
std::string render_recommend_svg(const nlohmann::ordered_json& r, const ChoiceChart& chart);
std::string render_explain_text(const nlohmann::ordered_json& r, const Style& st);

}  // namespace qsel
