// qsel matrix: parses the flags; explain/browse.h answers, report/ renders.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "browse_args.h"
#include "commands.h"
#include "qsel/explain/browse.h"
#include "qsel/report/browse_report.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/render.h"

namespace qsel {
using ojson = nlohmann::ordered_json;
namespace {

void print_matrix(Context& ctx, const ojson& result) {
  if (ctx.json()) return ctx.print_json(versioned(result));
  if (ctx.format == "html") {
    *ctx.out << render_matrix_html(result);  // escapes every record string itself
    return;
  }
  if (ctx.format == "csv" && result.contains("grids"))
    throw UsageError("--format csv writes one grid; choose the matrix with --engine");
  if (ctx.format == "csv") *ctx.out << render_matrix_csv(terminal_safe(result));
  else if (ctx.format == "markdown") *ctx.out << render_matrix_markdown(terminal_safe(result));
  else *ctx.out << render_matrix(terminal_safe(result), ctx.style());
}

}  // namespace

Runner setup_matrix(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<MatrixQuery>();
  sub.add_option("--engine", o->engine, "Engine id or alias whose support matrix to draw; a matrix id works too");
  sub.add_option("--gpu", o->gpu, "GPU (id, alias, family or spelling; auto = this machine's) or target: show only the matrix row that covers it");
  sub.add_flag("--derived", o->derived, "Formats x parts derived from the format records' native_support/emulated_support");
  sub.add_flag("--verdicts", o->verdicts, "Formats x targets, each cell qsel's verdict (explain FORMAT --on TARGET) with its reasons; "
                                           "--format html draws it as one self-contained page");
  sub.add_option("--vendor", o->vendor, "With --derived or --verdicts: only this vendor's parts or targets (nvidia, amd, intel, apple, …)");
  return [o, &ctx]() {
    require_format(ctx, "matrix");
    if (ctx.format == "html") {
      if (!o->engine.empty() || o->derived || !o->gpu.empty())
        throw UsageError("--format html draws qsel's verdict grid (--verdicts); drop --engine, --gpu and --derived, or use --format markdown");
      o->verdicts = true;
    }
    o->vendors = schema_enum(ctx, "accelerator", "/definitions/vendor/enum");
    print_matrix(ctx, matrix_answer(ctx.graph(), *o));
    return 0;
  };
}

}  // namespace qsel
