#include "commands.h"

#include <fmt/format.h>

#include "qsel/cli/context.h"

namespace qsel {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"list", "List records of a kind (formats, accelerators, kernels, …)", setup_list},
      {"show", "Show one record: its fields, where it was read from, every edge in and out", setup_show},
  };
  return table;
}

void require_format(const Context& ctx, const char* command, std::initializer_list<const char*> supported) {
  for (const char* f : supported)
    if (ctx.format == f) return;
  throw UsageError(fmt::format("`qsel {}` does not support --format {}; use {}", command, ctx.format, fmt::join(supported, ", ")));
}

}  // namespace qsel
