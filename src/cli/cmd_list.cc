// qsel list [KIND] [filters]: parses the flags; explain/browse.h answers, report/ renders.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "browse_args.h"
#include "commands.h"
#include "qsel/explain/browse.h"
#include "qsel/cli/context.h"
#include "qsel/core/text.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/render.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

std::optional<Kind> kind_arg(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (auto k = parse_kind(text)) return k;
  std::vector<std::string> names;
  for (const auto& i : all_kinds()) names.push_back(i.plural);
  auto near = nearest(to_lower(text), names, 1);
  throw UsageError(fmt::format("unknown kind {}{}", quote_value(text),
                               near.empty() ? "; run `qsel list` for the kinds" : fmt::format("; did you mean \"{}\"?", near[0])));
}

}  // namespace

Runner setup_list(CLI::App& sub, Context& ctx) {
  auto kind = std::make_shared<std::string>();
  sub.add_option("kind", *kind, "Record kind, singular or plural (formats, accelerators, targets, kernels, engines, "
                                "matrices, benchmarks, gotchas, models, techniques, facts, questions)");
  auto filters = std::make_shared<ListFilters>();
  for (const auto& spec : list_filters()) sub.add_option(spec.flag, (*filters).*spec.value, spec.help);
  return [kind, filters, &ctx]() {
    require_format(ctx, "list");
    ListEnums enums{schema_enum(ctx, "format", "/properties/regime/enum"), schema_enum(ctx, "gotcha", "/properties/severity/enum"),
                    schema_enum(ctx, "accelerator", "/definitions/vendor/enum")};
    ojson result = list_answer(ctx.graph(), kind_arg(*kind), *filters, enums);
    if (ctx.json()) ctx.print_json(versioned(result));
    else if (ctx.format == "markdown") *ctx.out << render_list_markdown(terminal_safe(result));
    else *ctx.out << render_list(terminal_safe(result), ctx.style());
    return 0;
  };
}

}  // namespace qsel
