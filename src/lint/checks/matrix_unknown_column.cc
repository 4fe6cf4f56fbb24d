// QS019: a matrix row's cell names a column the matrix does not define.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/json_number.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS019", "matrix-unknown-column", Severity::Error, false,
    "A support-matrix cell is keyed by a column the matrix does not define.",
    {R"(A matrix record where a row's `cells` has a key that is not the `key` of any entry in `columns`.)",
     R"(A cell under an unknown column is invisible: `qsel matrix` and the advisor read cells through the column's format mapping, so the Y or "." is silently lost — usually after a column was renamed and one row was missed.)",
     R"(# matrices/trtllm-quant-matrix.yaml
columns:
- {key: fp8-rowwise, label: FP8(rowwise), formats: [fp8-rowwise]}
rows:
- key: hopper
  match: {targets: [sm90]}
  cells: {fp8-rowwize: "Y"})",
     R"(matrices/trtllm-quant-matrix.yaml:7:11: error: cell "fp8-rowwize" of row hopper names no column; did you mean "fp8-rowwise"? [QS019 matrix-unknown-column])",
     R"(Rename the cell key to the column's key, or add the column (with the format ids it maps to) if the matrix really has one more column.)"}};

void check_row(CheckContext& c, const Record& r, const std::vector<std::string>& columns, std::size_t i) {
  const json& row = r.data["rows"][i];
  if (!row.contains("cells") || !row["cells"].is_object()) return;
  for (const auto& [key, _] : row["cells"].items()) {
    if (std::find(columns.begin(), columns.end(), key) != columns.end()) continue;
    auto near = nearest(key, columns, 1);
    std::string ptr = fmt::format("/rows/{}/cells/{}", i, key);
    Finding& f = c.report(r, ptr, fmt::format("cell {} of row {} names no column{}", quote_value(key),
                                              row.value("key", std::to_string(i)),
                                              near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near[0])));
    f.mark = r.marks.key_or_value(ptr);
  }
}

void check_record(CheckContext& c, const Record& r) {
  std::vector<std::string> columns;
  for (const json& col : array_field(r.data, "columns")) columns.push_back(col.value("key", ""));
  const json& rows = field(r, "rows");
  for (std::size_t i = 0; rows.is_array() && i < rows.size(); ++i) check_row(c, r, columns, i);
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Matrix) check_record(c, r);
}

}  // namespace

Check matrix_unknown_column() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
