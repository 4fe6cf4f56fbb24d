#include "qsel/core/problem.h"

#include <fmt/format.h>

namespace qsel {

std::string located(const Problem& p) {
  if (!p.mark.known()) return fmt::format("{}: {}", p.file, p.message);
  return fmt::format("{}:{}:{}: {}", p.file, p.mark.line, p.mark.column, p.message);
}

}  // namespace qsel
