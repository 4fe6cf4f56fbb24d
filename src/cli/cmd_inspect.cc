// qsel inspect PATH: what a checkpoint folder, a config.json or a GGUF file
// really holds — shape, shipped format, parameters and bits per weight from the
// tensor headers, group sizes, and what stays in 16-bit.
#include <CLI/CLI.hpp>

#include "commands.h"
#include "qsel/artifact/checkpoint.h"
#include "qsel/cli/context.h"
#include "qsel/core/errors.h"
#include "qsel/report/inspect_report.h"
#include "qsel/model/checkpoint_format.h"
#include "qsel/report/inspect_json.h"
#include "qsel/model/model_checkpoint.h"
#include "qsel/model/resolve.h"

namespace qsel {

Runner setup_inspect(CLI::App& sub, Context& ctx) {
  auto path = std::make_shared<std::string>();
  auto tensors = std::make_shared<bool>(false);
  sub.add_option("path", *path, "A checkpoint folder (config.json, *.safetensors), a config.json, a .gguf file, a Hugging Face repo "
                 "(ORG/NAME[@REV][:TAG]) or a .gguf URL")->required();
  sub.add_flag("--tensors", *tensors, "Also list every tensor (name, dtype, shape, bytes) in the JSON output");
  return [path, tensors, &ctx]() {
    require_format(ctx, "inspect");
    ModelReading m = read_model(ctx.graph(), *path, ctx.hub());
    const Checkpoint& c = m.files.checkpoint;
    auto result = inspect_json(c, m.analysis, m.model ? &*m.model : nullptr, m.model_error);
    if (m.files.remote) result["source"] = m.files.source;
    if (*tensors) {
      result["tensor_list"] = nlohmann::ordered_json::array();
      for (const auto& t : c.tensors)
        result["tensor_list"].push_back({{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"bytes", t.bytes}});
    }
    if (ctx.json()) ctx.print_json(result);
    else *ctx.out << render_inspect_text(result, ctx.style());
    return 0;
  };
}

}  // namespace qsel
