// Bad lint input that is not a finding: an unknown rule code, a broken config
// or baseline, a path that does not exist. The CLI prints it and exits 2.
#pragma once
#include <stdexcept>

namespace qsel {

class LintInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace qsel
