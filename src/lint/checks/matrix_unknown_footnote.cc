// QS020: a matrix cell cites a footnote the matrix does not define.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS020", "matrix-unknown-footnote", Severity::Error, false,
    "A support-matrix cell cites a footnote mark that the matrix's footnotes do not define.",
    {R"(A matrix cell whose value carries a footnote mark (`Y*`, `†`, `Y‡2`, `.*1`) where that mark — the value without its leading `Y` or `.` — is not a key of the record's `footnotes`.)",
     R"(Footnotes carry the caveats that make a "Y" conditional (vLLM's "Turing does not support Marlin MXFP4"). A mark with no footnote tells the reader there is a condition and hides what it is.)",
     R"(# matrices/vllm-quant-matrix.yaml
rows:
- key: turing
  match: {targets: [sm75]}
  cells: {mxfp4: "Y*"}
footnotes: {}   # "*" is not defined)",
     R"(matrices/vllm-quant-matrix.yaml:5:18: error: cell mxfp4 of row turing cites footnote "*", which footnotes does not define [QS020 matrix-unknown-footnote])",
     R"(Add the footnote text under `footnotes` with the mark as its key (quote it: `"*": Turing does not support Marlin MXFP4.`), or drop the mark from the cell.)"}};

void check_cell(CheckContext& c, const Record& r, const std::string& ptr, const std::string& column,
                const std::string& row, const std::string& value) {
  bool led = !value.empty() && (value[0] == 'Y' || value[0] == '.');  // "Y*1", ".*1": the mark follows the cell
  std::string mark = led ? value.substr(1) : value;
  if (mark.empty() || mark == "." || field(r, "footnotes").contains(mark)) return;
  c.report(r, ptr, fmt::format("cell {} of row {} cites footnote {}, which footnotes does not define", column, row,
                               quote_value(mark)));
}

void check_record(CheckContext& c, const Record& r) {
  const json& rows = field(r, "rows");
  for (std::size_t i = 0; rows.is_array() && i < rows.size(); ++i) {
    const json& cells = rows[i].value("cells", json::object());
    for (const auto& [column, v] : cells.items())
      if (v.is_string())
        check_cell(c, r, fmt::format("/rows/{}/cells/{}", i, column), column, rows[i].value("key", ""), v.get<std::string>());
  }
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Matrix) check_record(c, r);
}

}  // namespace

Check matrix_unknown_footnote() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
