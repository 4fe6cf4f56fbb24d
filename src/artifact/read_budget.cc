#include "qsel/artifact/read_budget.h"

#include <fmt/format.h>

#include "qsel/core/errors.h"

namespace qsel {

ReadBudget::ReadBudget(ReadLimits limits) : limits_(limits), started_(std::chrono::steady_clock::now()) {}

void ReadBudget::spend(std::uint64_t bytes, const std::string& file) {
  if (bytes > limits_.bytes - std::min(read_, limits_.bytes))
    throw UsageError(fmt::format("{}: reading this model's headers would pass {} MiB of reads; qsel reads at most that much of one model "
                                 "(the largest real checkpoints hold about 25 MB of headers)", file, limits_.bytes >> 20));
  read_ += bytes;
  auto spent = std::chrono::steady_clock::now() - started_;
  if (spent > limits_.time)
    throw UsageError(fmt::format("{}: reading this model's headers has taken more than {} s; qsel stops there "
                                 "(a local checkpoint's headers read in well under a second)",
                                 file, fmt::format("{:g}", limits_.time.count() / 1000.0)));
}

}  // namespace qsel
