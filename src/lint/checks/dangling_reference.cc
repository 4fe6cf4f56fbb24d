// QS003: every id-valued field (graph/reference_fields.h) must name a record of a kind it may name.
#include <algorithm>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS003", "dangling-reference", Severity::Error, false,
    "An id-valued field names no record, or a record of a kind the field cannot name.",
    {R"(Every field that holds a record id — a benchmark's `format_id`, a format's `native_support` and `emulated_support`, `quality_delta`, a kernel's `formats`, an engine's `kernel_selection` kernels and formats, a matrix's columns and row targets, every target selector, a gotcha's `applies` lists — where the id is not the id of any record, or is the id of a record of the wrong kind (a format listed where an accelerator is expected). The message suggests the nearest id (for the first 256 unknown ids of a run: past that, in a corpus of 100,000 records, the search would cost minutes); an alias is resolved to the record that carries it.)",
     R"(The graph is only as good as its edges. A dangling `format_id` silently drops a benchmark from every answer about its format; a misspelt accelerator in `native_support` makes a part look unsupported. Aliases are for people typing queries, not for records: a record that refers by alias breaks the moment the alias moves.)",
     R"(# benchmarks/bench-mlx-4bit-m3-max-llama.yaml
id: bench-mlx-4bit-m3-max-llama
kind: benchmark
format_id: mlx-quantized-4bit   # an alias of mlx-affine-4bit, not an id)",
     R"(benchmarks/bench-mlx-4bit-m3-max-llama.yaml:4:12: error: format_id "mlx-quantized-4bit" names no record; did you mean "mlx-affine-4bit"? [QS003 dangling-reference])",
     R"(Write the id of the record you mean (`qsel show NAME` resolves aliases and prints the id), or add the missing record. If the target genuinely does not exist yet, leave the field out and say so in `notes` rather than pointing at nothing.)"}};

std::string kinds_text(const ReferenceField& f) {
  if (f.to.empty()) return "record";
  std::string out;
  for (std::size_t i = 0; i < f.to.size(); ++i) out += (i ? " or " : "") + std::string(kind_name(f.to[i]));
  return out;
}

std::string suggestion(const Graph& g, const Edge& e) {
  std::optional<Kind> kind;
  if (e.field && e.field->to.size() == 1) kind = e.field->to[0];
  Resolution res = g.resolve(e.to_id, kind);
  if (res.record) return res.record->id;
  return res.suggestions.empty() ? "" : res.suggestions[0];
}

// Suggestions searched for in one run: each scans every id of the corpus.
constexpr std::size_t kMaxSuggestions = 256;

std::string message(const Graph& g, const Edge& e, std::size_t& searches) {
  std::string field = field_label(e.pointer);
  if (e.wrong_kind) {
    std::string kind = kind_name(g.find(e.to_id)->kind), want = kinds_text(*e.field);
    return fmt::format("{} {} names {} {}, not {} {}", field, quote_value(e.to_id), article(kind), kind, article(want), want);
  }
  std::string hint = searches < kMaxSuggestions ? (++searches, suggestion(g, e)) : "";
  return fmt::format("{} {} names no record{}", field, quote_value(e.to_id),
                     hint.empty() ? "" : fmt::format("; did you mean \"{}\"?", hint));
}

// A reference to a record that failed its schema is not dangling: that record's
// own findings say what is wrong, and one mistake stays one finding.
bool names_unvalidated(const Graph& g, const Edge& e) {
  const RecordStub* s = e.wrong_kind ? nullptr : g.unvalidated(e.to_id);
  if (!s) return false;
  return !e.field || e.field->to.empty() || std::find(e.field->to.begin(), e.field->to.end(), s->kind) != e.field->to.end();
}

void run(CheckContext& c) {
  const Graph& g = c.graph();
  std::size_t searches = 0;
  for (const Edge& e : g.edges())
    if (!e.to && !names_unvalidated(g, e)) c.report(g.record(e.from), e.pointer, message(g, e, searches));
}

}  // namespace

Check dangling_reference() { return {.info = &kInfo, .run = run}; }

}  // namespace qsel::lint_checks
