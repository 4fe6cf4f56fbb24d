// QS004: a GGUF record's weight_group_size must be its ggml type's scale group.
#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/ggml_types.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS004", "kquant-group-size", Severity::Error, true,
    "A GGUF record's weight_group_size is not the scale group of its ggml type (often the 256 super-block).",
    {R"(A record with a `ggml_type` that qsel knows (the ggml block structs in llama.cpp's `ggml-common.h`) whose `weight_group_size` is not the number of weights that share one scale in that type. The usual case is 256 written for a K-quant: 256 is the K-quant super-block, but its scales cover 16 weights (Q2_K, Q3_K, Q6_K) or 32 (Q4_K, Q5_K, IQ4_XS). 256 is right only where one scale covers the whole block: IQ1_S, IQ2_XXS, IQ3_XXS, TQ1_0 and TQ2_0.)",
     R"(Group size is what makes two formats comparable: a reader who sees "group 256" next to AWQ's 128 concludes the GGUF quant is coarser than it is, and a tool that sizes scales from the group size gets the metadata wrong by a factor of 8 to 16. This is the most common numeric error in GGUF records.)",
     R"(# formats/gguf-q4-k-m.yaml
id: gguf-q4-k-m
kind: format
scheme: gguf
ggml_type: Q4_K
weight_group_size: 256)",
     R"(formats/gguf-q4-k-m.yaml:6:20: error: weight_group_size 256 is the Q4_K super-block; its scale group is 32 [QS004 kquant-group-size])",
     R"(Set `weight_group_size` to the type's scale group. `qsel lint --fix` does it, changing only that number in the file; `qsel lint --diff` shows the edit first. The scale group of each type is in `docs/ggml-types.md`, generated from qsel's table of llama.cpp's block structs.)"}};

std::string message(const GgmlType& t, long long size) {
  if (size == t.block_elements && t.scale_group != t.block_elements)
    return fmt::format("weight_group_size {} is the {} super-block; its scale group is {}", size, t.name, t.scale_group);
  return fmt::format("weight_group_size {} does not match the {} block struct; its scale group is {}", size, t.name,
                     t.scale_group);
}

void check_record(CheckContext& c, const Record& r) {
  const GgmlType* type = find_ggml_type(r.str("ggml_type"));
  const json& size = field(r, "weight_group_size");
  if (!type || !size.is_number_integer() || size.get<long long>() == type->scale_group) return;
  Finding& f = c.report(r, "/weight_group_size", message(*type, size.get<long long>()));
  f.fix = Fix{f.mark, std::to_string(size.get<long long>()), std::to_string(type->scale_group)};
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Format) check_record(c, r);
}

}  // namespace

Check kquant_group_size() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
