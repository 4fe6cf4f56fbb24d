// QS005: bits-per-weight against the ggml block struct. A record that keeps two
// disagreeing values on purpose (bpw.contested) is a warning; a stated value
// that contradicts the struct without keeping both is an error.
#include <cmath>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/ggml_types.h"
#include "qsel/core/json_number.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS005", "contested-bpw", Severity::Warning, false,
    "A record keeps two disagreeing bits-per-weight values (warning), or states one that contradicts its block struct (error).",
    {R"(Records with a known `ggml_type` and a `bpw` block. Warning: `bpw.contested` is true and a measured value disagrees with the block-struct figure (bytes x 8 / elements) — the record keeps both on purpose, and the warning lists it so nobody "fixes" one away. Error: `bpw.struct` differs from the struct figure, or `bpw.nominal` does while the record does not mark the value contested (a difference under 0.01 is rounding).)",
     R"(Bits per weight decide memory fit. For a GGUF mixture the struct figure (Q4_K: 144 B x 8 / 256 = 4.5) and the whole-file figure measured on a model (4.89 on Llama-3.1-8B, because some tensors are promoted to Q6_K) are both true and answer different questions; silently keeping one loses information, and a single stated number that matches neither is simply wrong.)",
     R"(# formats/gguf-q4-k-m.yaml
id: gguf-q4-k-m
ggml_type: Q4_K
bpw:
  struct: 4.5
  measured:
  - value: 4.8944
    model: llama-3.1-8b
  contested: true)",
     R"(formats/gguf-q4-k-m.yaml:7:12: warning: bpw is contested: 4.5 (Q4_K block struct) vs 4.89 measured on llama-3.1-8b; both are kept on purpose [QS005 contested-bpw])",
     R"(For the warning: nothing — it is informational; keep both values and the `contested_note` that explains them (select it away with `--ignore QS005` if you do not want to see it). For the error: set `bpw.struct` to bytes x 8 / elements of the block type, or, when a different number is deliberate, keep both values under `measured` and set `bpw.contested: true` with a note saying why.)"}};

// `v` rounded to the fewest significant digits (3 to 6) at which it no longer
// reads like `other` rounded the same way: 4.8944 vs 4.5 -> "4.89", 6.5633 vs 6.5625 -> "6.563".
std::string shown(double v, double other) {
  for (int p = 3; p <= 6; ++p) {
    std::string s = fmt::format("{:.{}g}", v, p);
    if (s != fmt::format("{:.{}g}", other, p)) return s;
  }
  return number_text(v);
}

void contested(CheckContext& c, const Record& r, const GgmlType& t, const json& bpw) {
  const json& measured = array_field(bpw, "measured");
  for (std::size_t i = 0; i < measured.size(); ++i) {
    double v = measured[i].value("value", t.bpw());
    if (v == t.bpw()) continue;
    c.report(r, fmt::format("/bpw/measured/{}/value", i),
             fmt::format("bpw is contested: {} ({} block struct) vs {} measured on {}; both are kept on purpose",
                         number_text(t.bpw()), t.name, shown(v, t.bpw()), measured[i].value("model", "a model")));
    return;
  }
}

void stated(CheckContext& c, const Record& r, const GgmlType& t, const json& bpw, const char* key) {
  const json& v = bpw.value(key, json());
  if (!v.is_number() || std::abs(v.get<double>() - t.bpw()) < 0.01) return;
  Finding& f = c.report(r, fmt::format("/bpw/{}", key),
                        fmt::format("bpw.{} {} contradicts the {} block struct ({} B x 8 / {} = {}) and the record does "
                                    "not keep both as contested",
                                    key, number_text(v.get<double>()), t.name, t.block_bytes, t.block_elements,
                                    number_text(t.bpw())));
  f.severity = Severity::Error;
}

void check_record(CheckContext& c, const Record& r) {
  const GgmlType* type = find_ggml_type(r.str("ggml_type"));
  const json& bpw = field(r, "bpw");
  if (!type || !bpw.is_object()) return;
  bool is_contested = bpw.value("contested", false);
  if (is_contested) contested(c, r, *type, bpw);
  stated(c, r, *type, bpw, "struct");
  if (!is_contested) stated(c, r, *type, bpw, "nominal");
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Format) check_record(c, r);
}

}  // namespace

Check contested_bpw() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
