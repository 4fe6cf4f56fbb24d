// qsel recommend --format html|svg: the choice as a picture. One self-contained page (no
// script, no font, no image, nothing fetched) with every candidate placed by its quality
// estimate (error bars: the 80% band) against its forecast decode speed, the memory bars
// against the budget and the candidate table; --format svg is the chart alone. The page
// lays out what rules/choice_chart.cc decided (scales, frontier, what is left out) and
// the recommend JSON's text; every string is escaped for HTML and XML alike.
#include <algorithm>

#include <fmt/format.h>

#include "qsel/report/advice_report.h"
#include "qsel/report/browse_report.h"
#include "qsel/report/render.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {
namespace page {  // its own names: the report sources build as one unit

std::string h(std::string_view s) { return html_escape(s); }

const ojson& field(const ojson& o, const char* key) {
  static const ojson none;
  if (!o.is_object()) return none;
  auto it = o.find(key);
  return it == o.end() ? none : *it;
}

// A JSON value as escaped text: numbers without trailing zeros, null as "-".
std::string text(const ojson& v) { return h(cell_text(v)); }

const ojson& candidate(const ojson& r, std::size_t rank) {
  static const ojson none = ojson::object();
  const ojson& all = field(r, "candidates");
  return all.is_array() && rank >= 1 && rank <= all.size() ? all[rank - 1] : none;
}

std::string engine_shown(const ojson& c) {
  const ojson& label = field(c, "engine_label");
  return label.is_string() ? label.get<std::string>() : field(c, "engine").is_string() ? field(c, "engine").get<std::string>() : "none";
}

// "#3 fp8 · vllm" (escaped).
std::string name_of(const ojson& c) { return h(fmt::format("#{} {} · {}", cell_text(field(c, "rank")), cell_text(field(c, "format")), engine_shown(c))); }

// Colours of the engines (a slot each, in order of first appearance) and of the fits.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
const char* engine_color(std::size_t slot) { return kPalette[slot % std::size(kPalette)]; }

const char* fit_color(const std::string& fit) {
  if (fit == "yes") return "#16a34a";
  if (fit == "tight") return "#f59e0b";
  if (fit == "offload") return "#2563eb";
  if (fit == "slow") return "#6b7280";
  return "#dc2626";
}

// Chart geometry (px): the plot area, the legend to its right.
constexpr double kWidth = 860, kHeight = 520, kLeft = 70, kRight = 640, kTop = 24, kBottom = 450, kMaxRadius = 12, kMinRadius = 3;
double px(double at) { return kLeft + at * (kRight - kLeft); }
double py(double at) { return kBottom - at * (kBottom - kTop); }

const ChartPoint* point_of(const ChoiceChart& ch, std::size_t rank) {
  for (const auto& p : ch.points)
    if (p.rank == rank) return &p;
  return nullptr;
}

std::string chart_svg(const ojson& r, const ChoiceChart& ch, bool standalone) {
  std::string out = standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : "";
  // the namespace is XML's name for SVG, never fetched; inside HTML the parser knows <svg> without it
  out += fmt::format("<svg{0} id=\"chart\" width=\"{1:g}\" height=\"{2:g}\" viewBox=\"0 0 {1:g} {2:g}\" "
                     "font-family=\"Helvetica,Arial,sans-serif\" font-size=\"12\" role=\"img\">\n",
                     standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", kWidth, kHeight);
  out += fmt::format("<title>{}</title>\n", h("qsel recommend: quality estimate against forecast decode speed"));
  out += fmt::format("<rect x=\"0\" y=\"0\" width=\"{:g}\" height=\"{:g}\" fill=\"#ffffff\"/>\n", kWidth, kHeight);
  // axes, ticks and grid
  out += "<g id=\"axes\" stroke=\"#9ca3af\" fill=\"#374151\">\n";
  out += fmt::format("<line x1=\"{0:g}\" y1=\"{1:g}\" x2=\"{2:g}\" y2=\"{1:g}\"/><line x1=\"{0:g}\" y1=\"{3:g}\" x2=\"{0:g}\" y2=\"{1:g}\"/>\n", kLeft, kBottom,
                     kRight, kTop);
  for (const auto& t : ch.x_ticks)
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:g}\" x2=\"{0:.1f}\" y2=\"{2:g}\" stroke=\"#e5e7eb\"/><text x=\"{0:.1f}\" y=\"{3:g}\" "
                       "text-anchor=\"middle\" stroke=\"none\">{4}</text>\n",
                       px(t.at), kTop, kBottom, kBottom + 16, h(t.label));
  for (const auto& t : ch.y_ticks)
    out += fmt::format("<line x1=\"{0:g}\" y1=\"{2:.1f}\" x2=\"{1:g}\" y2=\"{2:.1f}\" stroke=\"#e5e7eb\"/><text x=\"{3:g}\" y=\"{4:.1f}\" "
                       "text-anchor=\"end\" stroke=\"none\">{5}</text>\n",
                       kLeft, kRight, py(t.at), kLeft - 6, py(t.at) + 4, h(t.label));
  out += fmt::format("<text x=\"{:g}\" y=\"{:g}\" text-anchor=\"middle\" stroke=\"none\">{}</text>\n", (kLeft + kRight) / 2, kBottom + 36, h(ch.x_label));
  out += fmt::format("<text x=\"16\" y=\"{0:g}\" text-anchor=\"middle\" stroke=\"none\" transform=\"rotate(-90 16 {0:g})\">{1}</text>\n",
                     (kTop + kBottom) / 2, h(ch.y_label));
  out += "</g>\n";
  if (ch.points.empty())
    out += fmt::format("<text id=\"empty\" x=\"{:g}\" y=\"{:g}\" text-anchor=\"middle\" fill=\"#374151\">{}</text>\n", (kLeft + kRight) / 2, (kTop + kBottom) / 2,
                       h("no candidate has both a quality estimate and a speed forecast"));
  // the frontier under the markers
  if (!ch.frontier.empty()) {
    out += "<g id=\"frontier\" fill=\"none\" stroke=\"#111827\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\">\n<polyline points=\"";
    std::string sep;
    for (std::size_t rank : ch.frontier)
      if (const ChartPoint* p = point_of(ch, rank)) {
        out += fmt::format("{}{:.1f},{:.1f}", sep, px(p->x), py(p->y));
        sep = " ";
      }
    out += "\"/>\n</g>\n";
  }
  // error bars, then markers, largest first so small ones stay visible
  out += "<g id=\"bands\" fill=\"none\" stroke=\"#6b7280\" stroke-width=\"1\">\n";
  for (const auto& p : ch.points)
    if (p.x_high > p.x_low)
      out += fmt::format("<path class=\"band\" data-rank=\"{}\" d=\"M{:.1f} {:.1f}H{:.1f}M{:.1f} {:.1f}v8M{:.1f} {:.1f}v8\"/>\n", p.rank, px(p.x_low), py(p.y),
                         px(p.x_high), px(p.x_low), py(p.y) - 4, px(p.x_high), py(p.y) - 4);
  out += "</g>\n<g id=\"points\">\n";
  std::vector<const ChartPoint*> order;
  for (const auto& p : ch.points) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(), [](const ChartPoint* a, const ChartPoint* b) { return a->size > b->size; });
  for (const ChartPoint* p : order) {
    const ojson& c = candidate(r, p->rank);
    const ojson& forecast = field(c, "forecast");
    std::string tip = fmt::format("{}: quality {} ({}), {} tok/s forecast, {} GB of {} GB, fits: {}{}", name_of(c), text(field(field(c, "quality"), "summary")),
                                  text(field(field(c, "quality"), "band")), text(field(forecast, "decode_tok_s")), text(field(c, "total_gb")),
                                  text(field(c, "budget_gb")), text(field(c, "fit")), p->frontier ? h(", on the frontier") : "");
    const char* color = engine_color(p->engine_slot);
    out += fmt::format("<g class=\"point{}{}\" id=\"point-{}\" data-rank=\"{}\"><title>{}</title><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" "
                       "fill=\"{}\" fill-opacity=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/></g>\n",
                       p->frontier ? " frontier" : "", p->fits ? "" : " nofit", p->rank, p->rank, tip, px(p->x), py(p->y),
                       kMinRadius + p->size * (kMaxRadius - kMinRadius), p->fits ? color : "#ffffff", p->fits ? "0.6" : "1", color);
  }
  out += "</g>\n";
  if (const ChartPoint* top = point_of(ch, 1))
    out += fmt::format("<g id=\"top\" fill=\"none\" stroke=\"#111827\" stroke-width=\"2\"><circle cx=\"{0:.1f}\" cy=\"{1:.1f}\" r=\"{2:.1f}\"/>"
                       "<text x=\"{3:.1f}\" y=\"{4:.1f}\" fill=\"#111827\" stroke=\"none\" font-weight=\"bold\">#1</text></g>\n",
                       px(top->x), py(top->y), kMinRadius + top->size * (kMaxRadius - kMinRadius) + 4,
                       px(top->x) + kMinRadius + top->size * (kMaxRadius - kMinRadius) + 6, py(top->y) - 6);
  // legend: engines, then what the marks mean
  double y = kTop + 4;
  out += fmt::format("<g id=\"legend\" fill=\"#111827\" transform=\"translate({:g} 0)\">\n", kRight + 24);
  for (std::size_t i = 0; i < ch.engines.size(); ++i, y += 18)
    out += fmt::format("<circle cx=\"6\" cy=\"{:g}\" r=\"6\" fill=\"{}\"/><text x=\"18\" y=\"{:g}\">{}</text>\n", y, engine_color(i), y + 4, h(ch.engines[i]));
  y += 8;
  out += fmt::format("<circle cx=\"6\" cy=\"{0:g}\" r=\"5\" fill=\"#ffffff\" stroke=\"#6b7280\" stroke-width=\"1.5\"/><text x=\"18\" y=\"{1:g}\">does not fit</text>\n", y, y + 4);
  y += 18;
  out += fmt::format("<path d=\"M0 {0:g}H12M0 {1:g}v8M12 {1:g}v8\" fill=\"none\" stroke=\"#6b7280\"/><text x=\"18\" y=\"{2:g}\">80% quality band</text>\n", y, y - 4, y + 4);
  y += 18;
  out += fmt::format("<path d=\"M0 {0:g}H12\" fill=\"none\" stroke=\"#111827\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/><text x=\"18\" y=\"{1:g}\">Pareto frontier</text>\n", y, y + 4);
  y += 18;
  out += fmt::format("<text x=\"0\" y=\"{:g}\">marker area: memory</text>\n", y + 4);
  out += "</g>\n</svg>\n";
  return out;
}

std::string memory_svg(const ojson& r, const ChoiceChart& ch) {
  constexpr double kRow = 20, kLabel = 260, kTrack = 420, kAxis = 28;
  double height = kAxis + kRow * static_cast<double>(ch.bars.size()) + 8;
  double left = kLabel, right = kLabel + kTrack;
  std::string out = fmt::format("<svg id=\"memory\" width=\"{0:g}\" height=\"{1:g}\" viewBox=\"0 0 {0:g} {1:g}\" "
                                "font-family=\"Helvetica,Arial,sans-serif\" font-size=\"12\">\n",
                                right + 200, height);
  for (const auto& t : ch.memory_ticks)
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:g}\" x2=\"{0:.1f}\" y2=\"{2:g}\" stroke=\"#e5e7eb\"/><text x=\"{0:.1f}\" y=\"{3:g}\" "
                       "text-anchor=\"middle\" fill=\"#374151\">{4}</text>\n",
                       left + t.at * kTrack, kAxis - 6, height, kAxis - 10, h(t.label));
  out += fmt::format("<text x=\"{:g}\" y=\"{:g}\" text-anchor=\"end\" fill=\"#374151\">GB</text>\n", left - 8, kAxis - 10);
  double y = kAxis;
  for (const auto& b : ch.bars) {
    const ojson& c = candidate(r, b.rank);
    std::string fit = field(c, "fit").is_string() ? field(c, "fit").get<std::string>() : "no";
    out += fmt::format("<g class=\"bar\" id=\"bar-{}\" data-rank=\"{}\"><title>{}: {} GB of a {} GB budget, fits: {}</title>"
                       "<text x=\"{:g}\" y=\"{:g}\" text-anchor=\"end\" fill=\"#111827\">{}</text>"
                       "<rect x=\"{:g}\" y=\"{:g}\" width=\"{:.1f}\" height=\"{:g}\" fill=\"{}\"/>"
                       "<line class=\"budget\" x1=\"{:.1f}\" y1=\"{:g}\" x2=\"{:.1f}\" y2=\"{:g}\" stroke=\"#111827\" stroke-width=\"2\"/>"
                       "<text x=\"{:g}\" y=\"{:g}\" fill=\"#374151\">{} / {} GB</text></g>\n",
                       b.rank, b.rank, name_of(c), text(field(c, "total_gb")), text(field(c, "budget_gb")), h(fit), left - 8, y + 14, name_of(c), left, y + 3,
                       b.total * kTrack, kRow - 6, fit_color(fit), left + b.budget * kTrack, y, left + b.budget * kTrack, y + kRow, right + 8, y + 14,
                       text(field(c, "total_gb")), text(field(c, "budget_gb")));
    y += kRow;
  }
  return out + "</svg>\n";
}

std::string html_page(const ojson& r, const ChoiceChart& chart) {
  const ojson& acc = field(r, "accelerator");
  const ojson& model = field(r, "model");
  const ojson& query = field(r, "query");
  std::string title = fmt::format("qsel recommend: {} on {} x {}", cell_text(field(model, "id")), cell_text(field(acc, "count")), cell_text(field(acc, "name")));
  std::string css = "body{font:13px Helvetica,Arial,sans-serif;margin:16px;color:#111827;max-width:1100px}"
                    "h2{font-size:16px;margin-top:28px}table{border-collapse:collapse}"
                    "th,td{border:1px solid #e5e7eb;padding:3px 6px;text-align:left;vertical-align:top}"
                    "td.n{text-align:right}tr.top{background:#fef9c3}.note{color:#4b5563}";
  std::string out = fmt::format("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n",
                                h(title), css);
  out += fmt::format("<p class=\"query\">objective {}, context {} tokens, batch {}; {} candidates.</p>\n", text(field(query, "objective")),
                     text(field(query, "context")), text(field(query, "batch")), field(r, "candidates").size());
  for (const auto& l : field(r, "lead")) out += fmt::format("<p class=\"lead\"><b>{}</b></p>\n", text(l));
  out += "<h2>Quality against speed</h2>\n";
  out += chart_svg(r, chart, false);
  out += fmt::format("<p class=\"note\">{}. Ringed: #1. Hover a marker for its figures.</p>\n", h(chart.frontier_note));
  if (!chart.left_out.empty()) {
    out += "<h3>Not on the chart</h3>\n<ul id=\"left-out\">\n";
    for (const auto& l : chart.left_out)
      out += fmt::format("<li data-rank=\"{}\">{}: {}</li>\n", l.rank, name_of(candidate(r, l.rank)), h(l.reason));
    out += "</ul>\n";
  }
  out += "<h2>Memory against the budget</h2>\n<p class=\"note\">Each bar is the candidate's total (weights, KV cache, overhead); "
         "the black tick is its engine's budget on this machine. Colour: the fit (green fits, amber tight, blue offload, grey slow, red does not fit).</p>\n";
  out += memory_svg(r, chart);
  if (!chart.unsized.empty()) {
    out += "<p class=\"note\">Not sized: ";
    for (std::size_t i = 0; i < chart.unsized.size(); ++i) out += (i ? ", " : "") + name_of(candidate(r, chart.unsized[i]));
    out += ".</p>\n";
  }
  out += "<h2>Candidates</h2>\n<table id=\"candidates\">\n<thead><tr><th>#</th><th>format</th><th>engine</th><th>path</th><th>quality</th>"
         "<th>band</th><th>tok/s</th><th>total GB</th><th>budget GB</th><th>fit</th></tr></thead>\n<tbody>\n";
  for (const auto& c : field(r, "candidates")) {
    const ojson& q = field(c, "quality");
    out += fmt::format("<tr id=\"row-{0}\"{1}><td class=\"n\">{0}</td><td title=\"{2}\">{3}</td><td>{4}</td><td>{5}</td><td title=\"{6}\">{7}</td>"
                       "<td>{8}</td><td class=\"n\">{9}</td><td class=\"n\">{10}</td><td class=\"n\">{11}</td><td>{12}</td></tr>\n",
                       text(field(c, "rank")), field(c, "rank") == 1 ? " class=\"top\"" : "", text(field(c, "format_name")), text(field(c, "format")),
                       h(engine_shown(c)), text(field(c, "path")), text(field(q, "statement")), text(field(q, "summary")), text(field(q, "band")),
                       text(field(field(c, "forecast"), "decode_tok_s")), text(field(c, "total_gb")), text(field(c, "budget_gb")), text(field(c, "fit")));
  }
  out += "</tbody>\n</table>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace page
}  // namespace

std::string render_recommend_svg(const ojson& r, const ChoiceChart& chart) { return page::chart_svg(r, chart, true); }
std::string render_recommend_html(const ojson& r, const ChoiceChart& chart) { return page::html_page(r, chart); }

}  // namespace qsel
