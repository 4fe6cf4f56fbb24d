// qsel completion SHELL, qsel man: generated from the same CLI tree as --help.
#include <CLI/CLI.hpp>

#include "cli_model.h"
#include "commands.h"
#include "qsel/cli/context.h"
#include "qsel/core/version.h"

namespace qsel {

Runner setup_completion(CLI::App& sub, Context& ctx) {
  auto shell = std::make_shared<std::string>();
  sub.add_option("shell", *shell, "bash, zsh or fish")->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
  return [shell, &sub, &ctx]() {
    require_format(ctx, "completion");
    *ctx.out << completion_script(cli_model(*sub.get_parent(), ctx.graph()), *shell);
    return 0;
  };
}

Runner setup_man(CLI::App& sub, Context& ctx) {
  return [&sub, &ctx]() {
    require_format(ctx, "man");
    *ctx.out << man_page(cli_model(*sub.get_parent(), ctx.graph()), kQselVersion);
    return 0;
  };
}

}  // namespace qsel
