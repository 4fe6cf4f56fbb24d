// Setup functions of the commands, one per file; the table is in commands.cc.
#pragma once
#include "qsel/cli/app.h"

namespace qsel {

Runner setup_list(CLI::App& sub, Context& ctx);
Runner setup_show(CLI::App& sub, Context& ctx);
Runner setup_recommend(CLI::App& sub, Context& ctx);
Runner setup_explain(CLI::App& sub, Context& ctx);
Runner setup_inspect(CLI::App& sub, Context& ctx);
Runner setup_verify(CLI::App& sub, Context& ctx);
Runner setup_lint(CLI::App& sub, Context& ctx);
Runner setup_matrix(CLI::App& sub, Context& ctx);
Runner setup_graph(CLI::App& sub, Context& ctx);
Runner setup_completion(CLI::App& sub, Context& ctx);
Runner setup_man(CLI::App& sub, Context& ctx);

// Fails with a usage error when the command does not speak the chosen --format
// (the formats are the command's row in the table).
void require_format(const Context& ctx, const char* command);

}  // namespace qsel
