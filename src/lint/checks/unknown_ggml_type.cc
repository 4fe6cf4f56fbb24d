// QS028: a GGUF record without a ggml type qsel knows.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/text.h"
#include "qsel/core/ggml_types.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS028", "unknown-ggml-type", Severity::Error, false,
    "A GGUF format has no ggml_type, or names a ggml block type qsel does not know.",
    {R"(A format with `scheme: gguf` and no `ggml_type`, or any record whose `ggml_type` or `mixture.base` (the base type alone, no prose) is not one of the ggml block types in qsel's table (`docs/ggml-types.md`, taken from llama.cpp's `ggml-common.h`). The message suggests the nearest known type.)",
     R"(The group-size (QS004) and bits-per-weight (QS005) checks work from the block struct of the record's type; a record without a known type is silently unchecked, and a mixture whose base type is misspelt cannot be sized.)",
     R"(# formats/gguf-q4-k-m.yaml
id: gguf-q4-k-m
scheme: gguf
ggml_type: Q4_KM)",
     R"(formats/gguf-q4-k-m.yaml:4:12: error: ggml_type "Q4_KM" is not a ggml block type qsel knows; did you mean "Q4_K"? [QS028 unknown-ggml-type])",
     R"(Write the base block type (`Q4_K` for Q4_K_M and Q4_K_S: the `_M`/`_S` suffix names a mixture, not a type). If llama.cpp has a type qsel does not know yet, add its struct to qsel's table (`src/core/ggml_types.cc`, listed in `docs/ggml-types.md`) with the struct's source.)"}};

std::vector<std::string> type_names() {
  std::vector<std::string> out;
  for (const GgmlType& t : ggml_types()) out.emplace_back(t.name);
  return out;
}

void check_type(CheckContext& c, const Record& r, const std::string& ptr, const std::string& name) {
  if (find_ggml_type(name)) return;
  auto near = nearest(name, type_names(), 1);
  c.report(r, ptr, fmt::format("{} {} is not a ggml block type qsel knows{}", field_label(ptr), quote_value(name),
                               near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near[0])));
}

void check_record(CheckContext& c, const Record& r) {
  if (r.data.contains("ggml_type")) check_type(c, r, "/ggml_type", r.str("ggml_type"));
  else if (r.str("scheme") == "gguf")
    c.report(r, "/scheme", "a GGUF format needs ggml_type (its base block type) so its group size and bpw can be checked");
  if (std::string base = str_at(r, "/mixture/base"); !base.empty()) check_type(c, r, "/mixture/base", base);
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Format) check_record(c, r);
}

}  // namespace

Check unknown_ggml_type() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
