// qsel explain TOPIC [--on TARGET|GPU] [--engine E]: parses the flags; a lint code is
// its rendered doc (report/rule_doc.h), anything else explain/explain.h answers.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "browse_args.h"
#include "commands.h"
#include "qsel/cli/context.h"
#include "qsel/explain/explain.h"
#include "qsel/lint/registry.h"
#include "qsel/report/advice_report.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/render.h"
#include "qsel/report/rule_doc.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

}  // namespace

Runner setup_explain(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<ExplainRequest>();
  sub.add_option("topic", a->topic, "A record id or alias (nvfp4, h100, machete), rule-1 … rule-7, a lint code (QS004), or a checkpoint folder or .gguf file (its format)")->required();
  sub.add_option("--on", a->on, "For a format: a target (sm120), a part (h100, \"RTX 3090\"), a family (blackwell), or auto (this machine's GPU)");
  sub.add_option("--engine", a->engines, "Restrict to an engine (repeatable)")->delimiter(',');
  return [a, &ctx]() {
    require_format(ctx, "explain");
    for (auto& e : a->engines) e = resolve_engine(ctx.graph(), e).id;
    const RuleInfo* lint = find_rule(a->topic);
    ojson j = lint && !ctx.graph().resolve(a->topic) ? lint_rule_topic(*lint, ctx.style()) : explain_topic(ctx.graph(), *a, ctx.hub());
    if (ctx.json()) ctx.print_json(versioned(j));
    else *ctx.out << render_explain_text(terminal_safe(j, true), ctx.style());
    return 0;
  };
}

}  // namespace qsel
